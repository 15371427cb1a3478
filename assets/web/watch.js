// Arbiter's live page: the state arrives by Server-Sent Events (the whole state on connecting,
// then after every change); the clocks count down here between changes, from the server's times.
"use strict";

const body = document.body;
// The page's own address (`/watch/<token>`, `/play/<token>`, `/host/<token>`): its stream and
// board are read from under it.
const base = body.dataset.base;
// The overlay may show the second side at the bottom: the strips follow the board.
const secondAtBottom = body.dataset.bottom === "second";
// The full overlay is wide: a game's boards side by side, its pool, key and legend beside them;
// the compact one is the board alone.
const overlay = body.classList.contains("overlay");
const compact = body.classList.contains("compact");
const layout = overlay ? (compact ? "&layout=bare" : "&layout=wide") : "";
const boardFrame = document.getElementById("board-frame");
const banner = document.getElementById("banner");
const connection = document.getElementById("connection");
let state = null;
let receivedAt = 0;
let bannerTimer = null;

// "4:05", "1:02:03", "2d 03:00:00".
function duration(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days > 0) return `${days}d ${two(hours)}:${two(minutes)}:${two(seconds)}`;
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

// A clock as it stands now: the normal time runs first, then the reserve.
function clockNow(clock) {
  const spent = clock.running ? performance.now() - receivedAt : 0;
  const normal = Math.max(0, clock.normal_ms - spent);
  const over = Math.max(0, spent - clock.normal_ms);
  const reserve = Math.max(0, clock.reserve_ms - over);
  return { normal, reserve };
}

function clockText(clock) {
  const { normal, reserve } = clockNow(clock);
  return clock.has_reserve ? `${duration(normal)} + ${duration(reserve)}` : duration(normal);
}

function showPlayer(element, player) {
  element.querySelector(".name").textContent = player.name;
  element.querySelector(".side").textContent = player.side;
  element.classList.toggle("to-act", player.to_act);
  const clock = element.querySelector(".clock");
  clock.textContent = player.clock ? clockText(player.clock) : "";
  clock.classList.toggle("running", Boolean(player.clock && player.clock.running));
  const left = player.clock ? clockNow(player.clock) : null;
  clock.classList.toggle("low", Boolean(left && player.clock.running && left.normal === 0 && left.reserve < 60000));
}

function showPlayers() {
  const [first, second] = state.players;
  const [top, bottom] = secondAtBottom ? [first, second] : [second, first];
  showPlayer(document.getElementById("player-top"), top);
  showPlayer(document.getElementById("player-bottom"), bottom);
  showSlimBar();
}

// The compact overlay's one slim bar: each name with its clock, the one to act in bold.
function showSlimBar() {
  const bar = document.getElementById("slim-bar");
  bar.replaceChildren(...state.players.map((player) => {
    const item = document.createElement("span");
    item.classList.toggle("to-act", player.to_act);
    item.textContent = player.clock ? `${player.name} ${clockText(player.clock)}` : player.name;
    return item;
  }));
}

// The board arrives as SVG (sharp at any size) and replaces the old one only once it is in,
// so the board never flickers; a board for a state that was overtaken meanwhile is dropped.
async function showBoard(address) {
  const url = `${address}${secondAtBottom ? "&bottom=second" : ""}${layout}`;
  if (boardFrame.dataset.src === url || boardFrame.dataset.loading === url) return;
  boardFrame.dataset.loading = url;
  try {
    const response = await fetch(url);
    if (!response.ok) return;
    const svg = await response.text();
    if (boardFrame.dataset.loading !== url) return;
    boardFrame.innerHTML = svg;
    boardFrame.dataset.src = url;
    document.dispatchEvent(new Event("arbiter:board"));
  } catch (error) {
    // The next state brings the board again.
  } finally {
    if (boardFrame.dataset.loading === url) delete boardFrame.dataset.loading;
  }
}

function show() {
  document.getElementById("variant").textContent = state.variant;
  document.getElementById("game-number").textContent = `Game #${state.game}`;
  document.title = `${state.players[0].name} vs ${state.players[1].name} · ${state.variant} · Arbiter`;
  const status = document.getElementById("status");
  status.textContent = state.status;
  // Once the game is over, the banner says the result: the status would say it again.
  status.hidden = state.finished;
  document.getElementById("moves").textContent = state.moves || "No moves yet.";
  const notes = document.getElementById("notes");
  notes.replaceChildren(...state.notes.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
  showPlayers();
  showBoard(state.board);
  // The board in words, for screen readers (the drawing itself is hidden from them).
  document.getElementById("board-words").textContent = state.board_words || "";
  if (state.finished) {
    showBanner(state.status, true);
    showGraph();
  }
  // A private page's script acts on the state shown.
  window.arbiterState = state;
  document.dispatchEvent(new Event("arbiter:state"));
}

// A finished game's evaluation graph, once someone asks for its analysis (`/analyse`): asked
// for now, then every half minute until it is there (a page that does not show it never asks).
const graphFrame = document.getElementById("graph-frame");
let graphTimer = null;
async function showGraph() {
  if (body.dataset.graph !== "1" || !graphFrame.hidden || graphTimer !== null) return;
  try {
    const response = await fetch(`${base}/graph.svg`);
    if (response.ok) {
      graphFrame.innerHTML = await response.text();
      graphFrame.hidden = false;
      return;
    }
  } catch (error) {
    // Asked again below.
  }
  graphTimer = setTimeout(() => { graphTimer = null; showGraph(); }, 30000);
}

// Warnings, forfeits and the result, as they happen: a warning for a while, the result for good.
function showBanner(text, isResult) {
  banner.textContent = text;
  banner.hidden = false;
  banner.classList.toggle("result", isResult);
  clearTimeout(bannerTimer);
  if (!isResult) bannerTimer = setTimeout(() => { banner.hidden = true; }, 8000);
}

// A line of news, newest first; `isPast` for what happened before the page opened (no banner).
function addNews(text, isPast) {
  const news = document.getElementById("news");
  const item = document.createElement("li");
  item.textContent = text;
  news.prepend(item);
  while (news.children.length > 20) news.lastChild.remove();
  if (!isPast && !(state && state.finished)) showBanner(text, false);
}

// How long to wait before asking again for a stream the server refused (it is busy, or this
// address holds many pages): it grows with each refusal, up to half a minute.
let refusedWait = 2000;

// A wait of about `ms`, spread so that pages told the same thing at once do not come back together.
function spread(ms) {
  return ms / 2 + Math.random() * ms;
}

// The page's one stream: a new one replaces it (a timer that fires late never leaves two open).
let source = null;
let connectionTimer = null;

// The stream is open: no notice, and none pending.
function connected() {
  clearTimeout(connectionTimer);
  connectionTimer = null;
  connection.hidden = true;
}

function connect() {
  if (source) source.close();
  source = new EventSource(`${base}/events`);
  const current = source;
  source.addEventListener("state", (event) => {
    state = JSON.parse(event.data);
    receivedAt = performance.now();
    connected();
    refusedWait = 2000;
    show();
  });
  source.addEventListener("news", (event) => addNews(event.data, false));
  // The stream's time is up: the server ends it, and a new one starts after a moment, quietly
  // (the page keeps its state meanwhile).
  source.addEventListener("reconnect", () => {
    current.close();
    if (current === source) setTimeout(connect, spread(1000));
  });
  source.onopen = connected;
  source.onerror = () => {
    // A stream back within a moment (the browser retries by itself) is not worth a notice.
    if (connectionTimer === null) {
      connectionTimer = setTimeout(() => {
        connectionTimer = null;
        connection.hidden = Boolean(source && source.readyState === EventSource.OPEN);
      }, 2000);
    }
    // The browser retries a dropped stream by itself; one the server refused (or ended without
    // the browser trying again) is retried here.
    if (current === source && current.readyState === EventSource.CLOSED) {
      setTimeout(connect, spread(refusedWait));
      refusedWait = Math.min(refusedWait * 2, 30000);
    }
  };
}

// A page left for another may be kept in the browser's back-forward cache, its stream still
// open: it gives the stream back (the server counts streams per address), and opens one again
// if it is shown again.
window.addEventListener("pagehide", () => { if (source) source.close(); });
window.addEventListener("pageshow", (event) => { if (event.persisted) connect(); });

// The first frame came with the page (its state and board): shown at once, with the last
// actions as news; the stream opens once the page is drawn.
const initial = JSON.parse(document.getElementById("initial-state").textContent);
if (initial) {
  state = initial;
  receivedAt = performance.now();
  show();
  for (const line of initial.recent || []) addNews(line, true);
}

setInterval(() => { if (state) showPlayers(); }, 200);
// A still (`?still=1`, for a capture tool) is the first frame alone: no stream.
if (body.dataset.still !== "1") {
  if (document.readyState === "complete") setTimeout(connect, 0);
  else window.addEventListener("load", () => setTimeout(connect, 0));
}

// Acting from a private page. A player's page (`play`): click a unit to light where it may go,
// then a square (or a button for what has no square: a promotion, a word such as "pass"); the
// last choice plays the action. Secret choices, placements and picks are clicked the same way; a
// list is written or drawn. A host's panel (`host`): buttons that run the match's clocks.
// Everything is sent to the server, which checks it as it checks a typed command.
"use strict";

(() => {
  const base = document.body.dataset.base;
  const isHost = document.body.classList.contains("host");
  const choices = document.getElementById("choices");
  const said = document.getElementById("said");
  const listForm = document.getElementById("list-form");
  let path = [];
  let shownVersion = null;

  function current() {
    return window.arbiterState || null;
  }

  async function send(address, body) {
    said.textContent = "…";
    said.className = "";
    try {
      const response = await fetch(`${base}/${address}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      const answer = await response.json();
      said.textContent = answer.ok ? (answer.said || "Done.") : answer.refused;
      said.className = answer.ok ? "done" : "refused";
    } catch (error) {
      said.textContent = "The server could not be reached: try again.";
      said.className = "refused";
    }
  }

  // ---- A player's page ----

  // The actions whose steps begin with the keys chosen so far.
  function following(state) {
    return (state.actions || []).filter((action) =>
      action.steps.length >= path.length && path.every((key, i) => action.steps[i].key === key));
  }

  // The next step's choices, each once.
  function nextChoices(state) {
    const seen = new Map();
    for (const action of following(state)) {
      const step = action.steps[path.length];
      if (step && !seen.has(step.key)) seen.set(step.key, step);
    }
    return [...seen.values()];
  }

  function squareOf(board, square) {
    return document.querySelector(`#board-frame .sq[data-board="${board}"][data-square="${square}"]`);
  }

  function choose(key) {
    const state = current();
    path.push(key);
    const found = following(state);
    if (found.length === 1 && found[0].steps.length === path.length) {
      const action = found[0].text;
      path = [];
      show();
      const prompt = state.prompt || {};
      send("act", { action, version: state.version, prompt_key: prompt.key || null });
      return;
    }
    if (found.length === 0) path = [];
    show();
  }

  function button(label, detail, onClick, kind) {
    const made = document.createElement("button");
    made.type = "button";
    made.textContent = detail ? `${label} · ${detail}` : label;
    if (kind) made.className = kind;
    made.addEventListener("click", onClick);
    return made;
  }

  function show() {
    const state = current();
    if (!state) return;
    if (state.version !== shownVersion) {
      shownVersion = state.version;
      path = [];
    }
    for (const square of document.querySelectorAll("#board-frame .sq")) {
      square.classList.remove("can", "chosen");
    }
    const options = nextChoices(state);
    for (const option of options) {
      if (option.at) {
        const square = squareOf(option.at.board, option.at.square);
        if (square) square.classList.add("can");
      }
    }
    const chosen = following(state)[0];
    if (chosen) {
      for (const step of chosen.steps.slice(0, path.length)) {
        if (step.at) {
          const square = squareOf(step.at.board, step.at.square);
          if (square) square.classList.add("chosen");
        }
      }
    }
    const prompt = state.prompt || null;
    const heading = document.getElementById("to-do");
    const buttons = [];
    if (state.finished) {
      heading.textContent = "The game is over.";
    } else if (prompt && prompt.asks_for_list) {
      heading.textContent = prompt.text;
    } else if (options.length === 0) {
      heading.textContent = "Not your turn: the page updates by itself.";
    } else {
      heading.textContent = prompt ? prompt.text
        : path.length === 0 ? "Your turn: click a lit piece (or a button)." : "Now click where, or choose below.";
      for (const option of options) {
        // Squares are clicked on the board; what has none is a button (it may be clicked here too).
        if (!option.at || path.length > 0) {
          buttons.push(button(option.label, option.detail, () => choose(option.key), option.at ? "square" : ""));
        }
      }
      if (path.length > 0) buttons.push(button("Cancel", "", () => { path = []; show(); }, "cancel"));
    }
    choices.replaceChildren(...buttons);
    listForm.hidden = !(prompt && prompt.asks_for_list) || state.finished;
  }

  function onBoardClick(event) {
    const square = event.target.closest && event.target.closest(".sq");
    const state = current();
    if (!square || !state) return;
    const board = Number(square.dataset.board);
    const name = square.dataset.square;
    const hit = (choicesNow) => choicesNow.find((o) => o.at && o.at.board === board && o.at.square === name);
    let option = hit(nextChoices(state));
    if (!option && path.length > 0) {
      // Another unit clicked instead of a target: start again from it.
      path = [];
      option = hit(nextChoices(state));
    }
    if (option) choose(option.key);
    else { path = []; show(); }
  }

  function setUpList() {
    document.getElementById("list-send").addEventListener("click", () => {
      send("list", { text: document.getElementById("list-text").value });
    });
    document.getElementById("list-draw").addEventListener("click", () => send("list", { drawn: true }));
    for (const piece of document.querySelectorAll("#list-palette button")) {
      piece.addEventListener("click", () => {
        const text = document.getElementById("list-text");
        text.value = (text.value.trim() ? `${text.value.trim()}\n` : "") + piece.dataset.line;
      });
    }
  }

  // ---- A host's panel ----

  function showPanel() {
    const state = current();
    if (!state) return;
    document.getElementById("host-pause").hidden = state.paused || state.finished;
    document.getElementById("host-resume").hidden = !state.paused || state.finished;
    for (const id of ["host-add-first", "host-add-second", "host-win-first", "host-win-second", "host-draw", "host-abort"]) {
      document.getElementById(id).hidden = state.finished;
    }
    document.getElementById("host-rematch").hidden = !state.finished;
    document.getElementById("host-add-first").textContent = `Add time: ${state.players[0].name}`;
    document.getElementById("host-add-second").textContent = `Add time: ${state.players[1].name}`;
    document.getElementById("host-win-first").textContent = `Win to ${state.players[0].name}`;
    document.getElementById("host-win-second").textContent = `Win to ${state.players[1].name}`;
  }

  function setUpPanel() {
    const seconds = () => Number(document.getElementById("host-seconds").value) || 60;
    const does = (id, body) => document.getElementById(id).addEventListener("click", () => {
      if (typeof body === "function") body = body();
      if (["adjudicate", "abort"].includes(body.what) && !window.confirm("End the match now?")) return;
      send("act", body);
    });
    does("host-pause", { what: "pause" });
    does("host-resume", { what: "resume" });
    document.getElementById("host-add-first").addEventListener("click", () => send("act", { what: "add-time", seat: "first", seconds: seconds() }));
    document.getElementById("host-add-second").addEventListener("click", () => send("act", { what: "add-time", seat: "second", seconds: seconds() }));
    does("host-win-first", { what: "adjudicate", seat: "first" });
    does("host-win-second", { what: "adjudicate", seat: "second" });
    does("host-draw", { what: "adjudicate" });
    does("host-abort", { what: "abort" });
    does("host-rematch", { what: "rematch" });
  }

  if (isHost) {
    setUpPanel();
    document.addEventListener("arbiter:state", showPanel);
    showPanel();
  } else {
    setUpList();
    document.getElementById("board-frame").addEventListener("click", onBoardClick);
    document.addEventListener("arbiter:state", show);
    document.addEventListener("arbiter:board", show);
    show();
  }
})();

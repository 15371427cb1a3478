#!/usr/bin/env python3
"""How fast and how small Arbiter's board images and replays are, beside two public anchors.

One board PNG: python-chess draws the position after 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O
Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 Nb8 10.d4 Nbd7 11.c4 c6 12.cxb5 axb5 (last move a6b5
highlighted) as a 480 px SVG with coordinates, and cairosvg turns it into a 480x480 PNG; timed
per image in this process after a warm-up. Arbiter's figure is `arbiter bench render` (its 8x8
position, 480x550 px with names and clocks, view to PNG bytes), and the ratio is the cairosvg
median over Arbiter's 8x8 median.

One replay GIF: lila-gif (Lichess's GIF service) is started on a free local port and its
`GET /example.gif` (a 93-frame game at 720x840) is timed whole, over HTTP, after one warm-up.
Arbiter's figure is `arbiter bench replay` (a 93-frame random chess game at 480x550, drawn in
process, and a 201-frame 10x10 one). The games and the sizes differ, so the comparison is per
megapixel of frames: milliseconds and bytes for frames x width x height / 1e6. The frames are
the GIF's image descriptors, counted by walking its blocks; lila-gif's 94 are its 93 positions
and a 1-centisecond black frame it adds at the end. lila-gif encodes only the rectangle that
changed from the frame before, and the area those rectangles cover is printed too.

Needs python-chess and cairosvg (`pip install chess cairosvg`, with libcairo2 installed), a
release build of Arbiter and one of lila-gif
(`git clone https://github.com/lichess-org/lila-gif && cargo build --release`):

    python3 benches/images_against_anchors.py --arbiter target/release/arbiter \
        --lila-gif /tmp/lila-gif/target/release/lila-gif --runs 20 [--anchor-png /tmp/anchor.png]

Sizes: "KB" is 1024 bytes, as in Arbiter's own output.
"""

import argparse
import re
import shlex
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

import cairosvg
import chess
import chess.svg

MOVES = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5"
RENDER_LINE = re.compile(r"(\d+x\d+) \((\d+)x(\d+) px\): median ([\d.]+) ms.*?PNG ([\d.]+) KB")
REPLAY_LINE = re.compile(r"replay (.+?): (\d+) actions, (\d+) frames, (\d+) KiB; "
                         r"drawn in p50 ([\d.]+) ms, min ([\d.]+) ms")


def python_chess_board(iterations, png_path):
    """Median ms per board PNG (SVG + raster), and the SVG and raster medians apart; PNG bytes."""
    board = chess.Board()
    for san in MOVES.split():
        board.push_san(san)
    lastmove = chess.Move.from_uci("a6b5")
    assert board.peek() == lastmove

    def draw():
        start = time.perf_counter()
        svg = chess.svg.board(board, lastmove=lastmove, size=480, coordinates=True)
        drawn = time.perf_counter()
        png = cairosvg.svg2png(bytestring=svg.encode(), output_width=480, output_height=480)
        return png, drawn - start, time.perf_counter() - drawn

    for _ in range(5):
        png, _, _ = draw()
    totals, svgs, rasters = [], [], []
    for _ in range(iterations):
        png, svg_s, raster_s = draw()
        totals.append((svg_s + raster_s) * 1e3)
        svgs.append(svg_s * 1e3)
        rasters.append(raster_s * 1e3)
    if png_path:
        with open(png_path, "wb") as out:
            out.write(png)
    return statistics.median(totals), statistics.median(svgs), statistics.median(rasters), png


def gif_frames(data):
    """(width, height, frames, pixels the frames cover) of a GIF, walking its block structure."""
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("not a GIF")
    def u16(at):
        return int.from_bytes(data[at:at + 2], "little")

    width, height = u16(6), u16(8)
    packed = data[10]
    pos = 13 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
    frames = area = 0

    def skip_sub_blocks(pos):
        while data[pos]:
            pos += data[pos] + 1
        return pos + 1

    while True:
        kind = data[pos]
        if kind == 0x3B:  # trailer
            return width, height, frames, area
        if kind == 0x21:  # extension: label, then sub-blocks
            pos = skip_sub_blocks(pos + 2)
        elif kind == 0x2C:  # image descriptor, local colour table, LZW code size, sub-blocks
            frames += 1
            area += u16(pos + 5) * u16(pos + 7)
            local = data[pos + 9]
            pos += 10 + (3 << ((local & 7) + 1) if local & 0x80 else 0)
            pos = skip_sub_blocks(pos + 1)
        else:
            raise ValueError(f"unexpected GIF block 0x{kind:02x} at byte {pos}")


def lila_gif(binary, runs, commands):
    """Median ms per whole GET /example.gif, and the GIF's bytes, from a lila-gif started here."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [binary, "--bind", f"127.0.0.1:{port}"]
    commands.append(shlex.join(command))
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"lila-gif exited with {server.returncode}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("lila-gif did not answer within 30 s")
                time.sleep(0.05)
        url = f"http://127.0.0.1:{port}/example.gif"
        commands.append(f"GET {url}  ({runs} times after one warm-up)")
        times = []
        for run in range(runs + 1):
            start = time.perf_counter()
            with urllib.request.urlopen(url, timeout=60) as response:
                gif = response.read()
            if run:
                times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times), gif
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def arbiter(binary, commands):
    """Arbiter's render lines by board ({'8x8': (w, h, ms, KB)}) and replay lines by variant."""
    renders, replays = {}, {}
    for args in (["bench", "render", "--iterations", "500", "--images-per-game", "0"], ["bench", "replay", "--iterations", "20"]):
        commands.append(shlex.join([binary] + args))
        out = subprocess.run([binary] + args, check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            if match := RENDER_LINE.search(line):
                name, w, h, ms, kb = match.groups()
                renders[name] = (int(w), int(h), float(ms), float(kb))
            elif match := REPLAY_LINE.search(line):
                name, _, frames, kib, p50, _ = match.groups()
                replays[name] = (int(frames), int(kib), float(p50))
    if "8x8" not in renders or "Chess" not in replays:
        raise RuntimeError(f"could not read Arbiter's output:\n{out}")
    return renders, replays


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arbiter", default="target/release/arbiter")
    parser.add_argument("--lila-gif", default="/tmp/lila-gif/target/release/lila-gif")
    parser.add_argument("--runs", type=int, default=20, help="GET /example.gif requests timed")
    parser.add_argument("--board-iterations", type=int, default=200, help="python-chess boards timed")
    parser.add_argument("--anchor-png", help="write python-chess + cairosvg's board here")
    args = parser.parse_args()
    commands = []

    board_ms, svg_ms, raster_ms, png = python_chess_board(args.board_iterations, args.anchor_png)
    board_kb = len(png) / 1024
    print(f"python-chess {chess.__version__} + cairosvg {cairosvg.__version__}, 480x480 px: median "
          f"{board_ms:.2f} ms per image (SVG {svg_ms:.2f}, cairosvg {raster_ms:.2f}) "
          f"over {args.board_iterations}; PNG {board_kb:.1f} KB")

    lila_ms, gif = lila_gif(args.lila_gif, args.runs, commands)
    lila_w, lila_h, lila_frames, lila_area = gif_frames(gif)
    print(f"lila-gif /example.gif: {lila_frames} frames, {lila_w}x{lila_h} px, {len(gif) / 1024:.0f} KiB; "
          f"median {lila_ms:.1f} ms per request over {args.runs}; its frames' rectangles cover "
          f"{lila_area / 1e6:.1f} MP")

    renders, replays = arbiter(args.arbiter, commands)
    for name, (w, h, ms, kb) in renders.items():
        print(f"Arbiter {name} board, {w}x{h} px: median {ms:.2f} ms; PNG {kb:.1f} KB")
    for name, (frames, kib, p50) in replays.items():
        print(f"Arbiter replay {name}: {frames} frames, {kib} KiB; p50 {p50:.0f} ms")

    w, h, ms, kb = renders["8x8"]
    print(f"\nBoard: python-chess + cairosvg {board_ms:.2f} ms / Arbiter 8x8 {ms:.2f} ms = "
          f"{board_ms / ms:.1f}x; PNG {board_kb:.1f} KB (480x480) against {kb:.1f} KB ({w}x{h})")
    lila_mp = lila_frames * lila_w * lila_h / 1e6
    lila_per_mp, lila_bytes_per_mp = lila_ms / lila_mp, len(gif) / lila_mp
    frames, kib, p50 = replays["Chess"]
    arb_mp = frames * w * h / 1e6
    arb_per_mp, arb_bytes_per_mp = p50 / arb_mp, kib * 1024 / arb_mp
    print(f"Replay per megapixel of frames: lila-gif {lila_per_mp:.2f} ms, {lila_bytes_per_mp / 1024:.1f} KiB "
          f"({lila_mp:.1f} MP); Arbiter chess {arb_per_mp:.2f} ms, {arb_bytes_per_mp / 1024:.1f} KiB "
          f"({arb_mp:.1f} MP)")
    print(f"  lila-gif / Arbiter: time {lila_per_mp / arb_per_mp:.2f}x, "
          f"bytes {lila_bytes_per_mp / arb_bytes_per_mp:.2f}x (above 1: Arbiter is faster / smaller)")

    print("\nCommands run:")
    for command in commands:
        print("  " + command)
    return 0


if __name__ == "__main__":
    sys.exit(main())

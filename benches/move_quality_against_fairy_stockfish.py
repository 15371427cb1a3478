#!/usr/bin/env python3
"""How good the computer opponent's chess moves are, by Fairy-Stockfish's judgement of each.

A match's score spreads by several points in 40 games; this spreads far less. The same 277
positions every run (`benches/chess-positions.fen`: from 40 games Fairy-Stockfish played against
itself at Skill Level 8, 20 ms a move, after 4 random plies, every seventh ply from the
fourteenth, every other one kept), each searched by `arbiter uci` within a node budget (`go
nodes`, what a level spends), or by Fairy-Stockfish at a Skill Level within 100 ms (`fs:LEVEL`).
Fairy-Stockfish then scores its own best move and the move chosen at a fixed depth, each search
from an empty hash table (so a score does not depend on what was judged before it) and each score
held within 1,000 centipawns either way (a position won by ten pawns is won, mate or not: a judge
that finds the mate in one search and a large score in another must not call the move a blunder);
the figures are the average loss in centipawns (each capped at 1,000) and how many moves lost 30
and 100 or more.

Needs python-chess (`pip install chess`) and a Fairy-Stockfish binary:

    python3 benches/move_quality_against_fairy_stockfish.py --engine /path/to/fairy-stockfish \
        --player target/release/arbiter --nodes 25000 [--player fs:5 ...]

Fairy-Stockfish's scores are cached in --work, so a second player or run costs only its own moves.
"""

import argparse
import json
import os

import chess
import chess.engine

CAP = 1_000
MATE = 3_000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="a Fairy-Stockfish binary, the judge")
    parser.add_argument("--player", action="append", required=True,
                        help="an Arbiter binary (its `uci`), or fs:LEVEL for Fairy-Stockfish at that Skill Level")
    parser.add_argument("--nodes", type=int, default=25_000, help="an Arbiter player's nodes a move")
    parser.add_argument("--depth", type=int, default=12, help="the judge's depth")
    parser.add_argument("--positions", default=os.path.join(os.path.dirname(__file__), "chess-positions.fen"))
    parser.add_argument("--work", default="target/move-quality")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    with open(args.positions) as f:
        fens = [line.strip() for line in f if line.strip()]
    cache_path = os.path.join(args.work, f"judged-afresh-depth-{args.depth}.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    judge = chess.engine.SimpleEngine.popen_uci(args.engine)

    def judged(board, move=None):
        key = f"{board.fen()} {move.uci() if move else 'best'}"
        if key not in cache:
            # A new `game` each time: python-chess sends `ucinewgame`, which empties the hash.
            info = judge.analyse(board, chess.engine.Limit(depth=args.depth), root_moves=[move] if move else None,
                                 game=object())
            cache[key] = info["score"].relative.score(mate_score=MATE)
        return max(-CAP, min(CAP, cache[key]))

    try:
        for name in args.player:
            if name.startswith("fs:"):
                player = chess.engine.SimpleEngine.popen_uci(args.engine)
                player.configure({"Skill Level": int(name[3:])})
                limit = chess.engine.Limit(time=0.1)
            else:
                player = chess.engine.SimpleEngine.popen_uci([name, "uci"])
                limit = chess.engine.Limit(nodes=args.nodes)
            losses = []
            try:
                for fen in fens:
                    board = chess.Board(fen)
                    move = player.play(board, limit).move
                    losses.append(min(CAP, max(0, judged(board) - judged(board, move))))
            finally:
                player.quit()
            budget = "100 ms" if name.startswith("fs:") else f"{args.nodes} nodes"
            print(f"{name} ({budget}): {len(losses)} positions, average loss {sum(losses) / len(losses):.1f} cp, "
                  f"{sum(loss >= 30 for loss in losses)} lost 30 or more, {sum(loss >= 100 for loss in losses)} "
                  f"100 or more", flush=True)
    finally:
        judge.quit()
        with open(cache_path, "w") as f:
            json.dump(cache, f)


if __name__ == "__main__":
    main()

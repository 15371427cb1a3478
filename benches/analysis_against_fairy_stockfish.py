#!/usr/bin/env python3
"""How Arbiter's analysis of finished chess games compares with Fairy-Stockfish's.

Plays chess games between the computer's levels (`arbiter ai-match`), analyses each with
`arbiter analyse` (the same analysis as `/analyse`) and has Fairy-Stockfish evaluate every
position of the same games at a fixed depth. A move Fairy-Stockfish calls a blunder loses 300
centipawns or more of its evaluation; the figures are how many of those Arbiter marks as a
mistake or a blunder (`?` or `??` in its record), and how many of Arbiter's blunders (`??`)
Fairy-Stockfish rates within 50 centipawns of its best move. A second count of the first holds
Fairy-Stockfish's values within 10 pawns either way, so a game already lost by more does not make
a blunder of a move that lets the mate in.

Needs python-chess (`pip install chess`) and a Fairy-Stockfish binary:

    python3 benches/analysis_against_fairy_stockfish.py --arbiter target/release/arbiter \
        --engine /path/to/fairy-stockfish --games 20 --depth 16 \
        [--players ai:normal "uci:/path/to/fairy-stockfish" --uci-option "Skill Level=5"]

The annotated records are kept in --work (default: a temporary folder), to read again. The games
played (games.txt) and Fairy-Stockfish's values (fairy-depth-D-N.txt) are kept there too and used
again by a later run with the same --work and the same games asked for (--games, --seed,
--players, --uci-option), so two builds or budgets (--nodes) are compared on the same games, and
only Arbiter's side is run again.
"""

import argparse
import concurrent.futures
import io
import os
import subprocess
import sys
import tempfile

import chess
import chess.engine
import chess.pgn

MATE = 10_000
BLUNDER_CP = 300
# A second count holds each value within this much either way: a position lost by ten pawns is
# lost, mate or not. Without it, a depth-16 search that sees a mate in one position and not in
# the next (or the other way round) makes a "blunder" of a move in a game long decided.
HELD_CP = 1_000
CLOSE_CP = 50
MISTAKE_NAGS = {chess.pgn.NAG_MISTAKE, chess.pgn.NAG_BLUNDER}


def games(arbiter, count, seed, players, uci_options):
    """`count` games between `players` (ai-match's), colours alternated: each a list of SAN moves."""
    played = []
    pairings = [players, players[::-1]]
    options = [word for option in uci_options for word in ("--uci-option", option)]
    for index, (white, black) in enumerate(pairings):
        wanted = count // 2 + (count % 2 if index == 0 else 0)
        out = subprocess.run(
            [arbiter, "ai-match", "--variant", "chess", "--games", str(wanted), "--seed", str(seed + index),
             "--white", white, "--black", black, "--show-moves"] + options,
            check=True, capture_output=True, text=True).stdout
        played += [line.split("moves:", 1)[1].split() for line in out.splitlines() if "moves:" in line]
    return played


def games_kept(work, arbiter, count, seed, players, uci_options):
    """The games an earlier run in `work` played with the same arguments, or new ones, kept there
    for the next run (another seed, count or pair of players plays its own)."""
    kept = os.path.join(work, "games.txt")
    asked = f"# games {count}, seed {seed}, players {' '.join(players)}, options {' '.join(uci_options)}"
    if os.path.exists(kept):
        with open(kept) as f:
            lines = f.read().splitlines()
        if lines and lines[0] == asked:
            return [line.split() for line in lines[1:] if line.strip()]
    played = games(arbiter, count, seed, players, uci_options)
    with open(kept, "w") as f:
        f.write(asked + "\n")
        f.writelines(" ".join(moves) + "\n" for moves in played)
    return played


def record(moves):
    game = chess.pgn.Game()
    node = game
    board = chess.Board()
    for san in moves:
        move = board.parse_san(san)
        node = node.add_variation(move)
        board.push(move)
    game.headers["Result"] = board.result(claim_draw=True) if board.is_game_over(claim_draw=True) else "*"
    return str(game)


def score_for_mover(board, engine, depth):
    """The position's value for the side to move, in centipawns, and the engine's best move."""
    if board.is_checkmate():
        return -MATE, None
    if board.is_game_over(claim_draw=True):
        return 0, None
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    return info["score"].relative.score(mate_score=MATE), info.get("pv", [None])[0]


def fairy_values(moves, engine_path, depth):
    """Each position's value by Fairy-Stockfish, in centipawns for the side to move."""
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    try:
        board = chess.Board()
        values = []
        for san in moves:
            values.append(score_for_mover(board, engine, depth)[0])
            board.push_san(san)
        values.append(score_for_mover(board, engine, depth)[0])
    finally:
        engine.quit()
    return values


def fairy_values_kept(moves, engine_path, depth, work, number):
    """`fairy_values`, read from `work` where an earlier run kept them for the same game."""
    kept = os.path.join(work, f"fairy-depth-{depth}-{number}.txt")
    if os.path.exists(kept):
        with open(kept) as f:
            lines = f.read().split("\n", 1)
        if lines[0] == " ".join(moves):
            return [int(value) for value in lines[1].split()]
    values = fairy_values(moves, engine_path, depth)
    with open(kept, "w") as f:
        f.write(" ".join(moves) + "\n" + " ".join(map(str, values)) + "\n")
    return values


def arbiter_marks(arbiter, moves, nodes, work, number):
    source = os.path.join(work, f"game-{number}.pgn")
    annotated = os.path.join(work, f"game-{number}-analysed.pgn")
    with open(source, "w") as f:
        f.write(record(moves))
    subprocess.run([arbiter, "analyse", source, "--nodes", str(nodes), "--out", annotated],
                   check=True, capture_output=True, text=True)
    with open(annotated) as f:
        game = chess.pgn.read_game(io.StringIO(f.read()))
    marks = [node.nags for node in game.mainline()]
    evals = [node.eval() for node in game.mainline()]
    assert len(marks) == len(moves), f"game {number}: {len(marks)} moves read back, {len(moves)} played"
    assert any(e is not None for e in evals), f"game {number}: python-chess reads no [%eval]"
    return marks, [e.white().score(mate_score=MATE) if e is not None else None for e in evals]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arbiter", default="target/release/arbiter")
    parser.add_argument("--engine", required=True, help="a Fairy-Stockfish binary")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--nodes", type=int, default=300_000, help="Arbiter's nodes a position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", nargs=2, default=["ai:easy", "ai:normal"],
                        help="who plays the games (ai-match's players), each side in half of them")
    parser.add_argument("--uci-option", action="append", default=[],
                        help="NAME=VALUE for a UCI player (ai-match's --uci-option)")
    parser.add_argument("--work", default=None)
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="arbiter-analysis-")
    os.makedirs(work, exist_ok=True)
    played = games_kept(work, args.arbiter, args.games, args.seed, args.players, args.uci_option)
    print(f"{len(played)} games, {sum(map(len, played))} moves; records in {work}", flush=True)
    fs_blunders = caught = arbiter_blunders = close = moves_seen = 0
    held_blunders = held_caught = 0
    held = lambda value: max(-HELD_CP, min(HELD_CP, value))
    # Every move side by side, for a closer look: game, move, mover, Fairy-Stockfish's values
    # before and after (for the mover), its loss, Arbiter's marks and evaluation after (White's).
    table = open(os.path.join(work, "moves.tsv"), "w")
    table.write("game\tply\tmove\tfs_before\tfs_after\tfs_loss\tarbiter_nags\tarbiter_after\n")
    # Fairy-Stockfish and Arbiter side by side, one core each.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for number, moves in enumerate(played, 1):
            fairy = pool.submit(fairy_values_kept, moves, args.engine, args.depth, work, number)
            ours = pool.submit(arbiter_marks, args.arbiter, moves, args.nodes, work, number)
            values, (marks, evals) = fairy.result(), ours.result()
            # The value after a move is the opponent's, turned around.
            losses = [max(0, values[i] + values[i + 1]) for i in range(len(moves))]
            for ply, (loss, nags) in enumerate(zip(losses, marks)):
                table.write(f"{number}\t{ply}\t{moves[ply]}\t{values[ply]}\t{-values[ply + 1]}\t{loss}\t"
                            f"{','.join(map(str, sorted(nags)))}\t{evals[ply]}\n")
                moves_seen += 1
                if loss >= BLUNDER_CP:
                    fs_blunders += 1
                    caught += bool(nags & MISTAKE_NAGS)
                if held(values[ply]) + held(values[ply + 1]) >= BLUNDER_CP:
                    held_blunders += 1
                    held_caught += bool(nags & MISTAKE_NAGS)
                if chess.pgn.NAG_BLUNDER in nags:
                    arbiter_blunders += 1
                    close += loss <= CLOSE_CP
            print(f"game {number}: {len(moves)} moves; so far FS blunders {fs_blunders}, caught {caught}; "
                  f"Arbiter blunders {arbiter_blunders}, within {CLOSE_CP} cp {close}", flush=True)
    table.close()
    share = lambda part, whole: f"{100 * part / whole:.0f}%" if whole else "-"
    print(f"moves judged: {moves_seen}")
    print(f"Fairy-Stockfish's blunders (loss >= {BLUNDER_CP} cp at depth {args.depth}): {fs_blunders}; "
          f"Arbiter marks {caught} ({share(caught, fs_blunders)}) as mistakes or blunders")
    print(f"with values held within {HELD_CP} cp: {held_blunders}; Arbiter marks {held_caught} "
          f"({share(held_caught, held_blunders)})")
    print(f"Arbiter's blunders: {arbiter_blunders}; {close} ({share(close, arbiter_blunders)}) within "
          f"{CLOSE_CP} cp of Fairy-Stockfish's best")


if __name__ == "__main__":
    sys.exit(main())

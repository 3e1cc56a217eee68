"""Freeze a kennerspiel-played random game as a regression record (tests/data/games/kenner/).

    python -m tools.kenner.freeze --config 3 ireland long --seed 1 --name ks-round-tower-bare

The record has the schema of ../shared/games/README.md: kennerspiel's moves and actors, its
state after every COMMIT (goods, score totals, round labels) and, if the game ended, its final
scores; tests/tools/test_kennerspiel_diff.py replays every frozen record without Node.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .compare import COLOURS, MAX_COMMANDS, our_random_moves
from .oracle import Oracle

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "games" / "kenner"


def frozen_record(oracle, config: tuple, seed: int, name: str, why: str,
                  direction: str = "ks", upto: int | None = None,
                  moves: list | None = None) -> dict:
    """The random game for (config, seed) as a regression record: kennerspiel's own (``ks``),
    or ours (``ours``: our moves, up to move ``upto``, with kennerspiel's states)."""
    players, country, length = config
    given = list(COLOURS[:players + (1 if players == 1 else 0)])
    if direction == "ks" and moves is None:
        g = oracle.random_game([str(players), country, length], given, seed, MAX_COMMANDS)
    else:
        if moves is None:
            moves, _ = our_random_moves(config, seed)
        moves = moves[:upto]
        g = oracle.replay(moves)
        if g["rejected"] is not None:
            raise SystemExit(f"kennerspiel rejects move {g['rejected']}: freeze fewer moves")
        g["moves"], g["actors"] = moves, None
    final = g["final"]
    colours = [p["color"] for p in final["players"]]
    snaps = [{"after_move": c["after_move"], "round": c["round"],
              "settlement_round": c["settlement_round"],
              "goods": {p["color"]: p["goods"] for p in c["players"]},
              "score_totals": {p["color"]: s["total"] for p, s in zip(c["players"], c["scores"])}}
             for c in g["commits"]]
    done = final["status"] == "FINISHED"
    scores = [{"color": c, "total": s["total"], "goods": s["goods"], "economic": s["economic"],
               "dwelling": sum(s["dwelling"])} for c, s in zip(colours, final["scores"])]
    return {
        "id": name, "source": f"{'kennerspiel' if direction == 'ks' else 'our'} random game: "
        f"tools/kenner --direction {direction} --config {players} "
        f"{country} {length} --seed {seed} (oracle {oracle.version})",
        "origin": f"{direction}-random", "config": {"players": players, "country": country,
                                                   "length": length},
        "start": {"seed": None, "colors_given": given, "seat_colors": colours,
                  "neutral_color": final["neutral"]},
        "complete": done, "n_moves": len(g["moves"]),
        "final_scores": scores if done else None,
        "scores_after_last_move": None if done else scores,
        "moves": g["moves"], "actors": g["actors"], "checkpoints": [],
        "commit_snapshots": snaps, "notes": why,
    }


def main(argv=None) -> int:
    """Write one frozen record; the exit status."""
    ap = argparse.ArgumentParser(prog="python -m tools.kenner.freeze")
    ap.add_argument("--config", nargs=3, required=True, metavar=("PLAYERS", "COUNTRY", "LENGTH"))
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--why", default="", help="what the game pins (stored as notes)")
    ap.add_argument("--direction", choices=("ks", "ours"), default="ks",
                    help="whose random game (default ks: kennerspiel's)")
    ap.add_argument("--moves", type=int, help="keep only the first N moves")
    ap.add_argument("--rejects-next", action="store_true",
                    help="with --moves N: store move N (the one kennerspiel rejects) as "
                    "rejects_next; the test then checks that ours rejects it too")
    ap.add_argument("--from-log", metavar="JSONL", help="take the game's moves from a --log "
                    "file of tools.kenner.diff (the line with this config, seed and direction)")
    args = ap.parse_args(argv)
    p, country, length = args.config
    config = (int(p), country, length)
    moves = None
    if args.from_log:
        with open(args.from_log, encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                if (tuple(d["config"]), d["seed"], d["direction"]) == (config, args.seed,
                                                                        args.direction):
                    moves = d["record"]["moves"]
        if moves is None:
            raise SystemExit(f"{args.from_log} has no {args.direction} game {config} {args.seed}")
    if args.rejects_next and args.moves is None:
        ap.error("--rejects-next needs --moves N")
    with Oracle() as oracle:
        rec = frozen_record(oracle, config, args.seed, args.name, args.why, args.direction,
                            args.moves, moves)
        if args.rejects_next:
            full = moves if moves is not None else (
                oracle.random_game([p, country, length], list(COLOURS[:config[0] + (
                    config[0] == 1)]), args.seed, MAX_COMMANDS)["moves"]
                if args.direction == "ks" else our_random_moves(config, args.seed)[0])
            if len(full) <= args.moves:
                raise SystemExit(f"the game has only {len(full)} moves")
            rec["rejects_next"] = full[args.moves]
            if not oracle.replay(full[:args.moves + 1])["rejected"] == args.moves:
                raise SystemExit(f"kennerspiel does not reject move {args.moves} "
                                 f"({' '.join(full[args.moves])})")
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{args.name}.json"
    path.write_text(json.dumps(rec, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {path} ({rec['n_moves']} moves, complete: {rec['complete']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

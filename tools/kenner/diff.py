"""Differential play against kennerspiel's engine (issue 15): the command line.

    python -m tools.kenner.diff --config 2 france long --games 200 --seed 0 --direction both
    python -m tools.kenner.diff --all --games 20 --log /tmp/kenner.jsonl
    python -m tools.kenner.diff --check-corpus tests/data/games

Plays seeded random games (``tools.kenner.compare``) and prints, per configuration and
direction, the games played, how many were compared to the end, how many stopped early (and
why), and the disagreements. ``--log`` writes one JSON line per game with a disagreement or a
truncation (the record, so it can be replayed or frozen as a regression game). Exit status 1 if
any game disagreed, 2 for bad arguments or a missing oracle.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from .compare import CONFIGS, corpus_problems, known_cause, reclassify, run
from .oracle import Oracle, OracleError, oracle_problem


def _config(words: list[str]) -> tuple:
    players, country, length = words
    if players not in "1234" or len(players) != 1:
        raise argparse.ArgumentTypeError(f"players must be 1-4, not {players!r}")
    cfg = (int(players), country, length)
    if cfg not in CONFIGS:
        raise argparse.ArgumentTypeError(
            f"no such configuration {' '.join(words)!r} (solo is long; countries france/ireland;"
            f" lengths long/short)")
    return cfg


def _truncation_cause(reason: str) -> str:
    """A truncation reason without its move number: the extension used, or the reason."""
    if reason.startswith("move ") and reason.endswith("uses a notation extension"):
        tokens = reason[reason.index("(") + 1:reason.rindex(")")].split()
        ext = next((t.split("=")[0] + "=" if t.startswith("OPTION=") else t
                    for t in tokens if t == "PLACE_ONLY" or t.startswith("OPTION=")),
                   f"bare {tokens[0]}")
        return f"notation extension {ext}"
    return reason


def _reclassify(path: str) -> int:
    """Print each logged disagreement with its cause under the current harness."""
    bad = 0
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            line = json.loads(text)
            d = line["disagreement"]
            if d is None:
                continue
            cause = reclassify(line)
            bad += cause is None
            print(f"{line['direction']} {' '.join(map(str, line['config']))} seed "
                  f"{line['seed']} move {d['move']} ({' '.join(d['tokens'])}): "
                  f"{cause or 'UNEXPLAINED ' + d['field']}")
    print(f"{path}: {bad} unexplained")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    """Run the harness; the exit status (0 all agreed, 1 disagreements, 2 usage)."""
    ap = argparse.ArgumentParser(prog="python -m tools.kenner.diff", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--config", nargs=3, metavar=("PLAYERS", "COUNTRY", "LENGTH"),
                    action="append", help="a configuration (repeatable)")
    ap.add_argument("--all", action="store_true", help="every configuration")
    ap.add_argument("--games", type=int, default=20, help="games per configuration and "
                    "direction (default 20)")
    ap.add_argument("--solo-games", type=int, default=None,
                    help="games for the solo configurations (default: --games)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--direction", choices=("ours", "ks", "both"), default="both")
    ap.add_argument("--log", help="append a JSON line per disagreeing or truncated game")
    ap.add_argument("--quiet", action="store_true", help="no line per disagreement")
    ap.add_argument("--reclassify", metavar="JSONL", help="no games: re-apply the current "
                    "documented causes to the disagreements of a --log file and print them "
                    "(exit 1 if any is unexplained)")
    ap.add_argument("--check-corpus", metavar="DIR", help="first replay the recorded games of "
                    "DIR (e.g. tests/data/games) in the oracle and stop (exit 1) if it does "
                    "not reproduce them")
    args = ap.parse_args(argv)
    try:
        configs = [_config(c) for c in args.config or []]
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if args.reclassify:
        return _reclassify(args.reclassify)
    if args.all:
        configs = list(CONFIGS)
    if not configs and not args.check_corpus:
        ap.error("name a --config or --all")
    if args.games < 1:
        ap.error("--games must be at least 1")
    problem = oracle_problem()
    if problem:
        print(f"kenner: {problem}", file=sys.stderr)
        return 2
    directions = ("ours", "ks") if args.direction == "both" else (args.direction,)
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    bad = 0
    with Oracle() as oracle:
        print(f"oracle: hathora-et-labora-game {oracle.version}")
        if args.check_corpus:
            problems = corpus_problems(oracle, args.check_corpus)
            for line in problems:
                print(f"  corpus: {line}")
            print(f"corpus: {'not reproduced' if problems else 'reproduced'} "
                  f"({args.check_corpus})", flush=True)
            if problems:
                return 1
        for cfg in configs:
            n = args.solo_games if (cfg[0] == 1 and args.solo_games) else args.games
            for direction in directions:
                t0 = time.time()
                tally: Counter = Counter()
                why: Counter = Counter()
                for seed in range(args.seed, args.seed + n):
                    out = run(oracle, direction, cfg, seed)
                    tally["games"] += 1
                    tally["commits"] += out.commits
                    cause = known_cause(out)
                    if cause:
                        tally["explained"] += 1
                        why["explained: " + cause] += 1
                    elif out.disagreement:
                        tally["disagree"] += 1
                        why[out.disagreement["field"]] += 1
                        if not args.quiet:
                            d = out.disagreement
                            print(f"  DISAGREE {direction} {' '.join(map(str, cfg))} seed {seed}"
                                  f" move {d['move']} ({' '.join(d['tokens'])}): {d['field']}:"
                                  f" ours {d['ours']} / kennerspiel {d['kennerspiel']}")
                    elif out.truncated:
                        tally["truncated"] += 1
                        # "move N (TOKENS) uses a notation extension" counts as one cause
                        why["truncated: " + _truncation_cause(out.truncated)] += 1
                    else:
                        tally["agree"] += 1
                    if log and (out.disagreement or out.truncated):
                        log.write(json.dumps({"direction": direction, "config": cfg,
                                              "seed": seed, "disagreement": out.disagreement,
                                              "explained": cause,
                                              "truncated": out.truncated,
                                              "record": out.record()}) + "\n")
                        log.flush()
                bad += tally["disagree"]
                print(f"{' '.join(map(str, cfg)):<16} {direction:<4} games {tally['games']:>4}"
                      f"  agree {tally['agree']:>4}  truncated {tally['truncated']:>3}"
                      f"  explained {tally['explained']:>3}"
                      f"  disagree {tally['disagree']:>3}  commits {tally['commits']:>6}"
                      f"  {time.time() - t0:6.0f}s  {dict(why) if why else ''}", flush=True)
    if log:
        log.close()
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except OracleError as e:
        print(f"kenner: {e}", file=sys.stderr)
        sys.exit(2)

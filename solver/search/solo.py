"""The `ora-solve solo` job: run a search, verify its line on the reference engine, write it.

Kept out of cli/ so the CLI stays a thin parse/call/print layer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tqdm import tqdm

from solver.fast import layout as L

from . import records
from .beam import beam_search
from .mcts import mcts_search
from .nrpa import nrpa_search

RESULTS = Path("results")


def run_solo(*, variant: str, beam: int | None, mcts: int | None, seed: int,
             time_limit: float | None, out: str | None, command: str, quiet: bool = False,
             nrpa: int | None = None, iterations: int | None = None,
             seed_line: str | None = None, from_round: int | None = None
             ) -> tuple[dict, Path]:
    """Search, confirm the line through the reference engine, write the record.

    ``seed_line`` is the path of a results record whose line seeds NRPA (records.RecordError
    if it is not a valid record of this variant that replays)."""
    seed_record = None
    if seed_line is not None:
        seed_record = records.load_record(seed_line)
        if seed_record["variant"] != variant:
            raise records.RecordError(f"{seed_line} is a {seed_record['variant']} line, not "
                                      f"{variant}")
        ok, message, _ = records.verify_record(seed_record)
        if not ok:
            raise records.RecordError(f"{seed_line} does not replay: {message}")
    if nrpa is not None:
        algo, n = "nrpa", nrpa
        params = {"level": nrpa, "iterations": iterations, "time_limit": time_limit}
        if seed_record is not None:
            params |= {"seed_line": str(seed_line), "seed_score": seed_record["score"]["total"],
                       "from_round": from_round}
    elif mcts is not None:
        algo, n = "mcts", mcts
        params = {"simulations_per_decision": mcts, "decision": "turn",
                  "time_limit": time_limit}
    else:
        algo, n = "beam", beam or 2000
        params = {"width": n, "time_limit": time_limit}
    bar = tqdm(total=None, desc=f"{algo} {n} {variant}", unit={"beam": " layer", "mcts": " turn",
                                                               "nrpa": " iteration"}[algo],
               file=sys.stderr, disable=quiet)

    def progress(state, k, stage=""):
        if algo == "nrpa":  # (iteration of the top level, best score so far)
            bar.update(1)
            bar.set_postfix_str(f"best {k:g}")
            return
        bar.update(1)
        rnd = int(state[0][L.ROUND]) if state.ndim == 2 else int(state[L.ROUND])
        bar.set_postfix_str(f"{stage}, round {rnd}" if stage else f"round {rnd}")

    if algo == "beam":
        result = beam_search(variant, n, seed, time_limit, progress)
    elif algo == "mcts":
        result = mcts_search(variant, n, seed, time_limit, progress)
    else:
        result = nrpa_search(variant, n, iterations, seed, time_limit,
                             None if seed_record is None else seed_record["line"], from_round,
                             progress)
    bar.close()
    record = records.make_record(command=command, variant=variant, algorithm=algo,
                                 params=params, seed=seed, nodes=result.nodes,
                                 seconds=result.seconds, score=result.score, line=result.line,
                                 stages=getattr(result, "trace", None))
    ok, message, _ = records.verify_record(record)
    if not ok:
        raise RuntimeError(f"the search's line does not replay on the reference engine: "
                           f"{message}")
    name = f"{variant}-{algo}{n}" + (f"x{iterations}" if algo == "nrpa" else "") + \
        (f"-from{seed_record['score']['total']}" if seed_record is not None else "")
    path = Path(out) if out else RESULTS / f"{name}-seed{seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")
    return record, path

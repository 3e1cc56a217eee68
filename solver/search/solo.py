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

RESULTS = Path("results")


def run_solo(*, variant: str, beam: int | None, mcts: int | None, seed: int,
             time_limit: float | None, out: str | None, command: str, quiet: bool = False,
             position=None) -> tuple[dict, Path]:
    """Search, confirm the line through the reference engine, write the record.

    ``position`` (solver.research.positions.Position) searches on from that position (beam
    only); the record's line then starts with the position's prefix, and its ``position``
    field says where the prefix came from."""
    if mcts is not None:
        algo, n = "mcts", mcts
        params = {"simulations_per_decision": mcts, "time_limit": time_limit}
    else:
        algo, n = "beam", beam or 2000
        params = {"width": n, "time_limit": time_limit}
    bar = tqdm(total=None, desc=f"{algo} {n} {variant}", unit=" layer" if algo == "beam"
               else " move", file=sys.stderr, disable=quiet)

    def progress(state, k, stage=""):
        bar.update(1)
        rnd = int(state[0][L.ROUND]) if state.ndim == 2 else int(state[L.ROUND])
        bar.set_postfix_str(f"{stage}, round {rnd}" if stage else f"round {rnd}")

    if algo == "beam":
        start = position.start() if position is not None else None
        result = beam_search(variant, n, seed, time_limit, progress, start=start)
    else:
        result = mcts_search(variant, n, seed, time_limit, progress)
    bar.close()
    record = records.make_record(command=command, variant=variant, algorithm=algo,
                                 params=params, seed=seed, nodes=result.nodes,
                                 seconds=result.seconds, score=result.score, line=result.line,
                                 stages=getattr(result, "trace", None))
    if position is not None:
        record["position"] = {"source": position.source, "prefix_actions": len(position.prefix),
                              "round": position.round, "prefix_moves": position.moves()}
    ok, message, _ = records.verify_record(record)
    if not ok:
        raise RuntimeError(f"the search's line does not replay on the reference engine: "
                           f"{message}")
    tag = f"-from{len(position.prefix)}" if position is not None else ""
    path = Path(out) if out else RESULTS / f"{variant}-{algo}{n}-seed{seed}{tag}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")
    return record, path

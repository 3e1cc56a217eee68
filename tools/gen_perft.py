"""(Re)create tests/data/perft.json: perft counts of fixed positions, from the reference engine.

Run ``python3 tools/gen_perft.py`` from the repository root. Each position is the initial solo
position of a variant, or the position reached by replaying the first ``steps`` actions of a
seeded uniformly random game (``random.Random(seed)``). The file stores the action ids of that
prefix, not the seed, so the position stays exactly reproducible even if random play or the
engine's legal-action lists change; it also stores the perft count for every depth 1..d and the
divide (count per first action, keyed by action text) so a failing test can say which branch
differs.

Regenerate ONLY after a deliberate rules change, and say which in the commit. The counts are
the test oracle for move generation: tests/rules/test_perft.py fails whenever any action becomes
legal or illegal anywhere in these trees. Regenerating to make a failing test pass, without
first explaining the difference through the printed divide, throws away exactly the bug the
test exists to catch. If a replayed prefix becomes illegal after a rules change, adjust the
spec (seed/steps) below so the position still shows what its ``shows`` field says.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.rules import new_initial_state
from solver.rules.perft import divide, perft

OUT = ROOT / "tests" / "data" / "perft.json"
PROFILE = "rulebook"

#: (name, variant, seed, steps, depth, what the position shows). Depths keep each count under
#: ~2.5 s on the 2-core project machine, so the whole file checks in ~15 s.
POSITIONS = [
    ("ireland-start", "ireland", None, 0, 6, "round 1, first turn"),
    ("ireland-A-neutral-build", "ireland", 1, 48, 3,
     "settlement phase A: the neutral builds the whole display (SOLO §4.2)"),
    ("ireland-A-settle-payment", "ireland", 2, 83, 7,
     "settlement phase A: paying food/energy for a settlement tile by tile"),
    ("ireland-midgame-turn", "ireland", 3, 160, 6, "round 22, a turn"),
    ("ireland-game-end", "ireland", 1, 210, 7,
     "last settlement phase: the game ends within 5 actions (terminal leaves)"),
    ("france-start", "france", None, 0, 6, "round 1, first turn"),
    ("france-A-neutral-build", "france", 1, 53, 3,
     "settlement phase A: the neutral builds the whole display (SOLO §4.2)"),
    ("france-B-settle-payment", "france", 2, 116, 9,
     "settlement phase B: paying food/energy for a settlement tile by tile"),
    ("france-midgame-payment", "france", 3, 150, 7, "round 21, paying for a building function"),
    ("france-game-end", "france", 2, 250, 7,
     "last settlement phase: the game ends within a few actions (terminal leaves)"),
]


def prefix_actions(variant: str, seed: int | None, steps: int) -> list[int]:
    """The first ``steps`` action ids of the seeded random game (none for the start)."""
    state = new_initial_state(variant=variant, players=1, length="long", profile=PROFILE)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        action = rng.choice(state.legal_actions())
        out.append(action)
        state.apply_action(action)
    return out


def position(variant: str, actions: list[int]):
    """The state after replaying ``actions`` from the initial solo position."""
    state = new_initial_state(variant=variant, players=1, length="long", profile=PROFILE)
    for action in actions:
        state.apply_action(action)
    return state


def main() -> None:
    """Compute every position's counts and write tests/data/perft.json."""
    entries = []
    for name, variant, seed, steps, depth, shows in POSITIONS:
        actions = prefix_actions(variant, seed, steps)
        state = position(variant, actions)
        start = time.perf_counter()
        counts = {str(d): perft(state, d) for d in range(1, depth)}
        split = divide(state, depth)
        counts[str(depth)] = sum(split.values())
        seconds = time.perf_counter() - start
        entries.append({
            "name": name, "variant": variant, "profile": PROFILE, "shows": shows,
            "source": f"random.Random({seed}), first {steps} actions" if steps else "start",
            "round": state.round, "frame": state.frame["f"],
            "actions": actions, "counts": counts, "divide": split,
        })
        print(f"{name}: depth {depth} -> {counts[str(depth)]} ({seconds:.2f} s)")
    data = {
        "about": "perft counts of fixed positions; regenerate only after a deliberate rules "
                 "change (see tools/gen_perft.py)",
        "positions": entries,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, ensure_ascii=False)
    # one line per action-id list instead of one line per id
    text = re.sub(r"\[\s*(\d[\d,\s]*?)\s*\]",
                  lambda m: "[" + ", ".join(m.group(1).split()).replace(",,", ",") + "]", text)
    OUT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

"""Generate the package data tables in solver/rules/data/ from ../shared/reference.

Run once by hand when the reference changes (``python tools/gen_data.py``); the engine only
reads the generated files, never ../shared. buildings.csv is copied row for row (the heartland
rows keep their ``LR1|LG1|LB1|LW1`` colour lists); settlements.csv and game.toml transcribe the
tables of RULES.md §3, §4.3, §5.4-5.8, §6, §11 and SOLO.md §1, §4.
"""

from __future__ import annotations

import csv
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent / "solver" / "rules" / "data"
REF = HERE.parent.parent / "shared" / "reference"

# RULES.md §11.4 (id number, name, food, energy, economic, dwelling, terrain, arrives after phase)
SETTLEMENTS = [
    (1, "Shanty Town", 1, 1, 0, -3, "coast|plains|hillside", "start"),
    (2, "Farming Village", 3, 3, 1, 1, "coast|plains|hillside", "start"),
    (3, "Market Town", 7, 0, 2, 2, "coast|plains|hillside", "start"),
    (4, "Fishing Village", 8, 3, 4, 6, "coast", "start"),
    (5, "Artists' Colony", 5, 1, -1, 5, "coast|plains|hillside", "A"),
    (6, "Hamlet", 5, 6, 3, 4, "coast|plains|hillside", "B"),
    (7, "Village", 15, 9, 8, 6, "coast|plains|hillside", "C"),
    (8, "Hilltop Village", 30, 3, 10, 8, "hillside", "D"),
]


def main() -> int:
    src = REF / "buildings.csv"
    if not src.exists():
        print(f"reference not found: {src}", file=sys.stderr)
        return 1
    with src.open(newline="") as f:
        rows = list(csv.DictReader(f))
    with (DATA / "buildings.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    with (DATA / "settlements.csv").open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["number", "name", "food", "energy", "economic", "dwelling", "terrain",
                    "arrives"])
        w.writerows(SETTLEMENTS)
    print(f"wrote {len(rows)} buildings and {len(SETTLEMENTS)} settlements to {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

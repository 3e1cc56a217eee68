"""`ora-solve report`: a record as one self-contained HTML page (a line round by round with
its landscapes and charts, a sweep's sortable table opening each candidate's line and, for a
race, its rounds; a review's V(R) chart and rounds ranked by points lost opening each round's
line; a tuning record's weights and history), every line replayed on the reference engine as
it is written.

`kinds.py` picks the page by the record's kind, `line.py` replays a line into the page's rows,
`page.py` writes the HTML (its style and script beside it, inlined).
"""

from __future__ import annotations

import json
from pathlib import Path

from solver.search import records

from .kinds import BUILDERS, Page, ReportError, build, builder
from .page import render

__all__ = ["BUILDERS", "Page", "ReportError", "build", "builder", "load", "render",
           "write_report"]


def load(path: str | Path) -> dict:
    """A record's JSON (ReportError naming the file and the problem)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ReportError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    except json.JSONDecodeError as e:
        raise ReportError(f"{path} is not JSON: {e.msg} at line {e.lineno}") from None


def write_report(path: str | Path, out: str | Path, workers: int = 1) -> Page:
    """Write the page of the record at ``path`` to ``out`` (whole or absent: records.save);
    the page's description."""
    page = build(load(path), str(path), workers=workers)
    records.save(out, render(page), replace=True, what="the report")
    return page

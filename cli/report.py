"""`ora-solve report`: a record as one self-contained HTML page (thin: parse, call
solver/research/report, write)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click

from cli.options import check_outputs, failing, unsaved


@click.command("report")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--html", "out", type=click.Path(dir_okay=False), required=True,
              help="Write the page here (one HTML file: style, script and data inline).")
@click.option("--jobs", "workers", type=click.IntRange(min=1), default=None,
              help="Processes replaying a sweep's or a review's lines (default: all cores).")
def report(file: str, out: str, workers: int | None) -> None:
    """A solo line, sweep (flat or raced), review or tuning record as one HTML page that
    opens from disk: a line round by round with its landscapes and charts, a sweep's sortable
    table opening each candidate's best line, a review's V(R) chart and rounds ranked by
    points lost opening each round's line; every line replayed on the reference engine as it
    is written."""
    from solver.research import report as R
    from solver.search import records

    check_outputs("report", out, what="the report")
    start = time.perf_counter()
    try:
        with failing("report", R.ReportError):
            page = R.write_report(file, out, workers=workers or os.cpu_count() or 1)
    except records.Unsaved as e:
        unsaved("report", e)
    size = Path(out).stat().st_size
    click.echo(f"wrote {out}: {page.view} page, {size / 1e6:.2f} MB, "
               f"{len(page.lines)} line(s) replayed, {time.perf_counter() - start:.1f} s")
    click.echo(page.verified)


def register(main: click.Group) -> None:
    """Add `report` to the ora-solve group."""
    main.add_command(report)

"""The researcher's commands: `show`, `openings`, `analyse`, and the position options that
`solo` shares (thin: parse, call solver/research, print/write)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

VARIANTS = ("ireland", "france")


# ===== positions ================================================================================

def position_options(f):
    """Add --from / --at-round / --moves / --opening (a position to search from) to a command."""
    f = click.option("--opening", default=None, metavar='"CMD; CMD; ..."',
                     help="Start after these kennerspiel moves (one turn ends with COMMIT).")(f)
    f = click.option("--moves", "prefix_moves", type=click.IntRange(min=0), default=None,
                     help="Cut the --from line after this many moves (actions of a results "
                          "record, moves of a move list).")(f)
    f = click.option("--at-round", type=click.IntRange(min=1), default=None,
                     help="Cut the --from line at the first turn of this round.")(f)
    f = click.option("--from", "from_file", type=click.Path(dir_okay=False), default=None,
                     help="Start from a line: a results record, a solo game record (corpus "
                          "schema) or a kennerspiel move list, one command per line.")(f)
    return f


def resolve_position(variant, from_file, at_round, prefix_moves, opening, command: str,
                     required: bool = False):
    """The position the options name (None if none and not ``required``); exit 2 with one
    message if it cannot be read or played."""
    from solver.research.positions import PositionError, resolve

    if not required and from_file is None and opening is None and at_round is None \
            and prefix_moves is None:
        return None
    try:
        return resolve(variant, from_file, at_round, prefix_moves, opening)
    except PositionError as e:
        click.echo(f"{command}: {e}", err=True)
        sys.exit(2)


def position_argv(from_file, at_round, prefix_moves, opening) -> list[str]:
    """The position options as command-line words (for the record's command)."""
    out = []
    if from_file is not None:
        out += ["--from", from_file]
    if at_round is not None:
        out += ["--at-round", str(at_round)]
    if prefix_moves is not None:
        out += ["--moves", str(prefix_moves)]
    if opening is not None:
        out += ["--opening", json.dumps(opening)]
    return out


def _fail(command: str, message: str):
    click.echo(f"{command}: {message}", err=True)
    sys.exit(2)


def _check_outputs(command: str, paths) -> None:
    from solver.research.draw import check_writable

    try:
        check_writable(list(paths))
    except OSError as e:
        _fail(command, str(e))


# ===== show =====================================================================================

@click.command("show")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--at-round", type=click.IntRange(min=1), default=None,
              help="Show the landscape at the first turn of this round (default: the end).")
@click.option("--png", type=click.Path(dir_okay=False), default=None,
              help="Write the landscape and the score chart as a PNG.")
@click.option("--svg", type=click.Path(dir_okay=False), default=None,
              help="Write the landscape and the score chart as an SVG.")
def show(record: str, at_round: int | None, png: str | None, svg: str | None) -> None:
    """A results record round by round (actions, goods, score) and its landscape."""
    from solver.research import show as S
    from solver.research.positions import PositionError, from_line
    from solver.search import records

    try:
        data = records.load_record(record)
    except records.RecordError as e:
        _fail("show", str(e))
    _check_outputs("show", (png, svg))
    try:
        pos = from_line(data["variant"], data["line"], at_round, None,
                        source=record + (f" at round {at_round}" if at_round else ""))
    except PositionError as e:
        _fail("show", str(e))
    parts = S.rounds(data["variant"], data["line"])
    sc = data["score"]
    click.echo(f"{record}: {data['variant']}, {len(data['line'])} actions, {sc['total']} points "
               f"(goods {sc['goods']}, economic {sc['economic']}, dwelling {sc['dwelling']})")
    click.echo(f"{'':<24}{'total':>6}{'goods':>6}{'econ':>6}{'dwell':>6}")
    for p in parts:
        s = p.score
        click.echo(f"{p.when:<24}{s['total']:>6}{s['goods']:>6}{s['economic']:>6}"
                   f"{s['dwelling']:>6}")
        for a in p.actions:
            click.echo(f"    {a}")
        click.echo(f"    goods: {p.goods or 'none'}")
    where = f"at round {at_round} (after {len(pos.prefix)} actions)" if at_round else \
        "at the end"
    click.echo(f"\nlandscape {where}:")
    click.echo(S.text_map(pos.state))
    parts_land = S.land_parts(pos.state)
    if parts_land:
        click.echo("bought land: " + "; ".join(parts_land))
    paths = [(p, fmt) for p, fmt in ((png, "png"), (svg, "svg")) if p]
    if paths:
        from solver.research.draw import show_figure

        upto = next((i + 1 for i, p in enumerate(parts) if p.actions_done >= len(pos.prefix)),
                    None) if at_round else None
        title = (f"{data['variant']} {data.get('algorithm', '')} "
                 f"{data.get('parameters', {}).get('width', '')} seed {data.get('seed', '')}: "
                 f"{sc['total']} points; landscape {where}")
        show_figure(pos.state, parts, title, paths, upto)
        for p, _ in paths:
            click.echo(f"picture written to {p}")


# ===== registration =============================================================================

def register(main: click.Group) -> None:
    """Add the research commands to the ora-solve group."""
    main.add_command(show)

"""Pictures (matplotlib, Agg backend, imported only here): a landscape with the score through
the game (`ora-solve show`), and a sweep's scores with their intervals (`openings`)."""

from __future__ import annotations

import textwrap

from solver.rules.cards import BUILDINGS, SETTLEMENTS
from solver.rules.game import State

from .show import COLS, HEARTLAND_ROWS, RoundView, clergy_at

TERRAIN_COLOUR = {"W": "#7fb3e6", "C": "#e8d9a0", "P": "#b9dc8c", "H": "#8fb464",
                  "M": "#a3a3a3", ".": "#c8c8c8"}
TERRAIN_NAME = {"W": "water", "C": "coast", "P": "plains", "H": "hillside", "M": "mountain"}
OWNER_COLOUR = {"R": "#c0302b", "G": "#2e8b3a", "B": "#2d5fb0", "W": "#f4f4f4"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, paths: list[str]) -> None:
    """Write the figure to each path (or (path, format) pair; a bare path's format is SVG for
    .svg, else PNG) through records.save: whole or absent, and a failed write goes to the
    fallback file (records.Unsaved says where)."""
    from solver.search import records

    for p in paths:
        p, fmt = p if isinstance(p, tuple) else (p, "svg" if str(p).lower().endswith(".svg")
                                                   else "png")
        records.save(p, lambda f, fmt=fmt: fig.savefig(f, dpi=110, bbox_inches="tight",
                                                       format=fmt),
                     replace=True, what="the picture")


def draw_landscape(ax, state: State, owner: int = 0, title: str = "") -> None:
    """Terrain, buildings with names, settlements, forests/moors, clergy, bought land."""
    from matplotlib.patches import FancyBboxPatch, Rectangle

    land = state.g.owners[owner].land
    clergy = clergy_at(state)
    lo, hi = land.rows()
    for (col, row), (terrain, item) in land.cells.items():
        bought = row not in HEARTLAND_ROWS or not 0 <= col <= 4  # outside the heartland
        ax.add_patch(Rectangle((col, row), 1, 1, facecolor=TERRAIN_COLOUR.get(terrain, "#ddd"),
                               edgecolor="#555" if not bought else "#333",
                               linewidth=0.8 if not bought else 1.4,
                               linestyle="-" if not bought else (0, (4, 2))))
        if terrain in TERRAIN_NAME:
            ax.text(col + 0.04, row + 0.96, TERRAIN_NAME[terrain], fontsize=5.5,
                    color="#333", va="bottom", ha="left")
        if item in BUILDINGS:
            b = BUILDINGS[item]
            ax.add_patch(FancyBboxPatch((col + 0.08, row + 0.2), 0.84, 0.62,
                                        boxstyle="round,pad=0.01,rounding_size=0.06",
                                        facecolor="#c9a27a" if b.cloister else "#fdf6e3",
                                        edgecolor="#5a4632", linewidth=0.8))
            ax.text(col + 0.5, row + 0.33, item, fontsize=7.5, weight="bold", ha="center",
                    va="center")
            ax.text(col + 0.5, row + 0.6, "\n".join(textwrap.wrap(b.name, 12)[:2]),
                    fontsize=5.6, ha="center", va="center", linespacing=0.95)
        elif item in SETTLEMENTS:
            s = SETTLEMENTS[item]
            ax.add_patch(FancyBboxPatch((col + 0.08, row + 0.2), 0.84, 0.62,
                                        boxstyle="round,pad=0.01,rounding_size=0.06",
                                        facecolor="#f2c14e", edgecolor="#7a5a00", linewidth=1))
            ax.text(col + 0.5, row + 0.33, item, fontsize=7.5, weight="bold", ha="center",
                    va="center")
            ax.text(col + 0.5, row + 0.6, "\n".join(textwrap.wrap(s.name, 12)[:2]),
                    fontsize=5.6, ha="center", va="center", linespacing=0.95)
        elif item in ("forest", "moor"):
            ax.add_patch(Rectangle((col + 0.15, row + 0.25), 0.7, 0.55,
                                   facecolor="#2f6b2f" if item == "forest" else "#6b4a2f",
                                   edgecolor="none", alpha=0.85))
            ax.text(col + 0.5, row + 0.53, item, fontsize=7, color="white", ha="center",
                    va="center")
        for k, who in enumerate(clergy.get((owner, col, row), [])):
            colour, kind = who.split(" ", 1)
            ax.add_patch(_disc(col + 0.82 - 0.2 * k, row + 0.86,
                               0.11 if kind == "prior" else 0.075,
                               OWNER_COLOUR.get(colour, "k")))
    for row in range(lo, hi + 1):
        ax.text(COLS[0] - 0.15, row + 0.5, str(row), ha="right", va="center", fontsize=7)
    for col in COLS:
        ax.text(col + 0.5, lo - 0.1, str(col), ha="center", va="bottom", fontsize=7)
    ax.set_xlim(COLS[0] - 0.6, COLS[-1] + 1.05)
    ax.set_ylim(hi + 1.1, lo - 0.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title + "\n(dashed border: bought district or plot; discs: clergy, large = "
                 "prior; yellow: settlement; brown: cloister building)", fontsize=8)


def _disc(x, y, r, colour):
    from matplotlib.patches import Circle

    return Circle((x, y), r, facecolor=colour, edgecolor="black", linewidth=0.7, zorder=5)


def draw_score(ax, parts: list[RoundView], upto: int | None = None) -> None:
    """Score so far after each round, stacked as goods / economic / dwelling."""
    xs = list(range(1, len(parts) + 1))
    g = [p.score["goods"] for p in parts]
    e = [p.score["economic"] for p in parts]
    d = [p.score["dwelling"] for p in parts]
    ax.stackplot(xs, e, d, g, labels=("economic", "dwelling", "goods"),
                 colors=("#8fb464", "#f2c14e", "#7fb3e6"), alpha=0.9)
    ax.plot(xs, [p.score["total"] for p in parts], color="k", linewidth=1.2, label="total")
    ticks = [i for i, p in zip(xs, parts) if "settlement" in p.when]
    ax.set_xticks(ticks, [parts[i - 1].when.replace("round ", "r").replace(", settlement ", " ")
                          for i in ticks], fontsize=7)
    for t in ticks:
        ax.axvline(t, color="#999", linewidth=0.5, linestyle=":")
    if upto is not None:
        ax.axvline(upto, color="#c0302b", linewidth=1.2, label="shown position")
    ax.set_xlabel("rounds and settlement phases of the line (ticks: settlement phases)",
                  fontsize=8)
    ax.set_ylabel("points so far", fontsize=8)
    ax.set_xlim(1, max(2, len(parts)))
    ax.legend(loc="upper left", fontsize=7)
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(f"score through the game: {parts[-1].score['total']} points at the end"
                 if parts else "score", fontsize=9)


def show_figure(state: State, parts: list[RoundView], title: str, paths: list[str],
                upto: int | None = None) -> None:
    """The landscape and the score chart in one figure, written to each path."""
    plt = _pyplot()
    land = state.g.owners[0].land
    lo, hi = land.rows()
    h = 1.05 * (hi - lo + 2)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(9.5, 0.9 * h + 3.6),
                                 gridspec_kw={"height_ratios": [h, 3.6]})
    draw_landscape(a1, state, 0, title)
    draw_score(a2, parts, upto)
    fig.tight_layout()
    _save(fig, paths)
    plt.close(fig)


CHART_ROWS = 60  # a chart of more rows is unreadable; the CSV and JSON hold them all


def sweep_chart(rows: list[dict], title: str, paths: list[str]) -> None:
    """Each candidate's seeds (ticks), best (star), mean and 95% interval (bar), best-ranked
    first; at most ``CHART_ROWS`` rows, intervals clipped to the range of the scores."""
    plt = _pyplot()
    shown = rows[:CHART_ROWS]
    if len(rows) > len(shown):
        title += f"\n(the first {len(shown)} of {len(rows)} ranked candidates; all in the CSV)"
    rows = shown
    n = len(rows)
    labels = [_tick_label(r) for r in rows]
    lines = max((t.count("\n") + 1 for t in labels), default=1)
    fig, ax = plt.subplots(figsize=(12, max(2.5, (0.16 + 0.12 * lines) * n + 1.4)))
    ys = list(range(n))
    for y, r in zip(ys, rows):
        colour = "#999999" if r["clearly_behind"] else "#2d5fb0"
        lo, hi = r["ci"]
        ax.plot([lo, hi], [y, y], color=colour, linewidth=2.2, solid_capstyle="butt")
        ax.plot([r["mean"]], [y], "o", color=colour, markersize=5)
        ax.plot(r["scores"], [y] * len(r["scores"]), "|", color="k", markersize=7)
        ax.plot([r["best"]], [y], "*", color="#c0302b", markersize=8)
    every = [x for r in rows for x in r["scores"]]
    lo_s, hi_s = min(every), max(every)
    pad = max(5.0, 0.25 * (hi_s - lo_s))
    ax.set_xlim(lo_s - pad, hi_s + pad)
    ax.set_yticks(ys, labels, fontsize=6.5)
    ax.invert_yaxis()
    how = "Holm-corrected" if all("p_holm" in r for r in rows) else "uncorrected"
    race = any("round" in r for r in rows)
    ax.set_xlabel("final score (bar: mean with 95% t-interval over seeds; |: each seed; "
                  "*: best, a lower bound on the value; grey: clearly behind the leader, "
                  f"{how}; bars clipped to the plot)"
                  + ("\nrace: each row at the round of its statistics (a dropped row at the "
                     "round that dropped it, against that round's leader)" if race else ""),
                  fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    _save(fig, paths)
    plt.close(fig)


def _short(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _tick_label(row: dict, width: int = 80) -> str:
    """A candidate's label for the chart: one line, or one line per turn when it is long
    (openings often share a long first turn: cut at the end, two rows would look alike); a
    race's row says the round, width and seeds of its statistics."""
    head = f"{row['rank']}. {'* ' if row.get('recorded') else ''}"
    text = row["label"]
    at = "" if "round" not in row else (
        f"[{'dropped in ' if row['dropped'] else ''}round {row['round']}: width "
        f"{row['width']} x {len(row['seeds'])} seeds]")
    if len(head + text + at) + 2 <= width:
        return head + text + ("  " + at if at else "")
    turns = text.split(" | ")
    return "\n".join([_short((head if i == 0 else "") + t, width) for i, t in enumerate(turns)]
                     + ([at] if at else []))

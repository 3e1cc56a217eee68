"""Pictures (matplotlib, Agg backend, imported only here): a landscape with the score through
the game (`ora-solve show`), a sweep's scores with their intervals (`openings`), and a
review's V(R) round by round (`review`)."""

from __future__ import annotations

import textwrap

from solver.rules.game import State

from .landscape import (COLS, ITEM_COLOUR, OWNER_COLOUR, TERRAIN_COLOUR, TERRAIN_NAME, cells,
                        name_lines)
from .show import RoundView


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

    lo, hi = state.g.owners[owner].land.rows()
    for c in cells(state, owner):
        col, row = c.col, c.row
        ax.add_patch(Rectangle((col, row), 1, 1,
                               facecolor=TERRAIN_COLOUR.get(c.terrain, "#ddd"),
                               edgecolor="#333" if c.bought else "#555",
                               linewidth=1.4 if c.bought else 0.8,
                               linestyle=(0, (4, 2)) if c.bought else "-"))
        if c.terrain in TERRAIN_NAME:
            ax.text(col + 0.04, row + 0.96, TERRAIN_NAME[c.terrain], fontsize=5.5,
                    color="#333", va="bottom", ha="left")
        if c.kind in ("building", "cloister", "settlement"):
            settlement = c.kind == "settlement"
            ax.add_patch(FancyBboxPatch((col + 0.08, row + 0.2), 0.84, 0.62,
                                        boxstyle="round,pad=0.01,rounding_size=0.06",
                                        facecolor=ITEM_COLOUR[c.kind],
                                        edgecolor="#7a5a00" if settlement else "#5a4632",
                                        linewidth=1 if settlement else 0.8))
            ax.text(col + 0.5, row + 0.3, c.item, fontsize=7.5, weight="bold", ha="center",
                    va="center")
            ax.text(col + 0.5, row + 0.6, "\n".join(name_lines(c.name)),
                    fontsize=5.6, ha="center", va="center", linespacing=0.95)
        elif c.kind in ("forest", "moor"):
            ax.add_patch(Rectangle((col + 0.15, row + 0.25), 0.7, 0.55,
                                   facecolor=ITEM_COLOUR[c.kind], edgecolor="none",
                                   alpha=0.85))
            ax.text(col + 0.5, row + 0.53, c.kind, fontsize=7, color="white", ha="center",
                    va="center")
        for k, who in enumerate(c.clergy):
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


def _tick_label(row: dict, width: int = 80) -> str:
    """A candidate's label for the chart: one line, or each turn on its own lines, wrapped at
    ``width`` (openings often share a long first turn: all of it shows, nothing is cut); a
    race's row says the round, width and seeds of its statistics."""
    head = f"{row['rank']}. {'* ' if row.get('recorded') else ''}"
    text = row["label"]
    at = "" if "round" not in row else (
        f"[{'dropped in ' if row['dropped'] else ''}round {row['round']}: width "
        f"{row['width']} x {len(row['seeds'])} seeds]")
    if len(head + text + at) + 2 <= width:
        return head + text + ("  " + at if at else "")
    turns = text.split(" | ")
    return "\n".join([line for i, t in enumerate(turns)
                      for line in textwrap.wrap((head if i == 0 else "") + t, width,
                                                subsequent_indent="    ")]
                     + ([at] if at else []))


def review_chart(rows: list[dict], own: int, title: str, paths: list[str]) -> None:
    """A review (`ora-solve review`): V(R) round by round against the line's own final
    score, each seed's score from the round (dots), and the points each round lost (the fall
    of V from R to the next point; the last point, "end", is the line's own score)."""
    plt = _pyplot()
    xs = [r["round"] for r in rows] + [rows[-1]["round"] + 1]
    vs = [r["value"] for r in rows] + [own]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.35 * len(rows) + 3.5), 4.2))
    ax.axhline(own, color="#c0302b", linewidth=1.2, linestyle="--",
               label=f"the line's own final score ({own})")
    ax.plot(xs, vs, "o-", color="#2d5fb0", linewidth=1.8, markersize=4,
            label="V(R): the best known final score through round R's position")
    for r in rows:
        scores = [x["score"]["total"] for x in r["runs"]]
        ax.plot([r["round"]] * len(scores), scores, ".", color="#777777", markersize=6)
        if r["loss"] > 0:
            ax.annotate(f"-{r['loss']}", (r["round"] + 0.5, r["value"] - r["loss"] / 2),
                        textcoords="offset points", xytext=(4, 2), fontsize=8,
                        color="#c0302b")
    ax.plot([], [], ".", color="#777777", label="each seed's score from the round")
    every = vs + [x["score"]["total"] for r in rows for x in r["runs"]]
    pad = max(3.0, 0.1 * (max(every) - min(every)))
    ax.set_ylim(min(every) - pad, max(every) + 4 * pad)  # room for the legend above
    ax.set_xticks(xs, [str(x) for x in xs[:-1]] + ["end"], fontsize=7)
    ax.set_xlabel("round R (searched from the line's position at its first turn; red: the "
                  "points round R's turns lost)", fontsize=8)
    ax.set_ylabel("final score", fontsize=8)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right", fontsize=7)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    _save(fig, paths)
    plt.close(fig)

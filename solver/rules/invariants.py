"""Invariants every reachable state satisfies (checked after each step of random games).

No negative goods; 8 wonders in supply and hands (fewer under ``sacristy_any_good``, whose bare
kennerspiel Sacristy use discards one); no clergyman in two places (a displaced one, under
``occupied_use_displaces``, on none); every building and
settlement on an allowed terrain (a settlement anywhere in a solo game under
``solo_settle_skips_terrain``: quirk 13, reachable by import only); every cloister building
touching another cloister building (the neutral's covering buildings excepted, SOLO §4.2 / D9);
landscape geometry legal (districts fill whole rows of columns 0-4, plots come as 2x2 blocks,
the mountain filler under every mountain).
"""

from __future__ import annotations

from .cards import BUILDINGS, SETTLEMENTS
from .state import off_board


class InvariantError(AssertionError):
    """A state broke an invariant; the message says which and where."""


def check_invariants(state) -> None:
    """Raise InvariantError if ``state`` (a solver.rules State) breaks an invariant."""
    g = state.g
    wonders = g.wonders_left
    seen_positions = {}
    for oi, o in enumerate(g.owners):
        who = "neutral" if o.neutral else f"seat {oi}"
        for gi, n in enumerate(o.goods):
            if n < 0:
                raise InvariantError(f"{who} holds {n} of good {gi}")
        if o.goods:
            wonders += o.goods[22]
        for ci, pos in enumerate(o.clergy):
            if pos is None or (off_board(pos) and state.profile.occupied_use_displaces):
                continue
            key = tuple(pos)
            if key in seen_positions and not _stacked_ok(state, key):
                raise InvariantError(f"two clergymen on {key}: {seen_positions[key]} and "
                                     f"{(oi, ci)}")
            seen_positions[key] = (oi, ci)
            land = g.owners[pos[0]].land
            if (pos[1], pos[2]) not in land.cells:
                raise InvariantError(f"{who} clergyman {ci} stands on no land at {pos}")
        _check_land(o, who, state.g.players == 1 and state.profile.solo_settle_skips_terrain)
    if wonders > 8 or (wonders < 8 and not state.profile.sacristy_any_good):
        raise InvariantError(f"{wonders} wonders in supply + hands, not 8")
    placed = [bid for o in g.owners for _, bid in o.land.buildings()]
    if len(placed) != len(set(placed)):
        raise InvariantError(f"a building stands twice: {sorted(placed)}")
    for bid in g.display:
        if bid in placed:
            raise InvariantError(f"{bid} is both built and in the display")


def _stacked_ok(state, key) -> bool:
    # a neutral clergyman may stay under a covering building; in the bonus round a prior may
    # join any building, occupied or not (RULES §12); never two on one space otherwise
    # (kennerspiel quirk 12: its USE places a clergyman onto an occupied building, displacing
    # the one there under occupied_use_displaces)
    return state.g.bonus_round or state.profile.use_ignores_occupied


def _check_land(o, who: str, settle_anywhere: bool = False) -> None:
    land = o.land
    for (col, row), (terrain, content) in land.cells.items():
        if not -2 <= col <= 6:
            raise InvariantError(f"{who}: land at column {col}")
        if terrain == ".":
            if land.terrain((6, row - 1)) != "M" or content is not None:
                raise InvariantError(f"{who}: mountain filler at ({col}, {row}) without mountain")
            continue
        if terrain == "M" and land.terrain((6, row + 1)) != ".":
            raise InvariantError(f"{who}: mountain at ({col}, {row}) without its lower half")
        if content in BUILDINGS:
            b = BUILDINGS[content]
            if not o.neutral:
                if terrain not in b.terrain:
                    raise InvariantError(f"{who}: {b} on terrain {terrain} at ({col}, {row})")
                if b.cloister and not b.heartland and not land.touches_cloister((col, row)):
                    raise InvariantError(f"{who}: cloister {b} at ({col}, {row}) touches no "
                                         "cloister")
            elif not 0 <= col <= 4 or row not in (0, 1):
                raise InvariantError(f"neutral building {b} off its heartland")
        elif content in SETTLEMENTS:
            if terrain not in SETTLEMENTS[content].terrain and not settle_anywhere:
                raise InvariantError(f"{who}: settlement {content} on terrain {terrain}")
        elif content in ("forest", "moor"):
            if terrain != "P":
                raise InvariantError(f"{who}: {content} on terrain {terrain}")
        elif content is not None:
            raise InvariantError(f"{who}: unknown content {content!r} at ({col}, {row})")
    rows = {r for (_, r) in land.cells}
    for r in rows:
        strip = [(c, r) in land.cells for c in range(5)]
        if any(strip) and not all(strip):
            raise InvariantError(f"{who}: row {r} has part of a district")
        for inner, outer in ((-1, -2), (5, 6)):
            if ((inner, r) in land.cells) != ((outer, r) in land.cells):
                raise InvariantError(f"{who}: half a plot in row {r}")

"""Differential play against kennerspiel: one seeded game in one direction, compared COMMIT by
COMMIT (issue 15).

Direction ``ours``: a seeded random game of our engine under the ``kennerspiel`` profile is
exported to notation (``export_history``), re-imported by our engine and replayed by kennerspiel.
Direction ``ks``: kennerspiel plays a seeded random game from its own move generation; our
engine replays it (``replay_record``).

After every COMMIT both sides are summarised the same way (:func:`our_view`, :func:`ks_view`):
whose move it is (colour), the round, the settlement letter, whether a settlement turn / the solo
neutral building phase / the bonus round is on, every player's goods and score total; at the end
the full score (goods, economic, dwelling, total) and whether the game is over. The first field
that differs is the game's disagreement (:class:`Outcome`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from solver.rules import actions as A
from solver.rules import goods as G
from solver.rules.game import new_initial_state
from solver.rules.moves import neutral_cells
from solver.rules.notation import (
    GameConfig,
    NotationError,
    export_actions,
    export_history,
    ks_goods,
    replay_record,
)

COLOURS = ("R", "G", "B", "W")
#: every configuration both engines have (solo is long only)
CONFIGS = tuple([(1, c, "long") for c in ("france", "ireland")]
                + [(p, c, n) for p in (2, 3, 4) for n in ("long", "short")
                   for c in ("france", "ireland")])
MAX_STEPS = 8_000  # engine actions in one random game of ours (a game not over by then is
#                    compared as far as it went)
MAX_COMMANDS = 20_000  # kennerspiel commands in one random game
#: notation extensions kennerspiel cannot read (solver/rules/notation/__init__.py docstring)
EXTENSIONS = ("PLACE_ONLY", "OPTION=")
MAIN_KINDS = ("USE", "WORK_CONTRACT", "FELL_TREES", "CUT_PEAT", "BUILD")


@dataclass
class Outcome:
    """One compared game: its key, how far it got, and its first disagreement (or None)."""

    direction: str
    config: tuple
    seed: int
    moves: list = field(default_factory=list)
    actors: str | None = None
    start: dict | None = None
    commits: int = 0
    finished: bool = False
    truncated: str | None = None  # why the comparison stopped early without a disagreement
    disagreement: dict | None = None

    def record(self) -> dict:
        """The game as a record of ../shared/games/ (enough to replay it)."""
        p, country, length = self.config
        return {"config": {"players": p, "country": country, "length": length},
                "start": self.start, "moves": self.moves, "actors": self.actors}


def _kind(st) -> str | None:
    """The kind of the pending decision frame (None once the game is over)."""
    return st.frame.kind if st.frame is not None else None


def ks_round_label(st) -> int:
    """Our round under kennerspiel's label: its solo rounds after settlement D are numbered
    25, 25, 26, ... 30 (D10); its bonus round keeps the number of the round before; its
    2-player games repeat the label of their last scheduled round (27 long, 28 short) for
    every round after it until the display empties (measured)."""
    g = st.g
    if g.players == 1 and g.round >= 26:
        return g.round - 1
    if g.bonus_round:
        return g.round - 1
    if g.players == 2:
        return min(g.round, 27 if g.length == "long" else 28)
    return g.round


def our_view(st) -> dict:
    """Our engine's state, summarised as kennerspiel's (see the module docstring)."""
    g = st.g
    kind = _kind(st)
    seat = st.current_player()
    players = [o for o in g.owners if not o.neutral]
    return {
        "finished": st.is_terminal(),
        "current": None if st.is_terminal() else g.owners[seat].colour,
        "round": ks_round_label(st),
        "settlement_round": g.phase or "S",
        "settle_turn": kind == "settle",
        "neutral_phase": kind == "neutral_build",
        # not compared in settlement turns and at the end: kennerspiel's flag there is whatever
        # its previous frame left (seen both ways in settlement E)
        "bonus_round": (None if kind == "settle" or st.is_terminal()
                        else bool(g.bonus_round)),
        "goods": {o.colour: ks_goods(o.goods) for o in players},
        "wonders": {o.colour: int(o.goods[G.WONDER]) for o in players},
        "totals": {o.colour: int(s.total) for o, s in zip(players, st.score())},
    }


def ks_view(s: dict) -> dict:
    """kennerspiel's summary (oracle.mjs) in the same shape as :func:`our_view`."""
    finished = s["status"] == "FINISHED"
    return {
        "finished": finished,
        "current": None if finished else s["players"][s["active"]]["color"],
        "round": s["round"],
        "settlement_round": s["settlement_round"],
        "settle_turn": s["settle_turn"],
        # kennerspiel clears its neutral-building flag with the neutral's last BUILD; when the
        # player's last build emptied the display there is none, and the flag stays set in
        # the settlement turn that follows (SETTLE offered: a settlement turn, not a phase)
        "neutral_phase": s["neutral_phase"] and not s["settle_turn"],
        "bonus_round": None if s["settle_turn"] or finished else s["bonus_round"],
        "goods": {p["color"]: p["goods"] for p in s["players"]},
        "wonders": {p["color"]: p["wonders"] for p in s["players"]},
        "totals": {p["color"]: sc["total"] for p, sc in zip(s["players"], s["scores"])},
    }


def our_final(st) -> list[dict]:
    """Our full score in seat order (goods, economic, dwelling, total)."""
    return [{"goods": int(s.goods), "economic": int(s.economic), "dwelling": int(s.dwelling),
             "total": int(s.total)} for s in st.score()]


def ks_final(s: dict) -> list[dict]:
    """kennerspiel's full score in seat order, dwelling summed over settlements."""
    return [{"goods": x["goods"], "economic": x["economic"], "dwelling": sum(x["dwelling"]),
             "total": x["total"]} for x in s["scores"]]


#: view fields compared after a COMMIT, in the order a disagreement is reported
FIELDS = ("finished", "current", "round", "settlement_round", "settle_turn", "neutral_phase",
          "bonus_round", "goods", "wonders", "totals")


def first_difference(ours: dict, theirs: dict) -> dict | None:
    """The first compared field that differs: {"field", "ours", "kennerspiel"}, or None."""
    for k in FIELDS:
        if ours[k] != theirs[k]:
            a, b = ours[k], theirs[k]
            if isinstance(a, dict):  # keep only the colours / goods that differ
                a = {c: a.get(c) for c in set(a) | set(b) if a.get(c) != b.get(c)}
                b = {c: theirs[k].get(c) for c in a}
            return {"field": k, "ours": a, "kennerspiel": b}
    return None


# ----- direction "ours": our random game, replayed by kennerspiel ----------------------------
_AVOID_USE = ("F25", "G34", "I08", "I29")


def _leaves_room(st, action: int) -> bool:
    """Whether, after this forced neutral build, every building still on display has a cell
    kennerspiel accepts (otherwise kennerspiel is stuck there: known_cause, D9)."""
    nxt = st.clone()
    nxt.apply_action(action)
    if _kind(nxt) != "neutral_build":
        return True
    land = nxt.g.owners[nxt.neutral_index].land
    return all(neutral_cells(nxt, land, b, fallback=False) for b in nxt.g.display)


def _choose(st, legal: list[int], rng: random.Random) -> int:
    """A random legal action, biased so that the game moves on and exports in plain notation:
    a turn takes a main action when one exists (kennerspiel 0.21.1 rejects a pass), an option
    frame takes a real option (a declined use exports as PLACE_ONLY), a Bulwark's free land is
    placed where it can be."""
    f = st.frame
    kind = f.kind
    # fell trees / cut peat with nothing left exports as an extension kennerspiel cannot read
    # and a use of a building whose decline kennerspiel rejects (BARE_USE_REJECTED: the Chamber
    # of Wonders, Sacristy, False Lighthouse, Forest Hut) would end the comparison there
    plain = [a for a in legal if not (A.decode(a).kind in ("FELL_TREES", "CUT_PEAT")
                                      and A.decode(a).flag == 2)
             and not (A.decode(a).kind in ("USE", "USE_PRIOR", "FREE_USE", "WORK_CONTRACT")
                      and A.decode(a).building in _AVOID_USE)]
    legal = plain or legal
    if kind == "neutral_build":  # a random one of those that leave room (checked lazily)
        order = list(legal)
        rng.shuffle(order)
        return next((a for a in order if _leaves_room(st, a)), order[0])
    if kind == "turn" and not f.main:
        main = [a for a in legal if A.decode(a).kind in MAIN_KINDS]
        rest = [a for a in legal if A.decode(a).kind not in MAIN_KINDS + ("COMMIT",)]
        builds = [a for a in main if A.decode(a).kind == "BUILD"]
        if builds and rng.random() < 0.5:  # the 2-player games end only once the display empties
            return rng.choice(builds)
        if main and (not rest or rng.random() < 0.85):
            return rng.choice(main)
        if rest:
            return rng.choice(rest)
    elif kind == "option":
        real = [a for a in legal if A.decode(a).flag]
        if real:
            return rng.choice(real)
    elif kind == "grant_land":
        # the Bulwark's free district / plot: declining one and then buying it paid has no
        # kennerspiel form (its bonus purchase is used first), so a free one is always placed
        place = [a for a in legal if A.decode(a).kind != "SKIP"]
        if place:
            return rng.choice(place)
    elif kind in ("turn", "settle"):
        commit = [a for a in legal if A.decode(a).kind == "COMMIT"]
        if commit and rng.random() < 0.5:
            return commit[0]
    return rng.choice(legal)


def _overshoots(g: int, need: dict) -> bool:
    """Whether one tile of ``g`` gives more food / energy / points than is still owed (a meat
    where 2 food are due): kennerspiel would read the surplus as a bigger option."""
    return any(v[g] > need[k] for k, v in (("food", G.FOOD), ("energy2", G.ENERGY2),
                                            ("points", G.POINTS)))


def _plain_payment(st, option: int, rng: random.Random) -> list[int] | None:
    """``option`` and the PAY tiles of one random payment of it, preferring tiles that do not
    overshoot, if kennerspiel's form of the move names that option exactly (no ``OPTION=``
    in its export); else None."""
    trial = st.clone()
    seq = [option]
    trial.apply_action(option)
    while _kind(trial) == "pay":
        legal = trial.legal_actions()
        exact = [a for a in legal if not _overshoots(A.decode(a).flag, trial.frame.need)]
        seq.append(rng.choice(exact or legal))
        trial.apply_action(seq[-1])
    moves = export_actions(st, seq)
    return None if any(_uses_extension(m) for m in moves) else seq


class RandomPlayer:
    """Our seeded random player (direction ``ours``): :func:`_choose`, except that a building
    option is taken with a payment kennerspiel's notation names exactly (NOTATION §7: the
    goods string is the option), so the game exports without ``OPTION=``: the option drawn
    first if one of its payments does, else another option, else (rarely) the drawn option
    with any payment (the comparison then stops at that move)."""

    TRIES = 3  # random payments tried per option

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.plan: list[int] = []  # the PAY tiles of the option just taken

    def choose(self, st, legal: list[int]) -> int:
        """The next action."""
        if self.plan:
            a = self.plan.pop(0)
            if a in legal:
                return a
            self.plan = []
        a = _choose(st, legal, self.rng)
        if _kind(st) != "option" or not A.decode(a).flag:
            return a
        real = [b for b in legal if A.decode(b).flag and b != a]
        self.rng.shuffle(real)
        for b in [a] + real:
            for _ in range(self.TRIES):
                seq = _plain_payment(st, b, self.rng)
                if seq is not None:
                    self.plan = seq[1:]
                    return b
        return a


def our_random_moves(config: tuple, seed: int) -> tuple[list[list[str]], dict]:
    """Play a seeded random game of our engine (kennerspiel profile); (its notation, start)."""
    moves, start, _ = our_random_game(config, seed)
    return moves, start


def our_random_game(config: tuple, seed: int) -> tuple[list[list[str]], dict, object]:
    """:func:`our_random_moves` and the game's final state as played."""
    players, country, length = config
    colours = list(COLOURS[:players + (1 if players == 1 else 0)])
    st = new_initial_state(country, players, length, "kennerspiel", colours=tuple(colours))
    player = RandomPlayer(random.Random(seed))
    steps = 0
    while not st.is_terminal() and steps < MAX_STEPS:
        st.apply_action(player.choose(st, st.legal_actions()))
        steps += 1
    cfg = GameConfig(players, country, length, colours[:players],
                     colours[1] if players == 1 else None)
    start = {"seed": None, "colors_given": colours, "seat_colors": colours[:players],
             "neutral_color": cfg.neutral_colour}
    return export_history(cfg, st.history(), "kennerspiel"), start, st


def _neutral_fallback(out: Outcome, moves: list, i: int) -> bool:
    """Whether move i is a forced solo neutral build that only our fallback places (no cell
    passes kennerspiel's adjacency check, so kennerspiel is stuck: profile
    neutral_cover_needs_adjacency)."""
    if out.config[0] != 1 or moves[i][0] != "BUILD":
        return False
    rp = replay_record(out.record() | {"moves": moves[:i], "actors": None}, "kennerspiel")
    st = rp.state
    if _kind(st) != "neutral_build":
        return False
    return not neutral_cells(st, st.g.owners[st.neutral_index].land, moves[i][1],
                             fallback=False)


def _uses_extension(tokens: list[str]) -> bool:
    if tokens[0] in ("FELL_TREES", "CUT_PEAT") and len(tokens) == 1:
        return True
    return any(t == "PLACE_ONLY" or t.startswith("OPTION=") for t in tokens)


def run_ours(oracle, config: tuple, seed: int) -> Outcome:
    """Direction ``ours`` for one seed."""
    out = Outcome("ours", config, seed)
    moves, out.start, played = our_random_game(config, seed)
    cut = next((i for i, m in enumerate(moves) if _uses_extension(m)), None)
    if cut is not None:
        out.truncated = f"move {cut} ({' '.join(moves[cut])}) uses a notation extension"
        moves = moves[:cut]
    out.moves = moves
    ks = oracle.replay(moves)
    theirs = {c["after_move"]: c for c in ks["commits"]}
    if ks["rejected"] is not None:
        i = ks["rejected"]
        out.disagreement = {"move": i, "tokens": moves[i], "field": "rejected",
                            "ours": "accepted", "kennerspiel": ks["error"],
                            "neutral_fallback": _neutral_fallback(out, moves, i)}
        moves = moves[:i]
    mine: dict[int, dict] = {}
    rp = replay_record(out.record() | {"moves": moves, "actors": None}, "kennerspiel",
                       on_commit=lambda i, r: mine.__setitem__(i, our_view(r.state)))
    _compare_commits(out, mine, theirs, moves)
    if out.disagreement is None and ks["rejected"] is None:
        out.finished = rp.state.is_terminal()
        _compare_end(out, rp.state, ks["final"], len(moves) - 1, moves)
    if out.disagreement is None and cut is None and played.is_terminal():
        # the export must re-import to the game as played (exporter docstring)
        d = first_difference(our_view(played), our_view(rp.state))
        if d is not None:
            out.disagreement = {"move": len(moves) - 1, "tokens": moves[-1],
                                "field": f"round trip: {d['field']}", "ours": d["ours"],
                                "kennerspiel": f"re-imported: {d['kennerspiel']}"}
    return out


# ----- direction "ks": kennerspiel's random game, replayed by us ------------------------------
def run_ks(oracle, config: tuple, seed: int) -> Outcome:
    """Direction ``ks`` for one seed."""
    players, country, length = config
    out = Outcome("ks", config, seed)
    given = list(COLOURS[:players + (1 if players == 1 else 0)])
    game = oracle.random_game([str(players), country, length], given, seed, MAX_COMMANDS)
    out.moves, out.actors = game["moves"], game["actors"]
    final = game["final"]
    out.start = {"seed": None, "colors_given": given,
                 "seat_colors": [p["color"] for p in final["players"]],
                 "neutral_color": final["neutral"]}
    if game["ended"] != "finished":
        out.truncated = f"kennerspiel's game did not finish ({game['ended']})"
    theirs = {c["after_move"]: c for c in game["commits"]}
    mine: dict[int, dict] = {}
    try:
        rp = replay_record(out.record(), "kennerspiel",
                           on_commit=lambda i, r: mine.__setitem__(i, our_view(r.state)))
    except NotationError as e:
        _compare_commits(out, mine, theirs, out.moves)
        if out.disagreement is None:
            out.disagreement = {"move": e.index, "tokens": e.tokens, "field": "rejected",
                                "ours": e.reason, "kennerspiel": "accepted"}
        return out
    _compare_commits(out, mine, theirs, out.moves)
    if game["ended"] == "stuck" and _no_checked_cell(rp.state):
        out.truncated = ("kennerspiel's game did not finish (stuck: no cell passes its cover "
                         "check for the forced neutral build, D9)")
    if out.disagreement is None:
        out.finished = rp.state.is_terminal()
        _compare_end(out, rp.state, final, len(out.moves) - 1, out.moves)
    return out


def _no_checked_cell(st) -> bool:
    """Whether ``st`` is a solo neutral build that only our fallback can place (no display
    building has a cell passing kennerspiel's adjacency check: it is stuck there, D9)."""
    if _kind(st) != "neutral_build":
        return False
    land = st.g.owners[st.neutral_index].land
    return not any(neutral_cells(st, land, b, fallback=False) for b in st.g.display)


def _compare_commits(out: Outcome, mine: dict, theirs: dict, moves) -> None:
    for i in sorted(theirs):
        if i not in mine:
            break
        out.commits += 1
        d = first_difference(mine[i], ks_view(theirs[i]))
        if d is not None:
            out.disagreement = {"move": i, "tokens": moves[i], **d,
                                "ks_settlement_round": theirs[i]["settlement_round"],
                                "ks_frame": theirs[i]["frame"]}
            return


def _compare_end(out: Outcome, st, final: dict, last: int, moves) -> None:
    ours_done, ks_done = st.is_terminal(), final["status"] == "FINISHED"
    if ours_done != ks_done and out.truncated is None:
        out.disagreement = {"move": last, "tokens": moves[last] if moves else [],
                            "field": "finished", "ours": ours_done, "kennerspiel": ks_done}
    elif ours_done and ks_done and our_final(st) != ks_final(final):
        out.disagreement = {"move": last, "tokens": moves[last], "field": "final score",
                            "ours": our_final(st), "kennerspiel": ks_final(final)}


#: buildings whose bare use (no parameters) kennerspiel's handler rejects or crashes on
#: although its move list offers it (buildings.md §1 "Bare use"; DECISIONS.md "Stricter than
#: the rules"): our engine lets a player place there and decline, kennerspiel does not
BARE_USE_REJECTED = ("LR2", "LG2", "LB2", "LW2", "I08", "F25", "G34", "I29")


def known_cause(out: Outcome) -> str | None:
    """The documented kennerspiel defect that explains a disagreement, or None."""
    d = out.disagreement
    if d is None:
        return None
    tokens = d.get("tokens") or []
    if (out.direction == "ours" and d["field"] == "rejected" and tokens[:1] == ["USE"]
            and len(tokens) == 2 and tokens[1] in BARE_USE_REJECTED):
        return f"kennerspiel rejects a bare USE {tokens[1]} (buildings.md §1)"
    if (out.direction == "ours" and d["field"] == "rejected" and tokens[:2] == ["USE", "I23"]
            and str(d.get("kennerspiel", "")).startswith("kennerspiel threw")):
        return "kennerspiel's Locutory throws unless the user's prior stands on their landscape"
    if (out.direction == "ks" and d["field"] == "rejected" and tokens[:1] == ["USE"]
            and _after_palace(out.moves, d["move"]) and _stale_target(out, d["move"])):
        return ("kennerspiel's Palace / Grand Manor target list is one process-wide list that "
                "grows with every use (buildings of earlier uses and games stay usable)")
    if (out.direction == "ks" and d["field"] == "finished" and d["ours"] is True
            and "max_commands" in (out.truncated or "") and out.config[0] == 2):
        return ("our 2-player safety cap (profile two_player_max_rounds) ended a game "
                "kennerspiel never ends (no cap; it ran out of commands)")
    if d.get("neutral_fallback"):
        return "no cell passes kennerspiel's cover check for this forced neutral build (D9)"
    if (out.config[0] == 4 and out.config[2] == "short" and d["field"] in ("current", "round")
            and d.get("ks_settlement_round") == "D"):
        return "kennerspiel's 4-player short game loops back after settlement D (D16)"
    return None


def _after_palace(moves: list, i: int) -> bool:
    """Whether move ``i`` follows a Palace (F27) or Grand Manor (I27) use of the same turn.

    kennerspiel builds the Palace / Grand Manor's list of usable buildings with a ramda
    ``reduce`` whose accumulator array is created once, at module load, and pushed onto: every
    use appends the buildings occupied then, for the rest of the Node process. So its free use
    may go to a building occupied at an earlier use, in this game or in an earlier game of the
    same process (ks 2 ireland long seed 7 move 890 ``USE F27`` in an Ireland game, F27 from a
    France game before it), and the same seed played twice in one process diverges after its
    first Palace use (2 france short seed 8: move 779)."""
    start = max((k for k in range(i) if moves[k][0] == "COMMIT"), default=0)
    return any(m[:2] in (["USE", "F27"], ["USE", "I27"]) for m in moves[start + 1:i])


def _stale_target(out: Outcome, i: int) -> bool:
    """Whether the building of move ``i`` (a ``USE`` after a Palace / Grand Manor use) has no
    clergyman on it, or is not built, in our replay of the moves before it (which agreed with
    kennerspiel at every COMMIT): no list of the buildings occupied now has it, only
    kennerspiel's process-wide list (:func:`_after_palace`) can."""
    try:
        st = replay_record(out.record() | {"moves": out.moves[:i]}, "kennerspiel").state
    except NotationError:
        return False
    where = st.locate(out.moves[i][1])
    return where is None or st.occupant(where.owner, (where.col, where.row)) is None


def reclassify(line: dict) -> str | None:
    """:func:`known_cause` of a game logged by ``diff --log`` (its record and disagreement)."""
    rec = line["record"]
    out = Outcome(line["direction"], tuple(line["config"]), line["seed"], rec["moves"],
                  rec.get("actors"), rec["start"], truncated=line.get("truncated"),
                  disagreement=line["disagreement"])
    return known_cause(out)


def run(oracle, direction: str, config: tuple, seed: int) -> Outcome:
    """One game in one direction (``ours`` or ``ks``); engine crashes become disagreements."""
    try:
        return (run_ours if direction == "ours" else run_ks)(oracle, config, seed)
    except Exception as e:  # noqa: BLE001 - an engine crash is a finding, reported with its seed
        out = Outcome(direction, config, seed)
        out.disagreement = {"move": None, "tokens": [], "field": "crash",
                            "ours": f"{type(e).__name__}: {e}", "kennerspiel": None}
        return out


# ----- does the oracle reproduce the recorded corpus? ---------------------------------------
def corpus_problems(oracle, games_dir) -> list[str]:
    """Replay every record of ``games_dir`` (../shared/games schema) in the oracle; one line per
    record whose moves, COMMIT snapshots or final scores it does not reproduce."""
    import json
    from pathlib import Path

    problems = []
    for path in sorted(Path(games_dir).glob("*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        ans = oracle.replay(rec["moves"])
        if ans["rejected"] is not None:
            i = ans["rejected"]
            problems.append(f"{path.stem}: rejects move {i} ({' '.join(rec['moves'][i])})")
            continue
        snaps = {s["after_move"]: s for s in rec["commit_snapshots"]}
        for c in ans["commits"]:
            s = snaps.get(c["after_move"])
            got = ({p["color"]: p["goods"] for p in c["players"]},
                   {p["color"]: x["total"] for p, x in zip(c["players"], c["scores"])},
                   c["round"], c["settlement_round"])
            if s is None or got != (s["goods"], s["score_totals"], s["round"],
                                    s["settlement_round"]):
                problems.append(f"{path.stem}: differs after move {c['after_move']}")
                break
        else:
            if rec["complete"] and [x["total"] for x in rec["final_scores"]] != [
                    x["total"] for x in ans["final"]["scores"]]:
                problems.append(f"{path.stem}: final scores differ")
    return problems

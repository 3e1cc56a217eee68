"""Weights files: one named weight vector of the evaluation, its variant and how it was found.

A weights file (JSON, written by ``ora-solve tune``, read by ``--weights FILE``) holds::

    {"kind": "ora-solve evaluation weights", "format": 1, "variant": "ireland",
     "weights": {"wood": 0.8, ..., "settlement_hope": 6.0, "space": 1.0, "feature": 0.5,
                 "fade": 1.0, "wonder_hope": 30.0},
     "tuning": {...}}

The weights are named (``evaluation.WEIGHT_NAMES``), never positional, so a file stays
readable and a change of the kernel's layout is caught instead of silently misread. A weight
added to the evaluation later (``evaluation.ADDED_WEIGHTS``) may be missing from a file
written before it: it reads as the value that gives the evaluation of that time. The
``tuning`` record (the command, commit, seeds, per-generation scores and the held-out
comparison with the hand-set portfolio) is optional for loading.

A weights file leads the search's portfolio: :func:`portfolio_with` puts its vector first and
keeps the hand-set weightings after it, so the probe, the first group and every polish restart
of the default search use it, and the other groups keep the other plans alive.

The tuned defaults are package data (``solver/search/evaluation/tuned/<variant>.json``), used by
:func:`default_portfolio` only if their tuning record says they scored at least as well on
held-out seeds as the best hand-set weighting at the same budget (``beats_hand_set``).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .features import (
    ADDED_WEIGHTS,
    N_WEIGHTS,
    PORTFOLIO,
    SHAPE_WEIGHTS,
    TABLE_ROWS,
    W_KNEE,
    W_SLOPE,
    WEIGHT_NAMES,
)

KIND = "ora-solve evaluation weights"
FORMAT = 1
VARIANTS = ("ireland", "france")
TUNED_DIR = "tuned"  # package data directory of solver.search.evaluation
# the weights role in a record of a weights file or tuned vector given to the groups
LEADS_PORTFOLIO = "leads the portfolio"


class WeightsError(ValueError):
    """A weights file that cannot be used (the message names the file and the problem)."""


@dataclass(frozen=True)
class Weights:
    """A loaded weights file: its path, variant and the vector in the kernel's order."""

    path: str
    variant: str
    values: np.ndarray

    def describe(self) -> dict:
        """What a results record says about the weights used: the file and every value of a
        vector, or the file and a digest of a table by round (its 986 values are the file
        at the record's commit)."""
        if len(self.values) != N_WEIGHTS:
            digest = hashlib.sha256(np.asarray(self.values, dtype="<f8").tobytes())
            return {"file": self.path, "by_round_sha256": digest.hexdigest()}
        return {"file": self.path, "values": to_named(self.values)}


def to_named(w) -> dict[str, float]:
    """The vector as {name: value} in the kernel's order."""
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (N_WEIGHTS,):
        raise ValueError(f"a weight vector has {N_WEIGHTS} values, not {w.shape}")
    return {n: round(float(v), 6) for n, v in zip(WEIGHT_NAMES, w)}


def _weight(v, what: str) -> float:
    """``v`` as a weight: a finite number >= 0 (WeightsError: "<what> is <v>, not ...")."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
        raise WeightsError(f"{what} is {v!r}, not a finite number >= 0")
    return float(v)


def from_named(named, where: str) -> np.ndarray:
    """The vector of a {name: value} mapping (WeightsError naming what is wrong)."""
    if not isinstance(named, dict):
        raise WeightsError(f"{where}: 'weights' must be an object of {N_WEIGHTS} named "
                           f"values, not a {type(named).__name__}")
    given = len(named)
    named = {n: v for n, v in ADDED_WEIGHTS.items() if n not in named} | named
    missing = [n for n in WEIGHT_NAMES if n not in named]
    unknown = sorted(k for k in named if k not in WEIGHT_NAMES)
    if missing or unknown:
        parts = [f"has {given} weights, expected {N_WEIGHTS}"]
        if missing:
            parts.append("missing " + ", ".join(missing))
        if unknown:
            parts.append("unknown " + ", ".join(map(repr, unknown)))
        raise WeightsError(f"{where}: 'weights' " + "; ".join(parts))
    out = np.zeros(N_WEIGHTS, dtype=np.float64)
    for i, n in enumerate(WEIGHT_NAMES):
        out[i] = _weight(named[n], f"{where}: weight {n!r}")
    return out


def _check_header(data, where: str, variant: str | None, fmt: int, reads: str) -> None:
    """A weights file's kind, ``fmt`` and variant (``variant`` must match if given)."""
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise WeightsError(f"{where} is not a weights file (no kind {KIND!r})")
    if data.get("format") != fmt:
        raise WeightsError(f"{where}: format {data.get('format')!r}, {reads} format {fmt}")
    if data.get("variant") not in VARIANTS:
        raise WeightsError(f"{where}: unknown variant {data.get('variant')!r}")
    if variant is not None and data["variant"] != variant:
        raise WeightsError(f"{where} holds {data['variant']} weights, not {variant}")


def parse(data, where: str, variant: str | None = None) -> Weights:
    """A weights file's parsed JSON as Weights; ``variant`` must match if given."""
    _check_header(data, where, variant, FORMAT, "this version reads")
    return Weights(where, data["variant"], from_named(data.get("weights"), where))


def load(path: str | Path, variant: str | None = None) -> Weights:
    """Read and check a weights file (WeightsError naming the problem)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise WeightsError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise WeightsError(f"{path} is not JSON: {e.msg} at line {e.lineno}") from None
    return parse(data, str(path), variant)


def make_file(variant: str, w, tuning: dict | None = None) -> dict:
    """The JSON of a weights file."""
    return {"kind": KIND, "format": FORMAT, "variant": variant, "weights": to_named(w)} | (
        {"tuning": tuning} if tuning is not None else {})


class Weighting(NamedTuple):
    """One weighting of a search's portfolio and the name its records give it."""

    name: str
    values: np.ndarray


def named(portfolio) -> list[Weighting]:
    """``portfolio`` as Weightings: entries that are already named keep their names, bare
    vectors (a caller's own) are named by their index."""
    return [w if isinstance(w, Weighting)
            else Weighting(f"portfolio[{i}]", np.asarray(w, dtype=np.float64))
            for i, w in enumerate(portfolio)]


def arrays(portfolio) -> list[np.ndarray] | None:
    """The vectors of ``portfolio`` (named or bare) in order; None stays None."""
    return None if portfolio is None else [w.values for w in named(portfolio)]


def named_with(w, leader: str) -> list[Weighting]:
    """The search portfolio led by ``w`` (named ``leader``), the hand-set weightings after
    it."""
    return [Weighting(leader, np.asarray(w, dtype=np.float64))] + [
        Weighting(hand_set_name(i), p.copy()) for i, p in enumerate(PORTFOLIO)]


def portfolio_with(w) -> list[np.ndarray]:
    """The vectors of ``named_with(w, ...)``."""
    return arrays(named_with(w, "given weights"))


def _tuned_file(name: str) -> tuple[dict, str] | None:
    """The parsed JSON of package data ``tuned/<name>`` and the path to name it by, if any."""
    res = resources.files("solver.search.evaluation").joinpath(TUNED_DIR, name)
    if not res.is_file():
        return None
    return (json.loads(res.read_text(encoding="utf-8")),
            f"solver/search/evaluation/{TUNED_DIR}/{name}")


@lru_cache(maxsize=4)
def tuned_default(variant: str) -> Weights | None:
    """The committed tuned weights of ``variant`` if they beat the hand-set portfolio on
    their held-out seeds, else None."""
    return _adopted(f"{variant}.json", parse, variant, "tuning", "beats_hand_set")


def _adopted(name: str, parser, variant: str, record: str, flag: str) -> Weights | None:
    """Package data ``tuned/<name>`` read by ``parser`` if its ``record`` (``tuning`` or
    ``fitting``) says ``holdout.<flag>`` is true, else None (also without the file)."""
    found = _tuned_file(name)
    if found is None:
        return None
    data, where = found
    w = parser(data, where, variant)
    holdout = (data.get(record) or {}).get("holdout") or {}
    return w if holdout.get(flag) is True else None


#: Held-out means of the hand-set weightings (``evaluation.PORTFOLIO`` by index), beam 50 on
#: seeds 41-48: the ``holdout.hand_set`` tables of results/weights/france-beam50-es16-start-
#: best.json and ireland-beam50-es-start-best.json. They rank the weightings that the
#: schedule's groups draw from (``group_weightings``).
HAND_SET_MEANS = {
    "france": (379.62, 449.0, 378.38, 376.12, 445.88, 379.25, 446.62, 380.62, 450.25, 380.5,
               409.38, 386.0, 410.0, 377.38, 406.88, 358.25, 408.5, 398.88, 425.12, 359.88,
               423.12),
    "ireland": (445.38, 460.62, 438.38, 435.75, 457.62, 445.88, 441.62, 445.12, 444.12,
                387.38, 430.62, 421.12, 434.62, 381.38, 407.12, 444.62, 396.0, 437.12, 433.25,
                405.25, 395.88),
}
assert all(len(m) == len(PORTFOLIO) for m in HAND_SET_MEANS.values())
GROUP_POOL = 10  # a seed other than 0 draws its groups' weightings from this many best ones


def hand_set_order(variant: str) -> list[int]:
    """The hand-set weightings (``evaluation.PORTFOLIO`` indices), best ``HAND_SET_MEANS``
    first (ties by index; in index order for a variant without measured means)."""
    means = HAND_SET_MEANS.get(variant)
    if means is None:
        return list(range(len(PORTFOLIO)))
    return sorted(range(len(PORTFOLIO)), key=lambda i: (-means[i], i))


def group_weightings(variant: str, portfolio: list[np.ndarray], seed: int,
                     groups: int) -> list[int]:
    """Which entry of ``portfolio`` each of ``groups`` strategy groups runs.

    Group 0 runs the leader (entry 0: the tuned or given weights, else the best-measured
    hand-set one), and the next groups any entry that is the leader with another stock
    shape (``group_portfolio``'s linear twin), whatever the seed. The others run the rest
    ranked by ``HAND_SET_MEANS`` (entries that are not hand-set weightings first, in their
    order): the best ones in rank order for seed 0, a seeded draw from the ``GROUP_POOL``
    best for any other seed, so two seeds search different plans. With more groups than
    entries the choice wraps around."""
    means = HAND_SET_MEANS.get(variant)
    values = [i for i in range(N_WEIGHTS) if i not in (W_KNEE, W_SLOPE)]  # the stock's shape
    # is the variant's (``STOCK_SHAPE``), not the weighting's

    def rank(i: int) -> float:
        for k, w in enumerate(PORTFOLIO):
            if means is not None and np.array_equal(portfolio[i][values], w[values]):
                return -means[k]
        return -math.inf  # not hand-set (a tuned or given weighting): before them all

    rest = sorted(range(1, len(portfolio)), key=lambda i: (rank(i), i))
    twins = [i for i in rest if np.array_equal(portfolio[i][values], portfolio[0][values])]
    rest = [i for i in rest if i not in twins]
    if seed != 0 and len(rest) > 1:
        pool = rest[:GROUP_POOL]
        order = np.random.default_rng([seed, 0x6F7261]).permutation(len(pool))
        rest = [pool[j] for j in order] + rest[GROUP_POOL:]
    chosen = [0] + twins + rest
    return [chosen[i % len(chosen)] for i in range(groups)]


def perturbed(w, sigma: float, seed) -> np.ndarray:
    """``w`` (a vector or a flattened table by round) with each weight scaled by
    exp(``sigma`` N(0,1)) drawn from ``seed`` (an int or a sequence of them): one factor per
    weight for every round, so a perturbation shifts which plan it values, not when; a
    vector's fading exponent and the stock's knee and slope are kept."""
    w = np.asarray(w, dtype=np.float64)
    factor = np.exp(sigma * np.random.default_rng(seed).standard_normal(N_WEIGHTS))
    factor[list(SHAPE_WEIGHTS)] = 1.0
    if w.size == N_WEIGHTS:
        return w * factor
    return (w.reshape(TABLE_ROWS, N_WEIGHTS) * factor).ravel()


#: The stock's shape (``stock_knee``, ``stock_slope``) of a variant's default weightings,
#: given to each that has none of its own. Ireland's: above 15 tiles of a good each tile counts
#: half. Ireland's groups under 100M children scored 522.00 with it on tuning seeds 3-6 against
#: 505.50, 513.75 against 508.25 on held-out seeds 7-10, and under 400M 538.00 against 526.75
#: (docs/experiments.md, 2026-12-07, nineteenth session). France's stay linear: its table
#: with the same knee lost 7.4 points a seed at width 2000 as the only table (twentieth
#: session); it runs beside the table instead (``TABLE_TWIN_SHAPE``).
STOCK_SHAPE = {"ireland": (15.0, 0.5)}


def with_stock_shape(variant: str, w: np.ndarray) -> np.ndarray:
    """``w`` with ``variant``'s ``STOCK_SHAPE`` if it has a shape and ``w`` has no knee."""
    shape = STOCK_SHAPE.get(variant)
    if shape is None or w[W_KNEE] > 0:
        return w
    out = np.array(w, dtype=np.float64)
    out[W_KNEE], out[W_SLOPE] = shape
    return out


def default_named(variant: str) -> list[Weighting]:
    """The search's default weightings: the tuned defaults first if they earned it, then
    the hand-set portfolio (evaluation.PORTFOLIO); without tuned defaults, the hand-set
    weightings best first by ``HAND_SET_MEANS``, so the probe, the first group and the
    polish run the best-measured one (France: entry 8, 450.25, instead of entry 0, 379.62;
    docs/experiments.md, 2026-12-04). Each has the variant's ``STOCK_SHAPE``, and its name
    says so."""
    shape = STOCK_SHAPE.get(variant)
    return [w if shape is None or w.values[W_KNEE] > 0
            else Weighting(f"{w.name}, with {shape_text(shape)}",
                           with_stock_shape(variant, w.values))
            for w in _unshaped_named(variant)]


def default_portfolio(variant: str) -> list[np.ndarray]:
    """The vectors of ``default_named(variant)``."""
    return arrays(default_named(variant))


def _unshaped_named(variant: str) -> list[Weighting]:
    """``default_named`` before the variant's ``STOCK_SHAPE``."""
    w = tuned_default(variant)
    if w is not None:
        return named_with(w.values, f"tuned default ({w.path})")
    return [Weighting(hand_set_name(i), PORTFOLIO[i].copy()) for i in hand_set_order(variant)]


def group_named(variant: str) -> list[Weighting]:
    """The weightings a fixed-width beam's strategy groups draw from: ``default_named``,
    and for a variant with a ``STOCK_SHAPE`` its leader also without it (linear), second, so
    that a group plays the plans the shape gives up (``group_weightings`` runs it as group 1
    on every seed). Ireland's shape won in the timed groups and lost at fixed width 2000,
    where every tuning seed's line had come from the linear leader's group: with the twin,
    width 2000 scored 537.00 on seeds 3-6 (531.25 shaped alone, 538.00 linear alone). The
    timed schedule keeps ``default_named``: there the twin moved the means by +3.50 and
    +1.50 at 100M children (seeds 3-6, 7-10) and -4.75 at 400M (docs/experiments.md,
    2026-12-07, twenty-first session)."""
    pf = default_named(variant)
    if not has_linear_twin(variant):
        return pf
    lead = _unshaped_named(variant)[0]
    return [pf[0], Weighting(f"{lead.name}, without a stock shape",
                             np.array(lead.values, dtype=np.float64))] + pf[1:]


def group_portfolio(variant: str) -> list[np.ndarray]:
    """The vectors of ``group_named(variant)``."""
    return arrays(group_named(variant))


def has_linear_twin(variant: str) -> bool:
    """Whether ``group_named`` adds the leader without the stock's shape: the variant has
    a ``STOCK_SHAPE`` and its leader no knee of its own."""
    return variant in STOCK_SHAPE and _unshaped_named(variant)[0].values[W_KNEE] == 0


def hand_set_name(i: int) -> str:
    """How a record names hand-set weighting ``i``."""
    return f"hand-set evaluation.PORTFOLIO[{i}]"


def shape_text(shape: tuple[float, float]) -> str:
    """A stock shape (knee, slope) in words."""
    return f"the stock's knee {shape[0]:g} and slope {shape[1]:g}"


# ===== weightings by round (fit.py) ==============================================================

TABLE_FORMAT = 2


def table_to_named(table) -> dict[str, list[float]]:
    """A flattened table as {name: its value in each round 0-33}."""
    t = np.asarray(table, dtype=np.float64).reshape(TABLE_ROWS, N_WEIGHTS)
    return {n: [float(v) for v in t[:, i]] for i, n in enumerate(WEIGHT_NAMES)}  # exact


def table_from_named(named, where: str) -> np.ndarray:
    """The flattened table of a {name: [value by round]} mapping (WeightsError naming what
    is wrong)."""
    got = sorted(named) if isinstance(named, dict) else type(named).__name__
    if isinstance(named, dict):  # as from_named: a weight added later reads as its old value
        named = {n: [v] * TABLE_ROWS for n, v in ADDED_WEIGHTS.items() if n not in named} | named
    if not isinstance(named, dict) or sorted(named) != sorted(WEIGHT_NAMES):
        raise WeightsError(f"{where}: 'by_round' must name the {N_WEIGHTS} weights "
                           f"({', '.join(WEIGHT_NAMES)}), not {got}")
    t = np.zeros((TABLE_ROWS, N_WEIGHTS))
    for i, n in enumerate(WEIGHT_NAMES):
        col = named[n]
        if not isinstance(col, list) or len(col) != TABLE_ROWS:
            raise WeightsError(f"{where}: 'by_round' {n!r} must list {TABLE_ROWS} values "
                               f"(rounds 0-{TABLE_ROWS - 1})")
        for r, v in enumerate(col):
            t[r, i] = _weight(v, f"{where}: weight {n!r} in round {r}")
    return t.ravel()


def parse_table(data, where: str, variant: str | None = None) -> Weights:
    """A table file's parsed JSON as Weights whose values are the flattened table."""
    _check_header(data, where, variant, TABLE_FORMAT, "a table by round is")
    return Weights(where, data["variant"], table_from_named(data.get("by_round"), where))


def make_table_file(variant: str, table, fitting: dict | None = None) -> dict:
    """The JSON of a table file (format 2)."""
    return {"kind": KIND, "format": TABLE_FORMAT, "variant": variant,
            "by_round": table_to_named(table)} | ({"fitting": fitting} if fitting else {})


@lru_cache(maxsize=4)
def fitted_default(variant: str) -> Weights | None:
    """The committed fitted table of ``variant`` (``tuned/<variant>-by-round.json``) if its
    fitting record says that one beam under it beat the default fixed-width search on
    held-out seeds (``fitting.holdout.beats_beam_search``); the beam searches then run it."""
    return _adopted(f"{variant}-by-round.json", parse_table, variant, "fitting",
                    "beats_beam_search")


#: The stock's shape of the second beam a fixed-width search runs beside its fitted table's
#: (``table_members``). As the only table, France's table with Ireland's knee lost 7.4 points a
#: seed at width 2000; but it opened on the Stone Merchant plan on all eight seeds 3-10 and
#: beat the linear table on four (+4 to +23), three of them where the table's beam opened on
#: the Market. The better of the two: 551.75 on seeds 3-6 and 548.50 on 7-10, against 549.25
#: and 538.00 for the table alone (docs/experiments.md, 2026-12-07, twenty-second session).
TABLE_TWIN_SHAPE = {"france": (15.0, 0.5)}


def table_named(variant: str) -> list[Weighting] | None:
    """The weightings of a fixed-width search under ``variant``'s fitted table (None without
    an adopted one, ``fitted_default``): the table, then, where the variant has a
    ``TABLE_TWIN_SHAPE``, the table with that stock shape in every round."""
    table = fitted_default(variant)
    if table is None:
        return None
    name = f"fitted table by round ({table.path})"
    members = [Weighting(name, np.array(table.values, dtype=np.float64))]
    shape = TABLE_TWIN_SHAPE.get(variant)
    if shape is not None:
        t = np.array(table.values, dtype=np.float64).reshape(TABLE_ROWS, N_WEIGHTS)
        t[:, W_KNEE], t[:, W_SLOPE] = shape
        members.append(Weighting(f"{name}, with {shape_text(shape)} in every round",
                                 t.ravel()))
    return members


def table_members(variant: str) -> list[np.ndarray] | None:
    """The vectors of ``table_named(variant)`` (None without a table)."""
    return arrays(table_named(variant))

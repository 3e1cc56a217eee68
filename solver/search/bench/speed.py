"""``ora-solve bench --search``: the speed of the beam, from fixed positions, in one run.

A fixed beam (one weighting, fixed width, seeded) runs a set number of layers from the states
at fixed rounds of a committed results line (``results/<variant>-beam2000-seed0.json``). It
reports:

* **children per second** (children generated, counted as the records' ``nodes``: the
  distinct children each parent keeps, at most ``keep``) and the time per layer, split into
  the compiled expansion (both threads) and the Python work of the layer (ranking, dedup,
  replay of the chosen children: ``beam.run.layer``);
* a **signature**, deterministic for the same code and arguments: the nodes, and per round
  the best evaluation and the score of that state after the last layer and a digest of the
  last layer's states (in beam order);
* **where an expansion's time goes**, on one thread: a census runs the expansion itself
  (``expansion.expand_into`` with its census arrays) on ``sample`` parents spread evenly over
  all the layers of each round (the parents of all its layers in order, best first within
  a layer), recording every state whose legal actions it generates, every step and every
  new child; then each component kernel is timed alone on exactly those inputs (legal generation, policy filter, copy and
  step, hash, evaluation; each the fastest of ``REPEAT`` runs) and compared with the time of
  ``expansion.expand`` on the same parents.
  The remainder is the search's own bookkeeping (its table of reached states, dedup, keeping
  the best). Turn searches differ a hundredfold in size between layers and parents (at
  round 28 the second layer's parents search 20 times the states of the last layer's), so
  a sample from the last layer alone, as this bench first took, showed only the cheap ones.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from numba import njit

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.fast.kernels.legal import legal_unsorted

from ..beam import expansion as X
from ..beam.policy import policy_filter
from ..beam.run import layer, state_at_round, tie_breaking
from ..common import state_hash
from ..evaluation.features import PORTFOLIO, board_terms, evaluate, evaluate_board

RESULTS = Path(__file__).resolve().parents[3] / "results"  # the checkout's results/
ROUNDS = (1, 10, 20, 28)


@njit(cache=True)
def _time_legal(T, inner, handed, n, raw):
    s = 0
    for i in range(n):
        if handed[i] == 0:
            m = legal_unsorted(T, inner[i], raw)
            X.sort_small(raw, m)
            s += m
    return s


@njit(cache=True)
def _time_generate(T, inner, handed, n, raw, out, filtered):
    """legal generation, and the policy filter if ``filtered``, on every inner state the
    search filters (the filter's share is the difference of the two)."""
    s = 0
    for i in range(n):
        if handed[i] == 2:
            continue
        m = legal_unsorted(T, inner[i], raw)
        X.sort_small(raw, m)
        s += policy_filter(T, inner[i], raw, m, 0, out) if filtered else m
    return s


@njit(cache=True)
def _time_copy(inner, edges, n, W):
    s = 0
    for i in range(n):
        X.copy_state(W, inner[edges[i, 0]])
        s += W[L.STEP]
    return s


@njit(cache=True)
def _time_copy_step(T, inner, edges, n, W, scratch):
    s = 0
    for i in range(n):
        X.copy_state(W, inner[edges[i, 0]])
        s += X.turn_step(T, W, edges[i, 1], scratch)
    return s


@njit(cache=True)
def _time_hash(S, n):
    h = np.uint64(0)
    for i in range(n):
        h ^= state_hash(S[i])
    return h


@njit(cache=True)
def _time_eval(T, S, roots, inner, n, w):
    """The evaluation as the search does it: reused board terms (computed once per board) for
    a child with the spaces of its parent, the compare included."""
    s = 0.0
    last = -1
    board = space = feats = 0
    for i in range(n):
        if roots[i] >= 0 and X.same_board(S[i], inner[roots[i]]):  # the compare is paid
            if roots[i] != last:
                last = roots[i]
                board, space, feats = board_terms(T, inner[roots[i]])
            s += evaluate_board(T, S[i], w, board, space, feats)
        else:
            s += evaluate(T, S[i], w)
    return s


@njit(cache=True)
def _time_expand(T, parents, w, keep, paths, lens, evals, hashes, noise, salt, ws):
    """The expansion as one lane of expansion.expand_all runs it (its work arrays reused)."""
    n = 0
    for p in range(parents.shape[0]):
        n += X.expand_into(T, parents[p], w, keep, paths, lens, evals, hashes, noise, salt, ws,
                           None)
    return n


REPEAT = 5  # each component is timed this often and the fastest run kept (a loaded machine)


def _timed(f, *args) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        f(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def _source_line(variant: str, source: str | Path | None) -> tuple[Path, list[int]]:
    path = Path(source) if source else RESULTS / f"{variant}-beam2000-seed0.json"
    try:
        data = json.loads(path.read_text())
        line = [int(a) for a in data["line"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"bench --search needs a results record with a line: {path}: {e}"
                         ) from None
    if data.get("variant") != variant:
        raise ValueError(f"{path} is a {data.get('variant')!r} line, not {variant!r}")
    return path, line


def _profile(e: FastEngine, parents: np.ndarray, w: np.ndarray, keep: int, noise: float,
             salt) -> dict:
    """Census of the expansion of ``parents`` and each component timed alone on its inputs."""
    cap = 60000
    inner = np.zeros((cap, L.W_SIZE), dtype=np.int64)
    handed = np.zeros(cap, dtype=np.int64)
    edges = np.zeros((2 * cap, 2), dtype=np.int64)
    leaves = np.zeros((cap, L.W_SIZE), dtype=np.int64)
    roots = np.zeros(cap, dtype=np.int64)
    cnt = np.zeros(4, dtype=np.int64)
    ws = X.scratch_arrays()
    paths = np.zeros((keep, X.MAXD), dtype=np.int64)
    lens = np.zeros(keep, dtype=np.int64)
    evals = np.full(keep, -1e18)
    hashes = np.zeros(keep, dtype=np.uint64)
    used_parents = 0
    for p in range(len(parents)):  # whole parents only, within the arrays' room
        before = cnt.copy()
        X.expand_into(e.T, parents[p], w, keep, paths, lens, evals, hashes, noise, salt, ws,
                      (inner, handed, edges, leaves, roots, cnt))
        if cnt[0] > cap or cnt[1] > 2 * cap or cnt[2] > cap:
            cnt[:] = before
            break
        used_parents += 1
    ni, ne, nl, revisits = (int(v) for v in cnt)
    parents = parents[:used_parents]
    raw = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    out = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    Wt = np.zeros(L.W_SIZE, dtype=np.int64)
    Wt[L.LAND] = -1  # (as a fresh row of the expansion's stack: expansion.copy_state)
    expand_s = _timed(_time_expand, e.T, parents, w, keep, paths, lens, evals, hashes, noise,
                      salt, ws)
    legal_s = _timed(_time_legal, e.T, inner, handed, ni, raw)
    gen_all = _timed(_time_generate, e.T, inner, handed, ni, raw, out, False)
    filter_s = max(0.0, _timed(_time_generate, e.T, inner, handed, ni, raw, out, True) - gen_all)
    copy_s = _timed(_time_copy, inner, edges, ne, Wt)
    step_s = max(0.0, _timed(_time_copy_step, e.T, inner, edges, ne, Wt, raw) - copy_s)
    hash_s = _timed(_time_hash, inner, ni) + _timed(_time_hash, leaves, nl)
    eval_s = _timed(_time_eval, e.T, leaves, roots, inner, nl, w)
    parts = {"legal generation": legal_s, "policy filter": filter_s, "copy": copy_s,
             "step (incl. its forced-END check)": step_s, "hash": hash_s, "evaluation": eval_s}
    parts["search bookkeeping (rest)"] = max(0.0, expand_s - sum(parts.values()))
    return {
        "parents": used_parents, "expand_ms": round(expand_s * 1e3, 2),
        "inner_states": ni, "handed_over_by_step": int((handed[:ni] == 1).sum()),
        "deferred_after_main_action": int((handed[:ni] == 2).sum()), "steps": ne,
        "new_children": nl, "revisits_skipped": revisits,
        "share": {k: round(v / max(expand_s, sum(parts.values())), 3) for k, v in parts.items()},
        "ms": {k: round(v * 1e3, 2) for k, v in parts.items()},
    }


def run(variant: str = "ireland", width: int = 100, layers: int = 4,
        rounds: tuple[int, ...] = ROUNDS, seed: int = 0, keep: int = X.KEEP_PER_PARENT,
        sample: int = 8, source: str | Path | None = None) -> dict:
    """Run the fixed beams and the expansion profile; return the figures as a dict."""
    if width < 1 or layers < 1 or sample < 0:
        raise ValueError("width and layers must be at least 1, sample at least 0")
    path, line = _source_line(variant, source)
    e = FastEngine(variant)
    w = np.asarray(PORTFOLIO[0], dtype=np.float64)
    noise, salt = tie_breaking(seed)
    scratch = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    # warm the kernels (compile or load from cache) outside the timing
    W, _ = state_at_round(e, line, rounds[0])
    layer(e.T, W[None, :].copy(), w, keep, 2, noise, salt, scratch)
    _profile(e, W[None, :].copy(), w, keep, noise, salt)
    per_round = []
    total = {"expand": 0.0, "select": 0.0}
    nodes = 0
    for rnd in rounds:
        W, _ = state_at_round(e, line, rnd)
        beam = W[None, :].copy()
        times: dict = {}
        n_layers = 0
        round_nodes = 0
        every = []  # each layer's parents, in order
        for _ in range(layers):
            live = beam[beam[:, L.DONE] == 0]
            if len(live) == 0:
                break
            every.append(live)
            beam, _, _, _, n = layer(e.T, live, w, keep, width, noise, salt, scratch, times)
            round_nodes += n
            n_layers += 1
        best = int(np.argmax([evaluate(e.T, beam[i], w) for i in range(len(beam))]))
        sc = e.score_wide(beam[best])
        seconds = times.get("expand", 0.0) + times.get("select", 0.0)
        digest = 0
        for i in range(len(beam)):
            digest = (digest * 0x100000001B3 ^ int(state_hash(beam[i]))) % (1 << 64)
        entry = {
            "round": rnd, "beam_digest": f"{digest:016x}", "start_round_reached": int(W[L.ROUND]), "layers": n_layers,
            "nodes": round_nodes, "best_eval": round(float(evaluate(e.T, beam[best], w)), 6),
            "best_score": sc[0], "ms_per_layer": round(seconds / max(1, n_layers) * 1e3, 2),
            "python_ms_per_layer": round(times.get("select", 0.0) / max(1, n_layers) * 1e3, 2),
            "children_per_s": round(round_nodes / seconds) if seconds > 0 else None,
        }
        if sample:
            parents = np.concatenate(every)
            pick = np.unique(np.linspace(0, len(parents) - 1, min(sample, len(parents)))
                             .round().astype(np.int64))
            entry["profile"] = _profile(e, parents[pick], w, keep, noise, salt)
        per_round.append(entry)
        nodes += round_nodes
        for k in total:
            total[k] += times.get(k, 0.0)
    seconds = total["expand"] + total["select"]
    return {
        "variant": variant, "source": str(path), "width": width, "layers": layers,
        "rounds": list(rounds), "seed": seed, "keep": keep,
        "signature": {"nodes": nodes,
                      "best": [[r["round"], r["best_eval"], r["best_score"]] for r in per_round],
                      "beams": [r["beam_digest"] for r in per_round]},
        "children_per_s": round(nodes / seconds) if seconds > 0 else None,
        "seconds": round(seconds, 3),
        "python_share": round(total["select"] / seconds, 3) if seconds > 0 else None,
        "per_round": per_round,
    }


def format_text(r: dict) -> str:
    """The bench figures as readable lines."""
    out = [(f"bench --search {r['variant']}: width {r['width']}, {r['layers']} layers from "
            f"rounds {r['rounds']} of {r['source']}, seed {r['seed']}, keep {r['keep']}"),
           (f"signature: nodes {r['signature']['nodes']}, best (round, eval, score) "
            f"{r['signature']['best']}, beams {r['signature']['beams']}"),
           (f"children per second {r['children_per_s']}, {r['seconds']} s, Python share of the "
            f"layers {r['python_share']}")]
    for e in r["per_round"]:
        out.append(f"round {e['round']}: {e['layers']} layers, {e['nodes']} children, "
                   f"{e['ms_per_layer']} ms/layer ({e['python_ms_per_layer']} ms Python), "
                   f"{e['children_per_s']} children/s")
        p = e.get("profile")
        if p:
            out.append(f"  expansion of {p['parents']} parents on one thread: "
                       f"{p['expand_ms']} ms; {p['inner_states']} inner states "
                       f"({p['handed_over_by_step']} with legal actions from the step, "
                       f"{p['deferred_after_main_action']} deferred after the main action), "
                       f"{p['steps']} steps, {p['new_children']} new children, "
                       f"{p['revisits_skipped']} revisits skipped")
            out.append("  " + ", ".join(f"{k} {p['ms'][k]} ms ({100 * v:.0f}%)"
                                        for k, v in p["share"].items()))
    return "\n".join(out)

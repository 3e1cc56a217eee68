"""The Numba cache can never run stale kernels (issue 10).

In a copy of the tree with its own warm cache, two effect registrations of
solver/rules/effects.py swap places (the Cloister Garden and the Cottage). At commit 01cc41c
the kernels had frozen the registration order as effect ids and the cache key did not see
solver/rules, so selfcheck then found the Garden's grapes turned into malt (france, seed 5,
step 42). Now the ids are literals (ids.py) and the key covers every file under solver/.
Both are shown: with the same XDG cache (the key changes: the kernels compile afresh) and
with the old cache directory forced (the stale kernels are still right). That experiment
compiles every kernel twice (1.5-3 minutes on 2 cores), so it runs in the slow tier; the
default tier checks the key itself on the same edit.

``ORA_STALE_TREE=/path/to/a/checkout`` runs the experiment on another checkout (at 01cc41c
the first selfcheck reports the mismatch).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(os.environ.get("ORA_STALE_TREE") or Path(__file__).resolve().parents[2])
GARDEN = ('effect("cloister_garden", lambda u: [Option("take 1 grapes, then a free use of a '
          'neighbour")],\n       lambda u, data: (u.gain(G.GRAPES), u.grant_free_use('
          'neighbour_targets(u))))\n')
COTTAGE = ('effect("cottage", lambda u: [Option("take 1 malt, then a free use of a '
           'neighbour")],\n       lambda u, data: (u.gain(G.MALT), u.grant_free_use('
           'neighbour_targets(u))))\n')


def _run(tree: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=1800, check=False)


def _clean(r: subprocess.CompletedProcess) -> bool:
    return r.returncode == 0 and "0 mismatches" in r.stdout


def _tail(r: subprocess.CompletedProcess) -> str:
    return r.stdout[-800:] + r.stderr[-800:]


def _cache_dirs(cache: Path) -> set[Path]:
    base = cache / "ora-solve" / "numba"
    return set(base.iterdir()) if base.exists() else set()


def _key(tree: Path, env: dict) -> str:
    r = subprocess.run([sys.executable, "-c", "from solver.fast._cache import cache_key; "
                        "print(cache_key())"], cwd=tree, env=env, capture_output=True,
                       text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr[-800:]
    return r.stdout.strip()


def test_the_cache_key_sees_an_edit_anywhere_under_solver_and_nothing_outside(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "solver", tree / "solver",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = _key(tree, env)
    assert before == _key(tree, env)  # a fixed order: the same tree, the same key
    (tree / "notes.md").write_text("outside solver/")
    assert _key(tree, env) == before
    effects = tree / "solver" / "rules" / "effects.py"
    text = effects.read_text()
    assert text.count(GARDEN + COTTAGE) == 1, "the two registrations moved: update the test"
    effects.write_text(text.replace(GARDEN + COTTAGE, COTTAGE + GARDEN))
    reordered = _key(tree, env)
    assert reordered != before
    data = next((tree / "solver").rglob("*.csv"))
    data.write_bytes(data.read_bytes() + b"\n")
    assert _key(tree, env) not in (before, reordered)


@pytest.mark.slow
def test_reordered_effect_registrations_with_a_warm_cache_stay_clean(tmp_path):
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("solver", "cli"):
        shutil.copytree(ROOT / part, tree / part, ignore=ignore)
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env.update(PYTHONPATH=str(tree), XDG_CACHE_HOME=str(cache))
    check = ("selfcheck", "--variant", "france", "--games", "40", "--seed", "5")

    warm = _run(tree, env, *check[:-4], "--games", "1", "--seed", "5")  # compiles every kernel
    assert _clean(warm), _tail(warm)
    (warm_dir,) = _cache_dirs(cache)

    effects = tree / "solver" / "rules" / "effects.py"
    text = effects.read_text()
    assert text.count(GARDEN + COTTAGE) == 1, "the two registrations moved: update the test"
    effects.write_text(text.replace(GARDEN + COTTAGE, COTTAGE + GARDEN))

    # the stale cache, forced: no kernel constant came from the registry order
    stale = _run(tree, {**env, "NUMBA_CACHE_DIR": str(warm_dir)}, *check)
    assert _clean(stale), _tail(stale)

    # the cache as configured: the key saw the edit and compiled into a new directory
    fresh = _run(tree, env, *check)
    assert _clean(fresh), _tail(fresh)
    assert len(_cache_dirs(cache) - {warm_dir}) == 1

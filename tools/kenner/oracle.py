"""The kennerspiel oracle from Python: starts ``oracle.mjs`` under Node and talks JSON lines.

kennerspiel (npm ``hathora-et-labora-game``, GPL-3) is run, never copied: ``tools/kenner/setup``
installs the pinned package into ``tools/kenner/.oracle/`` (git-ignored). ``oracle_problem()``
says why the oracle cannot run here (no Node, package not installed), or returns None.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "oracle.mjs"
PACKAGE = "hathora-et-labora-game"
VERSION = "0.21.1"


def package_dir() -> Path:
    """Where the oracle package is read from (``KENNER_ORACLE_DIR`` overrides the default)."""
    env = os.environ.get("KENNER_ORACLE_DIR")
    return Path(env) if env else HERE / ".oracle" / "node_modules" / PACKAGE


def oracle_problem() -> str | None:
    """Why the oracle cannot run (a sentence naming the fix), or None if it can."""
    if shutil.which("node") is None:
        return "Node.js is not installed (the kennerspiel oracle runs under node)"
    pkg = package_dir() / "package.json"
    if not pkg.is_file():
        return (f"the kennerspiel oracle package is not installed at {package_dir()}: run "
                f"tools/kenner/setup, or set KENNER_ORACLE_DIR to kennerspiel's game/ at the "
                f"corpus commit 8a87263d (docs/fidelity.md 'Differential play')")
    return None


class OracleError(RuntimeError):
    """The oracle process failed or answered a request with an error."""


class Oracle:
    """One running oracle process; ``ask(request)`` sends a request and returns the answer."""

    def __init__(self):
        problem = oracle_problem()
        if problem:
            raise OracleError(problem)
        env = dict(os.environ, KENNER_ORACLE_DIR=str(package_dir()))
        self.proc = subprocess.Popen(["node", str(DRIVER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)
        self.version = self.ask({"op": "version"})["version"]

    def ask(self, request: dict) -> dict:
        """Send one request; the decoded answer (OracleError if it failed)."""
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read()
            raise OracleError(f"the oracle process ended: {err.strip()[-2000:]}")
        answer = json.loads(line)
        if not answer.get("ok"):
            raise OracleError(f"oracle: {answer.get('error')}")
        return answer

    def replay(self, moves: list[list[str]]) -> dict:
        """kennerspiel's replay of a move list (see oracle.mjs)."""
        return self.ask({"op": "replay", "moves": moves})

    def random_game(self, config: list[str], colours: list[str], seed: int,
                    max_commands: int = 5000) -> dict:
        """A seeded random game played by kennerspiel's own move generation."""
        return self.ask({"op": "random", "config": config, "colors": colours, "seed": seed,
                         "max_commands": max_commands})

    def close(self) -> None:
        """Stop the oracle process."""
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

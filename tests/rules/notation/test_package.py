"""The notation package's structure: every effect key has a parameter codec, the package
reads the engine's decision frames in frames.py alone, and uses no private State member."""

from __future__ import annotations

import re
from pathlib import Path

from solver.rules.cards import BUILDINGS
from solver.rules.effects import EFFECTS
from solver.rules.notation import CODECS

PACKAGE = Path(__file__).resolve().parents[3] / "solver" / "rules" / "notation"


def test_every_effect_key_has_exactly_one_codec():
    assert set(CODECS) == set(EFFECTS)
    assert {b.effect for b in BUILDINGS.values()} <= set(CODECS)


def test_frames_are_read_in_frames_py_only():
    frame_reads = re.compile(r'\.frame\[|\.frame\.get|\["f"\]|frames\[-1\]')
    offenders = [p.name for p in PACKAGE.glob("*.py")
                 if p.name != "frames.py" and frame_reads.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_no_private_state_member_is_used():
    private = re.compile(r"\b(?:st|state|self\.state|ctx\.state)\._[a-z]")
    offenders = [p.name for p in PACKAGE.glob("*.py")
                 if private.search(p.read_text(encoding="utf-8"))]
    assert offenders == []

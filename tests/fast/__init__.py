"""Tests of the fast engine, solver/fast/."""

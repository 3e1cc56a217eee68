"""Tests of the research layer, solver/research/."""

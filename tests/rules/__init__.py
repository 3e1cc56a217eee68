"""Tests of the reference engine, solver/rules/."""

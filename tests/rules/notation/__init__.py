"""Tests of the kennerspiel notation, solver/rules/notation/."""

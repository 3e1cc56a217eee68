"""Tests of the job runner, solver/jobs/."""

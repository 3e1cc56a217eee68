"""The researcher's workflow: positions to search from, sweeps of candidates under equal
budgets (job runner, statistics, openings, analyse), and showing a line (text and pictures)."""

"""``ora-solve bench --search`` (speed.py: the beam's speed from fixed positions, with a
deterministic signature) and ``ora-solve bench --strength`` (strength.py: scores of fixed
beams and node-budgeted schedules on tuning seeds). The engine's playout bench is
solver/fast/bench.py."""

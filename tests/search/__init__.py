"""Tests of the search, solver/search/: one file per module of beam/ (test_beam: run, stages
and lines; test_expansion, test_policy, test_selection, test_schedule, test_restarts),
evaluation/ (test_evaluation: features and weights; test_tune), playouts/, bench/ and the
modules beside them."""

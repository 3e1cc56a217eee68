"""Tests of the command line, cli/ (the files still at tests/ top level join later)."""

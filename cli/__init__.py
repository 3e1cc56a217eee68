"""Command-line interface for ora-solve."""

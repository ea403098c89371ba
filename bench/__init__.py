"""Benchmarks (issue 5): scripts that print tables and write JSON into bench/results/. Not tests."""

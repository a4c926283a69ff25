"""Whole tiled kernels benchmarked end to end (see run.py)."""

"""Experiments: the study scripts (each run as ``python experiments/NAME.py`` from the
repository root) and their library, ``experiments.lib``."""

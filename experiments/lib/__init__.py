"""The experiments' library: modules the study scripts of ``experiments/`` import (kernel suites,
variant and tuning runs, fuzzing helpers, provenance stamps, figure styles). Scripts stay in
``experiments/``, each runnable as ``python experiments/NAME.py``; nothing here is a script."""

"""The suite's longest tests run first: pytest-xdist hands tests to its workers in collection
order, so a half-minute test collected last keeps one worker busy after the other has
finished. The list is of files and tests that take 10 s or more on a 2-core machine (see
``pytest --durations``); a name missing from it only costs wall time, never a result."""

from __future__ import annotations

import pytest

LONGEST = (
    "tests/test_tutorial.py::",
    "tests/test_fuzz.py::test_programs_agree_at_every_stage",
    "tests/test_fuzz.py::test_generator_covers",
    "tests/test_check_rules.py::test_rule_library_is_sound",
    "tests/test_random_programs.py::test_optimized_programs_compute_the_same_bits",
    "tests/test_quick_studies.py::",
    "tests/test_research_tidy.py::test_every_experiment_script_answers_help",
    "tests/test_sweeps.py::test_scaling_study_smoke",
    "tests/test_bench.py::test_full_space_search",
    "tests/test_bench.py::test_bench_survives_mlir_code_that_overflows_the_stack",
    "tests/test_studies.py::test_nested_vs_flat_smoke",
    "tests/test_fuzz.py::test_fuzz_regression",
    "tests/test_codegen_reduce_tree.py::test_float_min_max_trees_keep_the_folds_bits",
    "tests/test_opt_targets.py::test_random_programs_compute_the_same_bits_on_every_target",
)


def _rank(item: pytest.Item) -> int:
    for i, prefix in enumerate(LONGEST):
        if item.nodeid.startswith(prefix):
            return i
    return len(LONGEST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the rest keep their order

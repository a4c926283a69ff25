"""What a researcher meets first: every experiment script answers ``--help`` when run from the
repository root, docstrings cite only documents in the repository, and study outputs stay
inside their ``--dir``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _scripts() -> list[Path]:
    return sorted(
        p for p in (ROOT / "experiments").glob("*.py")
        if 'if __name__ == "__main__"' in p.read_text(encoding="utf-8")
    )


def test_every_experiment_script_answers_help_from_the_repo_root() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # as a user runs it
    procs = {
        p: subprocess.Popen(
            [sys.executable, str(p.relative_to(ROOT)), "--help"], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for p in _scripts()
    }
    bad = []
    for p, proc in procs.items():
        out, err = proc.communicate(timeout=600)
        if proc.returncode != 0 or "usage:" not in out:
            bad.append(f"{p.name}: exit {proc.returncode}: {err.strip().splitlines()[-1:]}")
    assert not bad, "\n".join(bad)
    assert len(procs) >= 10


def test_docstrings_cite_only_documents_in_the_repository() -> None:
    if (ROOT / "DESIGN.md").exists():
        return
    citing = [
        str(p.relative_to(ROOT))
        for folder in ("eqsat", "frontend", "experiments", "rules")
        for p in (ROOT / folder).rglob("*.py")
        if "DESIGN" in p.read_text(encoding="utf-8")
    ]
    assert not citing, f"cite DESIGN.md, which is not in the repository: {citing}"


def test_tuning_outputs_of_a_target_file_stay_in_the_results_directory(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from experiments.tune_costs import file_tag

    mine = tmp_path / "elsewhere" / "mine.toml"
    outdir = tmp_path / "results"
    for target in (str(mine), "avx2"):
        for name in (f"{file_tag(target)}-tuned.toml", f"{file_tag(target)}.png"):
            assert (outdir / name).parent == outdir
    assert file_tag(str(mine)) == "mine"


def test_experiments_holds_scripts_and_its_library_holds_the_rest() -> None:
    """Library modules live in ``experiments/lib/``, scripts in ``experiments/``."""
    tops = [p for p in (ROOT / "experiments").glob("*.py") if p.name != "__init__.py"]
    assert tops and all('if __name__ == "__main__"' in p.read_text() for p in tops), [
        p.name for p in tops if 'if __name__ == "__main__"' not in p.read_text()
    ]
    lib = [p for p in (ROOT / "experiments" / "lib").glob("*.py") if p.name != "__init__.py"]
    assert lib and not any('if __name__ == "__main__"' in p.read_text() for p in lib)

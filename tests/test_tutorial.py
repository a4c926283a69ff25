"""docs/tutorial.md runs as written: every ``sh`` block, in order, in one shell (``eqsat`` is
the installed command; here the CLI module of this checkout)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eqsat.targets import load_target
from tests.test_tuning import check_smoke_tuning

ROOT = Path(__file__).resolve().parents[1]


def test_tutorial_commands_run_as_written(tmp_path: Path) -> None:
    if not load_target("avx2").runs_on_host():
        pytest.skip("the tutorial benchmarks avx2 code, which this host does not run")
    text = (ROOT / "docs" / "tutorial.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    assert len(blocks) >= 7
    script = "\n".join(
        [
            "set -euo pipefail",
            f'eqsat() {{ "{sys.executable}" -m eqsat.cli "$@"; }}',
            f'python() {{ "{sys.executable}" "$@"; }}',
            f"mktemp() {{ echo {tmp_path}; }}",
            *blocks,
        ]
    )
    shipped = (ROOT / "costs" / "avx2.toml").read_bytes()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1200, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "neg-neg" in out and "0 unsound, 0 ill-typed, 0 never fired" in out
    assert "IR after phase explore" in out
    assert "eqsat[rules=negneg]" in out and "eqsat[costs=avx2-tuned]" in out
    # Its tuning step is the tuning study's smoke run (tests/test_tuning.py leaves it to this
    # test where avx2 runs): the shipped file untouched, the tuned one and the study sound.
    assert (ROOT / "costs" / "avx2.toml").read_bytes() == shipped
    check_smoke_tuning(tmp_path / "tuning", tmp_path / "avx2-tuned.toml", "avx2")

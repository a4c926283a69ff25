"""experiments/lib/provenance.py: the fields every results file records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from experiments.lib.provenance import markdown_header, record, write_sidecar

ROOT = Path(__file__).resolve().parent.parent


def test_record_names_the_commit_host_versions_and_command() -> None:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()  # fmt: skip
    p = record(["experiments/x.py", "--quick"])
    assert p["git"]["commit"] == head and isinstance(p["git"]["dirty"], bool)
    assert p["command"].endswith("experiments/x.py --quick")
    assert p["versions"]["llvmlite"] and p["versions"]["llvmlite_llvm"].count(".") == 2
    assert p["host"]["cpus"] >= 1 and p["date"].endswith("Z")
    header = markdown_header(p)
    assert head[:12] in header and "experiments/x.py --quick" in header


def test_sidecar_round_trips(tmp_path: Path) -> None:
    side = write_sidecar(tmp_path / "r.csv", record(["a"]))
    assert side.name == "r.csv.provenance.json"
    assert json.loads(side.read_text())["command"].endswith(" a")

"""Which llvm-project revision a directory of MLIR's CPU vector integration tests comes from,
and how to extract that directory from a checkout at a given revision.

MLIR's tests follow the syntax of their own revision: files of an older one may not parse in
MLIR 22 (``vector.extractelement``, ``vector.splat`` and ``vector.matrix_multiply`` were
removed). So a corpus directory records its revision in ``LLVM_REVISION`` (one line:
``<ref> <commit>``), which ``extract`` writes and ``experiments/mlir_integration.py`` quotes
in its results. The installed MLIR 22 is Debian's 22.1.8: its tests are tag ``llvmorg-22.1.8``.

    python -m experiments.integration.corpus LLVM_CHECKOUT DEST [--rev llvmorg-22.1.8]
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
from pathlib import Path

SUBDIR = "mlir/test/Integration/Dialect/Vector/CPU"
DEFAULT_REV = "llvmorg-22.1.8"
REVISION_FILE = "LLVM_REVISION"


class CorpusError(Exception):
    """The checkout or the revision cannot give the corpus."""


def _git(checkout: Path, *args: str) -> bytes:
    try:
        r = subprocess.run(["git", "-C", str(checkout), *args], capture_output=True,
                           timeout=600, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        raise CorpusError(f"git {' '.join(args)}: {e}") from e
    if r.returncode != 0:
        msg = r.stderr.decode(errors="replace").strip().splitlines()
        raise CorpusError(f"{checkout}: git {' '.join(args[:2])}: {msg[-1] if msg else 'failed'}")
    return r.stdout


def extract(checkout: Path, dest: Path, rev: str = DEFAULT_REV) -> str:
    """Write ``SUBDIR`` of ``checkout`` at ``rev`` (its files and subdirectories) into
    ``dest`` and record the revision in ``dest/LLVM_REVISION``; returns the commit."""
    try:
        commit = _git(checkout, "rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()
    except CorpusError as e:
        raise CorpusError(f"{checkout}: no revision {rev!r} ({e})") from e
    data = _git(checkout, "archive", "--format=tar", commit, SUBDIR)
    dest.mkdir(parents=True, exist_ok=True)
    prefix = SUBDIR + "/"
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            rel = Path(member.name[len(prefix) :])
            if rel.is_absolute() or ".." in rel.parts:
                continue
            src = tar.extractfile(member)
            if src is None:
                continue
            out = dest / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(src.read())
    (dest / REVISION_FILE).write_text(f"{rev} {commit}\n")
    return commit


def revision(directory: Path) -> str | None:
    """The recorded revision of a corpus directory: its ``LLVM_REVISION`` line, else the
    commit of the git checkout it lies in (``describe``; None outside one)."""
    path = directory / REVISION_FILE
    if path.is_file():
        first = path.read_text().strip().splitlines()
        return first[0] if first else None
    try:
        described = _git(directory, "describe", "--tags", "--always", "--dirty").decode()
    except CorpusError:
        return None
    return f"{described.strip()} (git checkout)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path, help="an llvm-project git checkout")
    ap.add_argument("dest", type=Path, help="where the corpus goes")
    ap.add_argument("--rev", default=DEFAULT_REV, help=f"tag or commit (default {DEFAULT_REV})")
    args = ap.parse_args(argv)
    try:
        commit = extract(args.checkout, args.dest, args.rev)
    except CorpusError as e:
        print(f"corpus: error: {e}", file=sys.stderr)
        return 1
    n = sum(1 for _ in args.dest.glob("*.mlir"))
    print(f"{n} top-level test files of {args.rev} ({commit[:12]}) in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which llvm-project revision a directory of MLIR's CPU vector integration tests comes from,
and how to extract that directory from a checkout at a given revision.

MLIR's tests follow the syntax of their own revision: files of an older one may not parse in
MLIR 22 (``vector.extractelement``, ``vector.splat`` and ``vector.matrix_multiply`` were
removed). So a corpus directory records its revision in ``LLVM_REVISION`` (one line:
``<ref> <commit>``), which ``extract`` writes and ``experiments/mlir_integration.py`` quotes
in its results. The installed MLIR 22 is Debian's 22.1.8: its tests are tag ``llvmorg-22.1.8``.

The source is a git checkout of llvm-project (``--rev`` picks the tag) or a release source
tarball (a distribution's ``llvm-toolchain-22_<version>.orig.tar.xz`` or llvm's own
``llvm-project-<version>.src.tar.xz``): its revision is the release tag its own
``cmake/Modules/LLVMVersion.cmake`` names, and the record adds the tarball's sha256, so anyone
can check that they hold the same bytes.

    python -m experiments.integration.corpus LLVM_CHECKOUT_OR_TARBALL DEST [--rev llvmorg-22.1.8]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
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
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        _write_subdir(tar, "", dest)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / REVISION_FILE).write_text(f"{rev} {commit}\n")
    return commit


def _write_subdir(tar: tarfile.TarFile, top: str, dest: Path) -> int:
    """Write the regular files under ``top + SUBDIR`` of an open tar stream into ``dest``
    (read in one pass, as a compressed stream allows); returns how many."""
    prefix = top + SUBDIR + "/"
    written = 0
    for member in tar:
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
        written += 1
    return written


_VERSION_FILE = "cmake/Modules/LLVMVersion.cmake"
_VERSION_PART = re.compile(r"set\(LLVM_VERSION_(MAJOR|MINOR|PATCH) (\d+)\)")


def _release_tag(tarball: Path) -> tuple[str, str]:
    """The top directory of a release source tarball and the tag its version file names."""
    try:
        with tarfile.open(tarball) as tar:
            for member in tar:
                top, _, rest = member.name.partition("/")
                if rest == _VERSION_FILE and member.isfile():
                    src = tar.extractfile(member)
                    text = src.read().decode(errors="replace") if src else ""
                    parts = dict(_VERSION_PART.findall(text))
                    if len(parts) != 3:
                        raise CorpusError(f"{tarball}: {member.name} names no full version")
                    return top + "/", "llvmorg-{MAJOR}.{MINOR}.{PATCH}".format(**parts)
    except (OSError, tarfile.TarError, EOFError) as e:
        raise CorpusError(f"{tarball}: not a readable tar archive ({e})") from e
    raise CorpusError(f"{tarball}: no */{_VERSION_FILE}: not an llvm-project source tarball")


def extract_tarball(tarball: Path, dest: Path) -> str:
    """Write ``SUBDIR`` of an llvm-project release source tarball into ``dest`` and record
    its release tag and the tarball's sha256 in ``dest/LLVM_REVISION``; returns that line."""
    top, tag = _release_tag(tarball)
    digest = hashlib.sha256()
    with open(tarball, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    with tarfile.open(tarball) as tar:
        if _write_subdir(tar, top, dest) == 0:
            raise CorpusError(f"{tarball}: no files under {top}{SUBDIR}")
    line = f"{tag} sha256:{digest.hexdigest()} ({tarball.name})"
    (dest / REVISION_FILE).write_text(line + "\n")
    return line


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
    ap.add_argument("source", type=Path,
                    help="an llvm-project git checkout or a release source tarball")
    ap.add_argument("dest", type=Path, help="where the corpus goes")
    ap.add_argument("--rev", default=None,
                    help=f"tag or commit of a checkout (default {DEFAULT_REV}); a tarball "
                         "names its own")
    args = ap.parse_args(argv)
    if args.source.is_file() and args.rev is not None:
        ap.error("--rev is for a checkout: a tarball's revision is the release it holds")
    try:
        if args.source.is_file():
            origin = extract_tarball(args.source, args.dest)
        else:
            rev = args.rev or DEFAULT_REV
            origin = f"{rev} ({extract(args.source, args.dest, rev)[:12]})"
    except CorpusError as e:
        print(f"corpus: error: {e}", file=sys.stderr)
        return 1
    n = sum(1 for _ in args.dest.glob("*.mlir"))
    print(f"{n} top-level test files of {origin} in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``eqsat``: the command line, in the style of ``mlir-opt``.

Every error in the user's input is printed as ``FILE:LINE:COL: error: message`` with exit
status 1; a traceback is a bug in eqsat.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from frontend import MLIRError, parse, print_module


def _read(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(), path
    except OSError as e:
        raise SystemExit(f"eqsat: error: cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise SystemExit(f"eqsat: error: {path} is not UTF-8 text") from None


def cmd_parse(args: argparse.Namespace) -> int:
    text, name = _read(args.file)
    module = parse(text, name)
    sys.stdout.write(print_module(module, generic=args.generic))
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="eqsat", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("parse", help="parse, verify and print an MLIR file")
    p.add_argument("file", help="MLIR file, or - for stdin")
    p.add_argument("--generic", action="store_true", help="print every op in generic form")
    p.set_defaults(run=cmd_parse)
    from eqsat.commands import add_commands

    add_commands(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except MLIRError as e:
        print(str(e), file=sys.stderr)
        return 1
    except RecursionError:
        print("eqsat: error: input nests too deeply", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

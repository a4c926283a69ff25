"""MLIR text <-> IR: parse, verify and print the vector dialect and its companions."""

from __future__ import annotations

from pathlib import Path

from frontend.errors import MLIRError, ParseError, VerifyError, decode_source
from frontend.ir import Block, Module, Operation, Region, Value, gc_paused
from frontend.parser import parse_module
from frontend.printer import print_module
from frontend.verifier import verify_module


def parse(text: str, file: str = "<input>", verify: bool = True) -> Module:
    """Parse (and by default verify) MLIR text; errors carry file:line:col."""
    module = parse_module(text, file)
    if verify:
        with gc_paused():
            verify_module(module)
    return module


def parse_file(path: str | Path, verify: bool = True) -> Module:
    return parse(decode_source(Path(path).read_bytes(), str(path)), str(path), verify)


__all__ = [
    "Block",
    "MLIRError",
    "Module",
    "Operation",
    "ParseError",
    "Region",
    "Value",
    "VerifyError",
    "parse",
    "parse_file",
    "parse_module",
    "print_module",
    "verify_module",
]

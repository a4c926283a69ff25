"""Shrinking a failing fuzz program: a greedy delta-debugging pass over its ops.

Candidates, tried in this order until none still fails the same way (same kind, same stage):
keep one returned value; drop an op whose results nothing uses (stores, prints); cut an op
out by making its result a new argument of the function; each followed by dead-code
removal. Every candidate is verified before it is tried, so a shrunk program is as valid as
the original.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from frontend import MLIRError, parse, print_module
from frontend.attributes import TypeAttr
from frontend.ir import Module, Operation
from frontend.types import FunctionType, VectorType


def shrink(f: Any, check: Callable[[str, int], list[Any]], seconds: float = 120.0) -> Any:
    """The smallest program found (within ``seconds``) that still fails like finding ``f``
    (an ``experiments.fuzz.Finding``); ``check(text, input_seed)`` gives a program's
    findings."""
    deadline = time.perf_counter() + seconds
    current = f
    progress = True
    while progress and time.perf_counter() < deadline:
        progress = False
        for text in candidates(current.text):
            if time.perf_counter() > deadline:
                break
            same = [
                x
                for x in check(text, current.input_seed)
                if x.kind == f.kind and x.stage == f.stage
            ]
            if same:
                current = same[0]
                progress = True
                break
    return current


def candidates(text: str) -> Iterator[str]:
    """Smaller valid variants of a one-function program, most promising first."""
    n_results = len(_func(parse(text)).attributes["function_type"].type.results)
    if n_results > 1:
        for j in range(n_results):
            yield from _valid(text, lambda m, j=j: _keep_result(m, j))
    n_ops = len(_body(_func(parse(text))).ops)
    for k in reversed(range(n_ops - 1)):  # never the return
        yield from _valid(text, lambda m, k=k: _drop_unused(m, k))
    for k in range(n_ops - 1):
        yield from _valid(text, lambda m, k=k: _cut(m, k))


def _valid(text: str, edit) -> Iterator[str]:  # type: ignore[no-untyped-def]
    module = parse(text)
    if not edit(module):
        return
    _dce(module)
    try:
        out = print_module(module)
        parse(out)
    except MLIRError:
        return
    if out != text:
        yield out


def _func(module: Module) -> Operation:
    return module.ops[0]


def _body(func: Operation):  # type: ignore[no-untyped-def]
    return func.regions[0].blocks[0]


def _set_type(func: Operation) -> None:
    block = _body(func)
    ret = block.ops[-1]
    ftype = FunctionType(tuple(a.type for a in block.args), tuple(v.type for v in ret.operands))
    func.attributes["function_type"] = TypeAttr(ftype)


def _keep_result(module: Module, j: int) -> bool:
    func = _func(module)
    ret = _body(func).ops[-1]
    ret.operands = [ret.operands[j]]
    _set_type(func)
    return True


def _uses(module: Module) -> set[int]:
    return {id(v) for op in module.walk() for v in op.operands}


def _has_effects(op: Operation) -> bool:
    for inner in [op, *op.walk()] if op.regions else [op]:
        spec = inner.spec
        if spec is None or spec.traits & {"writes", "prints"}:
            return True
    return False


def _drop_unused(module: Module, k: int) -> bool:
    block = _body(_func(module))
    op = block.ops[k]
    if any(id(r) in _uses(module) for r in op.results):
        return False
    del block.ops[k]
    return True


def _cut(module: Module, k: int) -> bool:
    """Replace the results of op ``k`` by new function arguments (vectors only)."""
    func = _func(module)
    block = _body(func)
    op = block.ops[k]
    if not op.results or not all(isinstance(r.type, VectorType) for r in op.results):
        return False
    new = {id(r): block.add_arg(r.type) for r in op.results}
    for inner in module.walk():
        inner.operands = [new.get(id(v), v) for v in inner.operands]
    del block.ops[k]
    _set_type(func)
    return True


def _dce(module: Module) -> None:
    """Remove unused pure ops, then unused arguments."""
    func = _func(module)
    block = _body(func)
    changed = True
    while changed:
        changed = False
        used = _uses(module)
        for k in reversed(range(len(block.ops) - 1)):
            op = block.ops[k]
            if op.results and not _has_effects(op) and not any(id(r) in used for r in op.results):
                del block.ops[k]
                changed = True
                break
    used = _uses(module)
    block.args = [a for a in block.args if id(a) in used]
    for i, a in enumerate(block.args):
        a.index = i
    _set_type(func)


__all__ = ["candidates", "shrink"]

"""Verification: the declared constraints of every op's spec, then its own type rules.

The generic part (operand and result counts and types, required attributes, regions,
terminators, symbol uses) is driven entirely by the ``OpSpec``; op-specific rules live
next to each op's spec.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from frontend.errors import VerifyError
from frontend.fastverify import CompiledChecks
from frontend.ir import Module, Operation, signature, signature_objects
from frontend.ops.common import fail
from frontend.ops.spec import (
    LOCAL,
    OPTIONAL,
    SINGLE,
    SYMBOL,
    TERMINATOR,
    OpSpec,
    _valid_segments,
)
from frontend.types import FunctionType


def verify_module(module: Module, verified: Mapping[int, int] | None = None) -> None:
    """Raise ``VerifyError`` (with the op's file:line:col) at the first broken rule.
    ``verified``: by id of block, how many of its first ops ``verify_ops`` verified already
    (with the ops nested in them), which are skipped (a body built piece by piece: all but its
    terminator, without a walk of its millions of ops)."""
    verified = verified or {}
    symbols = symbol_table(module)
    for op in module.ops:
        _verify_top_level(op)
        _verify_tree(op, symbols, verified)


def symbol_table(module: Module) -> dict[str, Operation]:
    """The module's symbols by name (``VerifyError`` for a name defined twice)."""
    symbols: dict[str, Operation] = {}
    for op in module.ops:
        sym = op.attributes.get("sym_name")
        if sym is not None:
            name = getattr(sym, "value", None)
            if name in symbols:
                raise fail(op, f"redefinition of symbol named '{name}'")
            symbols[name] = op  # type: ignore[index]
    return symbols


def verify_ops(ops: Iterable[Operation], symbols: dict[str, Operation],
               keys: dict[int, tuple[Any, ...]] | None = None) -> None:  # fmt: skip
    """Verify ``ops`` and the ops nested in them ahead of their module (``symbols``: its
    ``symbol_table``), as ``verify_module`` would. For a program built piece by piece
    (``eqsat.optimizer``'s windows), so that each piece is checked while the next is made;
    an op whose rules read its parent (a terminator) waits for ``verify_module``.
    ``keys`` receives, by id of op, the signature of each top-level op verified by its
    signature (``frontend.ir.signature``), for the printer to reuse (``PrintedBody.add``)."""
    if keys is None:
        for op in ops:
            _verify_tree(op, symbols)
        return
    for op in ops:
        if op.regions or op.name in _SYMBOL_USERS:
            _verify_tree(op, symbols)
            continue
        key = verify_op(op)  # (``_verify_tree`` of an op without regions)
        if key is not None:
            keys[id(op)] = key


#: Ops that may sit directly in a module: symbols (functions, globals, transform scripts) and
#: nested modules holding only such ops.
def _verify_top_level(op: Operation) -> None:
    if op.name == "builtin.module":
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    _verify_top_level(inner)
        return
    if op.spec is None or not op.spec.has(SYMBOL):
        raise fail(op, "only functions and globals may appear at the top level of a module")


def _verify_tree(
    op: Operation, symbols: dict[str, Operation], verified: Mapping[int, int] | None = None
) -> None:
    """``op`` and every op nested in it, in textual order (as ``op.walk()`` visits them),
    except the first ops of the blocks in ``verified`` (see ``verify_module``)."""
    verify_op(op)
    if op.name in _SYMBOL_USERS:
        _verify_symbol_use(op, symbols)
    for region in op.regions:
        for block in region.blocks:
            skip = verified.get(id(block), 0) if verified else 0
            for inner in block.ops[skip:] if skip else block.ops:
                _verify_tree(inner, symbols, verified)


def verify_op(op: Operation) -> tuple[Any, ...] | None:
    """Verify ``op`` itself (not the ops nested in it); its signature when it was verified
    by it (``frontend.ir.signature``), else None."""
    spec = op.spec
    if spec is None:
        raise VerifyError(f"unknown operation '{op.name}'", op.loc)
    if LOCAL in spec.traits and not op.regions:
        # its rules read only its signature (``frontend.ir.signature``): verified once per one
        key = signature(op, spec)
        if key in _PASSED:
            return key
        _verify_op(op, spec)
        if len(_PASSED) >= _PASSED_MAX:
            _PASSED.clear()
        _PASSED[key] = signature_objects(op, spec)
        return key
    _verify_op(op, spec)
    return None


# The signatures of ``LOCAL`` ops that passed (``verify_op``), each with the objects its key
# names by identity; and how many are kept before the memo starts over.
_PASSED: dict[tuple[object, ...], tuple[object, ...]] = {}
_PASSED_MAX = 1 << 14


def _verify_op(op: Operation, spec: OpSpec) -> None:
    checks = _CHECKS.get(spec.name)
    if checks is None or checks.spec is not spec:
        checks = _CHECKS[spec.name] = CompiledChecks(spec, _verify_operands)
    # The declared constraints, by the spec's compiled checks; when one of them fails, the
    # general functions find (and report) the broken rule.
    if not checks.passes(op):
        _verify_operands(op, spec)
        _verify_results(op, spec)
        _verify_attributes(op, spec)
    if op.regions or spec.regions:
        _verify_regions(op, spec)
    if spec.verify is not None:
        try:
            spec.verify(op)
        except VerifyError:
            raise
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:
            raise fail(op, f"is malformed ({type(e).__name__}: {e})") from None


_SYMBOL_USERS = frozenset({"func.call", "memref.get_global"})  # see _verify_symbol_use
_CHECKS: dict[str, CompiledChecks] = {}  # op name -> the checks of its spec


def _verify_operands(op: Operation, spec: OpSpec) -> None:
    operands = op.operands
    n = len(operands)
    if spec.segmented:
        seg = op.attributes.get("operandSegmentSizes")
        if not _valid_segments(seg, len(spec.operands), n):
            raise fail(
                op,
                f"operandSegmentSizes must be array<i32: ...> with "
                f"{len(spec.operands)} sizes adding up to {n} operands",
            )
    else:
        fixed = spec.single_operands
        flexible = len(spec.operands) - fixed
        optional_only = flexible == 1 and any(o.kind == OPTIONAL for o in spec.operands)
        if n < fixed or (flexible == 0 and n != fixed) or (optional_only and n > fixed + 1):
            raise fail(op, f"expected {fixed}{'+' if flexible else ''} operands, found {n}")
    index = 0
    for o, size in zip(spec.operands, spec.segment_sizes(op)):
        if o.kind == SINGLE and size != 1:
            raise fail(op, f"operand group '{o.name}' needs exactly one value, found {size}")
        if o.kind == OPTIONAL and size > 1:
            raise fail(op, f"operand group '{o.name}' takes at most one value, found {size}")
        check = o.constraint.check
        for v in operands[index : index + size]:
            if not check(v.type):
                raise fail(
                    op,
                    f"operand #{index} ('{o.name}') must be {o.constraint.description},"
                    f" but got {v.type}",
                )
            index += 1


def _verify_results(op: Operation, spec: OpSpec) -> None:
    fixed = spec.single_results
    flexible = len(spec.results) - fixed
    n = len(op.results)
    if n < fixed or (not flexible and n != fixed):
        raise fail(op, f"requires {fixed} result{'s' if fixed != 1 else ''}, found {n}")
    index, rest = 0, n - fixed
    for r in spec.results:
        size = 1 if r.kind == SINGLE else rest
        check = r.constraint.check
        for v in op.results[index : index + size]:
            if not check(v.type):
                raise fail(
                    op, f"result ('{r.name}') must be {r.constraint.description}, but got {v.type}"
                )
        index += size


def _verify_attributes(op: Operation, spec: OpSpec) -> None:
    for d in spec.attrs:
        a = op.attributes.get(d.name)
        if a is None:
            if not d.optional and d.default is None:
                raise fail(op, f"requires attribute '{d.name}'")
            continue
        if not d.kind.check(a):
            raise fail(
                op, f"attribute '{d.name}' failed to satisfy constraint: {d.kind.description}"
            )


def _verify_regions(op: Operation, spec: OpSpec) -> None:
    if len(op.regions) != len(spec.regions):
        raise fail(op, f"requires {len(spec.regions)} regions, found {len(op.regions)}")
    for region in op.regions:
        for block in region.blocks:
            for i, inner in enumerate(block.ops):
                is_term = inner.spec is not None and inner.spec.has(TERMINATOR)
                if is_term and i != len(block.ops) - 1:
                    raise fail(inner, "must be the last operation in the parent block")
            if op.name not in ("builtin.module",) and block.ops:
                last = block.ops[-1]
                if last.spec is None or not last.spec.has(TERMINATOR):
                    raise fail(last, "block must end with a terminator operation")


def _verify_symbol_use(op: Operation, symbols: dict[str, Operation]) -> None:
    if op.name == "func.call":
        name = op.attributes["callee"].root
        callee = symbols.get(name)
        if callee is None or callee.name != "func.func":
            raise fail(op, f"'{name}' does not reference a valid function")
        ftype: FunctionType = callee.attributes["function_type"].type
        if [v.type for v in op.operands] != list(ftype.inputs):
            raise fail(op, "operand types do not match the callee's signature")
        if op.result_types != list(ftype.results):
            raise fail(op, "result types do not match the callee's signature")
    elif op.name == "memref.get_global":
        name = op.attributes["name"].root
        glob = symbols.get(name)
        if glob is None or glob.name != "memref.global":
            raise fail(op, f"'{name}' does not reference a valid global memref")
        if glob.attributes["type"].type != op.results[0].type:
            raise fail(op, "result type does not match the type of the global memref")

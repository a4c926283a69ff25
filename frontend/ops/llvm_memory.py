"""Pointers and the masked memory intrinsics of MLIR's ``llvm`` dialect: how a program at the
HWV level reaches memory the way ``convert-vector-to-llvm`` lowers it (a memref's aligned
pointer, ``inttoptr``, ``getelementptr``, then ``llvm.intr.masked.load`` ...).

Pointers are i64 addresses in the flat address space of ``frontend.semantics_pointer``; a
``vector<Nx!llvm.ptr>`` is an array of them. Supported: ``getelementptr`` with no or one index
(constant, dynamic scalar, or a vector of indices giving a vector of pointers), with any valid
no-wrap flags (they only make an overflowing address poison); the intrinsics on 1-D vectors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend import semantics_pointer as SP
from frontend.attributes import DenseArrayAttr, IntegerAttr, TypeAttr
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.common import fail
from frontend.ops.kinds import I32, I32_DENSE, TYPE, UNIT
from frontend.ops.llvm import FIXED_1D
from frontend.ops.runtime import EvalContext, elem
from frontend.ops.spec import (
    ANY,
    MASK,
    MEMREF,
    OPTIONAL,
    PURE,
    READS,
    WRITES,
    Attr,
    Operand,
    OpSpec,
    Result,
    TypeConstraint,
)
from frontend.semantics_core import SemanticsError, bitwidth
from frontend.types import IndexType, IntegerType, OpaqueType, Type, VectorType

PTR = OpaqueType("!llvm.ptr")
POINTER = TypeConstraint("LLVM pointer", lambda t: t == PTR)
POINTERS = TypeConstraint(
    "LLVM pointer or vector of them",
    lambda t: t == PTR or (isinstance(t, VectorType) and t.element == PTR and t.rank == 1),
)
DYNAMIC = -2147483648  # rawConstantIndices marker of a dynamic index (LLVM's kDynamicIndex)
#: noWrapFlags as the custom form spells them (bits: inbounds_flag 1, nusw 2, nuw 4; 1 alone is
#: invalid). They only make an overflowing address poison: a program that runs has none.
NO_WRAP = {
    0: "", 2: "nusw", 3: "inbounds", 4: "nuw", 5: "inbounds_flag|nuw", 6: "nusw|nuw",
    7: "inbounds|nuw",
}  # fmt: skip
_FLAG_WORDS = (("inbounds_flag", 1), ("inbounds", 3), ("nusw", 2), ("nuw", 4))
ZERO_I32 = IntegerAttr(0, IntegerType(32))


# -- memref.extract_aligned_pointer_as_index, llvm.inttoptr --------------------------------
def _aligned_pointer(ctx: EvalContext, op: Operation, source: Any) -> np.int64:
    if source.vector_shape:
        raise SemanticsError("pointers into memrefs of vectors are not modelled")
    return np.int64(SP.address_of(source.buffer))


def _verify_aligned_pointer(op: Operation) -> None:
    if not isinstance(op.results[0].type, IndexType):
        raise fail(op, f"result must be index, but got {op.results[0].type}")


def _verify_inttoptr(op: Operation) -> None:
    if op.operand("arg").type != IntegerType(64) or op.results[0].type != PTR:
        raise fail(op, "converts an i64 to !llvm.ptr (the only forms modelled)")


# -- llvm.getelementptr ------------------------------------------------------------------------
def _gep_parts(op: Operation) -> tuple[int | None, Type]:
    """(constant index, 0 when there is none, or None for the dynamic operand; element type)."""
    raw = op.attributes["rawConstantIndices"].values  # type: ignore[attr-defined]
    t = op.attributes["elem_type"].type  # type: ignore[attr-defined]
    if not raw:
        return 0, t
    return (None if raw[0] == DYNAMIC else int(raw[0])), t


def _verify_gep(op: Operation) -> None:
    raw = op.attributes["rawConstantIndices"].values  # type: ignore[attr-defined]
    flags = op.attributes.get("noWrapFlags", ZERO_I32).value  # type: ignore[attr-defined]
    dynamic = op.operands[1:]
    if len(raw) > 1 or (len(raw) == 1 and (raw[0] == DYNAMIC) != (len(dynamic) == 1)):
        raise fail(op, "only one index (a constant or one dynamic operand) is modelled")
    if not raw and dynamic:
        raise fail(op, "expected as many dynamic indices as specified in 'rawConstantIndices'")
    if flags not in NO_WRAP:
        raise fail(op, f"noWrapFlags {flags} is not a valid combination of GEP flags")
    index_t = dynamic[0].type if dynamic else None
    want = PTR
    if isinstance(index_t, VectorType):  # a vector of indices gives a vector of pointers
        want = VectorType(index_t.shape, PTR, index_t.scalable)
        index_t = index_t.element
    if op.operands[0].type != PTR or op.results[0].type != want:
        raise fail(op, f"expects a !llvm.ptr base and a {want} result")
    if dynamic and not isinstance(index_t, IntegerType):
        raise fail(op, "the dynamic index must be an integer or a vector of integers")
    t = op.attributes["elem_type"].type  # type: ignore[attr-defined]
    if not isinstance(t, IntegerType) and str(t) not in ("f16", "bf16", "f32", "f64"):
        raise fail(op, f"element type {t} is not modelled")


def _eval_gep(ctx: EvalContext, op: Operation, base: Any, indices: list[Any]) -> Any:
    const, t = _gep_parts(op)
    size = max(1, bitwidth(elem(t)) // 8)
    if const is None and np.ndim(indices[0]):
        return np.int64(base) + np.asarray(indices[0]).astype(np.int64) * size
    index = int(indices[0]) if const is None else const
    return SP.offset(base, index, size)


def _infer_gep(op: Operation) -> list[Type]:
    index = op.operands[1].type if len(op.operands) > 1 else None
    return [VectorType(index.shape, PTR, index.scalable) if isinstance(index, VectorType) else PTR]


def _parse_flags(p: Any) -> int:
    """``[flag (`|` flag)*]``: the GEP's noWrapFlags bits."""
    flags = 0
    while word := next((w for w in _FLAG_WORDS if p.try_keyword(w[0])), None):
        flags |= word[1]
        if not p.try_punct("|"):
            break
    return flags


def _parse_gep(p: Any, st: Any) -> None:
    """``[inbounds] %base[%i | c] attr-dict : (types) -> !llvm.ptr, elem_type``."""
    flags = _parse_flags(p)
    st.operands["base"] = [p.parse_operand()]
    p.expect_punct("[")
    p.skip_ws()
    if p.peek("%"):
        st.operands["dynamicIndices"] = [p.parse_operand()]
        raw = DYNAMIC
    else:
        st.operands["dynamicIndices"] = []
        raw = p.expect_i64()
    p.expect_punct("]", "to close the getelementptr index (one index is modelled)")
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    p.expect_punct(":")
    p.skip_ws()
    pos = p.pos
    ft = p.parse_function_type()
    p.expect_punct(",", "and the element type")
    st.attrs["elem_type"] = TypeAttr(p.parse_type())
    st.attrs["rawConstantIndices"] = DenseArrayAttr("i32", (raw,))
    st.attrs["noWrapFlags"] = IntegerAttr(flags, IntegerType(32))
    inputs = list(ft.inputs)
    st.operand_types["base"] = [(pos, inputs[0])] if inputs else []
    st.operand_types["dynamicIndices"] = [(pos, t) for t in inputs[1:]]
    st.result_types["res"] = list(ft.results)


def _print_gep(pr: Any, op: Operation) -> str | None:
    if not op.attributes["rawConstantIndices"].values:  # type: ignore[attr-defined]
        return None  # no index (the base itself): MLIR prints `%p[]` but cannot read it back
    const, t = _gep_parts(op)
    flags = op.attributes.get("noWrapFlags", ZERO_I32).value  # type: ignore[attr-defined]
    base = op.operands[0]
    index = str(const) if const is not None else pr.value(op.operands[1])
    rest = pr.attr_dict(op, {"elem_type", "rawConstantIndices", "noWrapFlags"})
    ins = ", ".join(str(v.type) for v in op.operands)
    head = (NO_WRAP.get(flags, "") + " ").lstrip()
    return (
        f"{head}{pr.value(base)}[{index}]" + (f" {rest}" if rest else "")
        + f" : ({ins}) -> {op.results[0].type}, {t}"
    )  # fmt: skip


# -- masked intrinsics -------------------------------------------------------------------------
def _verify_masked(value: str, result: bool):
    def verify(op: Operation) -> None:
        v = op.results[0].type if result else op.operand(value).type
        m = op.operand("mask").type
        one_d = isinstance(v, VectorType) and v.rank == 1
        if not one_d or m != VectorType(v.shape, IntegerType(1)):
            raise fail(op, f"expects a 1-D vector and a mask of its shape, got {v} and {m}")
        pt = op.operand("pass_thru")
        if pt is not None and pt.type != v:
            raise fail(op, f"pass_thru must be {v}")

    return verify


def _verify_aligned(value: str, result: bool):
    """masked.load/store: as _verify_masked, and MLIR translates alignment 0 to 2^63, which
    LLVM rejects ("huge alignment values are unsupported"; gather/scatter take 0)."""
    check = _verify_masked(value, result)

    def verify(op: Operation) -> None:
        check(op)
        if op.attributes["alignment"].value == 0:  # type: ignore[attr-defined]
            raise fail(op, "alignment must not be 0 (LLVM: huge alignment values are unsupported)")

    return verify


def _verify_gather(value: str, result: bool):
    check = _verify_masked(value, result)

    def verify(op: Operation) -> None:
        check(op)
        v = op.results[0].type if result else op.operand(value).type
        if op.operand("ptrs").type != VectorType(v.shape, PTR):
            raise fail(op, f"expects addresses of type {VectorType(v.shape, PTR)}")

    return verify


def _load(kernel):
    return lambda ctx, op, ptr, mask, pt: kernel(ptr, mask, pt, elem(op.results[0].type))


def _store(kernel):
    return lambda ctx, op, value, ptr, mask: kernel(value, ptr, mask, elem(op.operands[0].type))


ALIGN = Attr("alignment", I32)
NONTEMPORAL = Attr("nontemporal", UNIT, optional=True)

register(
    OpSpec(
        "memref.extract_aligned_pointer_as_index",
        "The address of a memref's aligned buffer, as an index",
        operands=(Operand("source", MEMREF),),
        results=(Result("aligned_pointer", ANY),),
        traits=frozenset({PURE}),
        format="$source `:` type($source) `->` type(results) attr-dict",
        infer=lambda op: [IndexType()],
        verify=_verify_aligned_pointer,
        eval=_aligned_pointer,
    ),
    OpSpec(
        "llvm.inttoptr",
        "An integer address as a pointer",
        operands=(Operand("arg", ANY),),
        results=(Result("res", POINTER),),
        traits=frozenset({PURE}),
        format="$arg attr-dict `:` type($arg) `to` type($res)",
        infer=lambda op: [PTR],
        verify=_verify_inttoptr,
        eval=lambda ctx, op, arg: np.int64(arg),
    ),
    OpSpec(
        "llvm.getelementptr",
        "Pointer plus an element offset (one index)",
        operands=(Operand("base", POINTER), Operand("dynamicIndices", ANY, OPTIONAL)),
        results=(Result("res", POINTERS),),
        attrs=(
            Attr("elem_type", TYPE),
            Attr("noWrapFlags", I32, default=ZERO_I32),
            Attr("rawConstantIndices", I32_DENSE),
        ),
        traits=frozenset({PURE}),
        parse=_parse_gep,
        print=_print_gep,
        infer=_infer_gep,
        verify=_verify_gep,
        eval=lambda ctx, op, base, i: _eval_gep(ctx, op, base, [] if i is None else [i]),
    ),
    OpSpec(
        "llvm.intr.masked.load",
        "llvm.masked.load: the set lanes from consecutive elements, the others from pass_thru",
        operands=(Operand("data", POINTER), Operand("mask", MASK), Operand("pass_thru", FIXED_1D)),
        results=(Result("res", FIXED_1D),),
        attrs=(ALIGN, NONTEMPORAL),
        traits=frozenset({READS}),
        format="operands attr-dict `:` functional-type(operands, results)",
        infer=lambda op: [op.operand("pass_thru").type],
        verify=_verify_aligned("res", True),
        eval=_load(SP.masked_load),
    ),
    OpSpec(
        "llvm.intr.masked.store",
        "llvm.masked.store: the set lanes to consecutive elements",
        operands=(Operand("value", FIXED_1D), Operand("data", POINTER), Operand("mask", MASK)),
        attrs=(ALIGN,),
        traits=frozenset({WRITES}),
        format="$value `,` $data `,` $mask attr-dict `:` type($value) `,` type($mask) `into` "
        "type($data)",
        verify=_verify_aligned("value", False),
        eval=_store(SP.masked_store),
    ),
    OpSpec(
        "llvm.intr.masked.expandload",
        "llvm.masked.expandload: consecutive elements into the set lanes",
        operands=(Operand("ptr", POINTER), Operand("mask", MASK), Operand("pass_thru", FIXED_1D)),
        results=(Result("res", FIXED_1D),),
        traits=frozenset({READS}),
        infer=lambda op: [op.operand("pass_thru").type],
        verify=_verify_masked("res", True),
        eval=_load(SP.expand_load),
    ),
    OpSpec(
        "llvm.intr.masked.compressstore",
        "llvm.masked.compressstore: the set lanes to consecutive elements, packed",
        operands=(Operand("value", FIXED_1D), Operand("ptr", POINTER), Operand("mask", MASK)),
        traits=frozenset({WRITES}),
        verify=_verify_masked("value", False),
        eval=_store(SP.compress_store),
    ),
    OpSpec(
        "llvm.intr.masked.gather",
        "llvm.masked.gather: each set lane from its own address, the others from pass_thru",
        operands=(Operand("ptrs", POINTERS), Operand("mask", MASK), Operand("pass_thru", FIXED_1D)),
        results=(Result("res", FIXED_1D),),
        attrs=(ALIGN,),
        traits=frozenset({READS}),
        format="operands attr-dict `:` functional-type(operands, results)",
        infer=lambda op: [op.operand("pass_thru").type],
        verify=_verify_gather("res", True),
        eval=_load(SP.gather),
    ),
    OpSpec(
        "llvm.intr.masked.scatter",
        "llvm.masked.scatter: each set lane to its own address",
        operands=(Operand("value", FIXED_1D), Operand("ptrs", POINTERS), Operand("mask", MASK)),
        attrs=(ALIGN,),
        traits=frozenset({WRITES}),
        format="$value `,` $ptrs `,` $mask attr-dict `:` type($value) `,` type($mask) `into` "
        "type($ptrs)",
        verify=_verify_gather("value", False),
        eval=_store(SP.scatter),
    ),
)

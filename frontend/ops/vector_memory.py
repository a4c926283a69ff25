"""The memory ops of the ``vector`` dialect: loads, stores, masked, gathered and compressed
accesses, transfers and ``type_cast`` (the other ops are in ``frontend.ops.vector``).

Specs as in ``frontend.ops.vector``: format from the seed, type rules, numpy semantics.
"""

from __future__ import annotations

from frontend.ops.registry import register
from frontend.ops import vector_eval as ve
from frontend.ops import vector_shapes as vs
from frontend.ops import vector_verify as vv
from frontend.ops.common import cast_format
from frontend.ops.kinds import AFFINE_MAP, BOOL, BOOL_ARRAY
from frontend.ops.spec import (
    ANY,
    FIXED_VECTOR,
    INDEX,
    MASK,
    MASKABLE,
    MEMREF,
    OPTIONAL,
    PURE,
    READS,
    SHAPED,
    VARIADIC,
    VECTOR,
    WRITES,
    Attr,
    Operand,
    OpSpec,
    Result,
    TypeConstraint,
)
from frontend.ops.vector_syntax import complete_transfer, implicit_transfer
from frontend.types import TensorType

FIXED_MASK = TypeConstraint(
    "fixed-length vector of 1-bit signless integer values",
    lambda t: MASK.check(t) and FIXED_VECTOR.check(t),
)

register(
    OpSpec(
        "vector.compressstore",
        "Writes elements selectively from a vector as defined by a mask",
        operands=(
            Operand("base", MEMREF),
            Operand("indices", INDEX, VARIADIC),
            Operand("mask", FIXED_MASK),
            Operand("valueToStore", VECTOR),
        ),
        traits=frozenset({WRITES}),
        format="$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` "
        "type($base) `,` type($mask) `,` type($valueToStore)",
        verify=vv.masked_memory("valueToStore"),
        eval=ve.compressstore,
    ),
    OpSpec(
        "vector.expandload",
        "Reads elements from memory and spreads them into a vector as defined by a mask",
        operands=(
            Operand("base", MEMREF),
            Operand("indices", INDEX, VARIADIC),
            Operand("mask", FIXED_MASK),
            Operand("pass_thru", FIXED_VECTOR),
        ),
        results=(Result("result", FIXED_VECTOR),),
        traits=frozenset({READS}),
        format="$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` "
        "type($mask) `,` type($pass_thru) `into` type($result)",
        verify=vv.masked_memory("result"),
        eval=ve.expandload,
    ),
    OpSpec(
        "vector.gather",
        "Gathers elements from memory into a vector as defined by an index vector and a mask",
        operands=(
            Operand("base", SHAPED),
            Operand("indices", INDEX, VARIADIC),
            Operand("index_vec", VECTOR),
            Operand("mask", MASK),
            Operand("pass_thru", VECTOR),
        ),
        results=(Result("result", VECTOR),),
        traits=frozenset({READS, MASKABLE}),
        format="$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $pass_thru attr-dict "
        "`:` type($base) `,` type($index_vec) `,` type($mask) `,` type($pass_thru) "
        "`into` type($result)",
        verify=vv.gather_scatter("result"),
        eval=ve.gather,
    ),
    OpSpec(
        "vector.load",
        "Reads an n-D slice of memory into an n-D vector",
        operands=(Operand("base", MEMREF), Operand("indices", INDEX, VARIADIC)),
        results=(Result("result", VECTOR),),
        attrs=(Attr("nontemporal", BOOL, optional=True),),
        traits=frozenset({READS}),
        format="$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)",
        verify=vv.load_store("result"),
        eval=ve.load,
    ),
    OpSpec(
        "vector.maskedload",
        "Loads elements from memory into a vector as defined by a mask vector",
        operands=(
            Operand("base", MEMREF),
            Operand("indices", INDEX, VARIADIC),
            Operand("mask", MASK),
            Operand("pass_thru", VECTOR),
        ),
        results=(Result("result", VECTOR),),
        traits=frozenset({READS}),
        format="$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` "
        "type($mask) `,` type($pass_thru) `into` type($result)",
        verify=vv.masked_memory("result"),
        eval=ve.maskedload,
    ),
    OpSpec(
        "vector.maskedstore",
        "Stores elements from a vector into memory as defined by a mask vector",
        operands=(
            Operand("base", MEMREF),
            Operand("indices", INDEX, VARIADIC),
            Operand("mask", MASK),
            Operand("valueToStore", VECTOR),
        ),
        traits=frozenset({WRITES}),
        format="$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` "
        "type($base) `,` type($mask) `,` type($valueToStore)",
        verify=vv.masked_memory("valueToStore"),
        eval=ve.maskedstore,
    ),
    OpSpec(
        "vector.scatter",
        "Scatters elements from a vector into memory as defined by an index vector and a mask",
        operands=(
            Operand("base", MEMREF),
            Operand("indices", INDEX, VARIADIC),
            Operand("index_vec", VECTOR),
            Operand("mask", MASK),
            Operand("valueToStore", VECTOR),
        ),
        traits=frozenset({WRITES}),
        format="$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $valueToStore attr-dict "
        "`:` type($base) `,` type($index_vec) `,` type($mask) `,` type($valueToStore)",
        verify=vv.gather_scatter("valueToStore"),
        eval=ve.scatter,
    ),
    OpSpec(
        "vector.store",
        "Writes an n-D vector to an n-D slice of memory",
        operands=(
            Operand("valueToStore", VECTOR),
            Operand("base", MEMREF),
            Operand("indices", INDEX, VARIADIC),
        ),
        attrs=(Attr("nontemporal", BOOL, optional=True),),
        traits=frozenset({WRITES}),
        format="$valueToStore `,` $base `[` $indices `]` attr-dict `:` type($base) `,` "
        "type($valueToStore)",
        verify=vv.load_store("valueToStore"),
        eval=ve.store,
    ),
    OpSpec(
        "vector.transfer_read",
        "Reads a supervector from memory into an SSA vector value",
        operands=(
            Operand("source", SHAPED),
            Operand("indices", INDEX, VARIADIC),
            Operand("padding", ANY),
            Operand("mask", MASK, OPTIONAL),
        ),
        results=(Result("vector", VECTOR),),
        attrs=(Attr("permutation_map", AFFINE_MAP), Attr("in_bounds", BOOL_ARRAY)),
        traits=frozenset({READS, MASKABLE}),
        format="$source `[` $indices `]` `,` $padding (`,` $mask^)? attr-dict `:` "
        "type($source) `,` type($vector)",
        complete=complete_transfer,
        implicit=implicit_transfer,
        verify=vv.transfer,
        mask_type=vs.transfer_mask,
        eval=ve.transfer_read,
    ),
    OpSpec(
        "vector.transfer_write",
        "The vector.transfer_write op writes a supervector to memory",
        operands=(
            Operand("vector", VECTOR),
            Operand("source", SHAPED),
            Operand("indices", INDEX, VARIADIC),
            Operand("mask", MASK, OPTIONAL),
        ),
        results=(Result("result", ANY, OPTIONAL),),
        attrs=(Attr("permutation_map", AFFINE_MAP), Attr("in_bounds", BOOL_ARRAY)),
        traits=frozenset({WRITES, MASKABLE}),
        format="$vector `,` $source `[` $indices `]` (`,` $mask^)? attr-dict `:` "
        "type($vector) `,` type($source)",
        infer=lambda op: [t] if isinstance(t := op.operand("source").type, TensorType) else [],
        complete=complete_transfer,
        implicit=implicit_transfer,
        verify=vv.transfer,
        mask_type=vs.transfer_mask,
        eval=ve.transfer_write,
    ),
    OpSpec(
        "vector.type_cast",
        "Type_cast op converts a scalar memref to a vector memref",
        operands=(Operand("memref", MEMREF),),
        results=(Result("result", MEMREF),),
        traits=frozenset({PURE}),
        format=cast_format("memref", "result"),
        verify=vv.type_cast,
        eval=ve.type_cast,
    ),
)

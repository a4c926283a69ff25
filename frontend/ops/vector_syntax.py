"""Custom syntax of the vector ops whose format ODS cannot express (contract, mask) and the
type-dependent implicit attributes of the transfer ops."""

from __future__ import annotations

from typing import Any

from frontend.affine import AffineMap
from frontend.attributes import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DictAttr,
    EnumAttr,
    StringAttr,
    format_entry,
)
from frontend.ir import Block, Operation
from frontend.types import VectorType


# -- vector.contract ------------------------------------------------------------------------
def parse_contract(p: Any, st: Any) -> None:
    """``vector.contract {trait} %lhs, %rhs, %acc attr-dict : Tl, Tr into Tacc``."""
    start = p.pos
    trait = p.parse_attribute("contraction trait dictionary")
    if not isinstance(trait, DictAttr):
        raise p.error("expected a trait dictionary {indexing_maps = ..., iterator_types = ...}",
                      start)
    for key, value in trait.entries:
        if key == "iterator_types" and isinstance(value, ArrayAttr):
            value = ArrayAttr(tuple(_iterator(p, v, start) for v in value.values))
        st.attrs[key] = value
    for key in ("indexing_maps", "iterator_types"):
        if key not in st.attrs:
            raise p.error(f"the contraction trait needs '{key}'", start)
    st.operands["lhs"] = [p.parse_operand()]
    p.expect_punct(",")
    st.operands["rhs"] = [p.parse_operand()]
    p.expect_punct(",")
    st.operands["acc"] = [p.parse_operand()]
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    p.expect_punct(":", "before the contraction types")
    p.skip_ws()
    st.operand_types["lhs"] = [(p.pos, p.parse_type())]
    p.expect_punct(",")
    p.skip_ws()
    st.operand_types["rhs"] = [(p.pos, p.parse_type())]
    p.expect_keyword("into", "and the accumulator type")
    p.skip_ws()
    acc_pos = p.pos
    acc = p.parse_type()
    st.operand_types["acc"] = [(acc_pos, acc)]
    st.result_types["result"] = [acc]


def _iterator(p: Any, v: Any, pos: int) -> EnumAttr:
    if isinstance(v, StringAttr) and v.value in ("parallel", "reduction"):
        return EnumAttr("vector.iterator_type", v.value)
    if isinstance(v, EnumAttr) and v.mnemonic == "vector.iterator_type":
        return v
    raise p.error("iterator_types must be \"parallel\" or \"reduction\"", pos)


_TRAIT = ("indexing_maps", "iterator_types", "kind")


def print_contract(pr: Any, op: Operation) -> str:
    entries = []
    for key in _TRAIT:
        value = op.attributes.get(key)
        if value is None:
            continue
        if key == "iterator_types":
            value = ArrayAttr(tuple(StringAttr(v.value) for v in value.values))
        entries.append(format_entry(key, value))
    rest = pr.attr_dict(op, set(_TRAIT))
    lhs, rhs, acc = op.operands
    return (
        "{" + ", ".join(entries) + "} "
        + f"{pr.value(lhs)}, {pr.value(rhs)}, {pr.value(acc)}"
        + (f" {rest}" if rest else "")
        + f" : {lhs.type}, {rhs.type} into {op.result_types[0]}"
    )


# -- vector.mask ----------------------------------------------------------------------------
def parse_mask(p: Any, st: Any) -> None:
    """``vector.mask %m[, %passthru] { maskable op } : mask type [-> result types]``."""
    st.operands["mask"] = [p.parse_operand()]
    st.operands["passthru"] = []
    if p.try_punct(","):
        st.operands["passthru"] = [p.parse_operand()]
    region = p.parse_region()
    st.regions.append(region)
    if st.attrs is not None and p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    p.expect_punct(":", "and the mask type")
    p.skip_ws()
    st.operand_types["mask"] = [(p.pos, p.parse_type())]
    st.all_result_types = p.parse_result_types() if p.try_punct("->") else []
    if not region.blocks:
        region.append(Block())
    block = region.blocks[0]
    last = block.ops[-1] if block.ops else None
    if last is None or last.name != "vector.yield":
        results = list(last.results) if last is not None else []
        block.append(Operation("vector.yield", results, [], {}, [], st and p_loc(p, st)))


def p_loc(p: Any, st: Any) -> Any:
    from frontend.errors import locate

    return locate(p.file, p.text, st.start)


def print_mask(pr: Any, op: Operation) -> str:
    operands = ", ".join(pr.value(v) for v in op.operands)
    block = op.regions[0].blocks[0] if op.regions[0].blocks else None
    body = "{ }"
    if block is not None:
        ops = block.ops
        if (
            len(ops) >= 2
            and ops[-1].name == "vector.yield"
            and [id(v) for v in ops[-1].operands] == [id(v) for v in ops[-2].results]
        ):
            ops = ops[:-1]
        saved, pr.indent = pr.indent, 0
        inner = [pr.op(o) for o in ops]
        pr.indent = saved
        body = "{ " + "; ".join(inner) + " }" if len(inner) == 1 else pr.region(op.regions[0])
    rest = pr.attr_dict(op, set())
    results = op.result_types
    tail = f" -> {', '.join(map(str, results))}" if len(results) == 1 else (
        f" -> ({', '.join(map(str, results))})" if results else ""
    )
    mask_t = op.operands[0].type
    return f"{operands} {body}" + (f" {rest}" if rest else "") + f" : {mask_t}{tail}"


# -- transfer ops ---------------------------------------------------------------------------
def _transfer_types(op: Operation) -> tuple[Any, VectorType]:
    if op.name == "vector.transfer_read":
        return op.operand("source").type, op.results[0].type
    return op.operand("source").type, op.operand("vector").type


def _default_map(op: Operation) -> AffineMap | None:
    shaped, vec = _transfer_types(op)
    if not isinstance(vec, VectorType) or not hasattr(shaped, "rank"):
        return None
    elem = shaped.element
    elem_rank = elem.rank if isinstance(elem, VectorType) else 0
    if shaped.rank < vec.rank - elem_rank:
        return None
    return AffineMap.minor_identity(shaped.rank, vec.rank - elem_rank)


def complete_transfer(op: Operation) -> None:
    """MLIR's parser fills the minor-identity map and all-false ``in_bounds``."""
    if "permutation_map" not in op.attributes:
        m = _default_map(op)
        if m is not None:
            op.attributes["permutation_map"] = AffineMapAttr(m)
    pm = op.attributes.get("permutation_map")
    if "in_bounds" not in op.attributes and isinstance(pm, AffineMapAttr):
        op.attributes["in_bounds"] = ArrayAttr(
            tuple(BoolAttr(False) for _ in pm.map.results)
        )


def implicit_transfer(op: Operation) -> set[str]:
    out = set()
    pm = op.attributes.get("permutation_map")
    if isinstance(pm, AffineMapAttr) and pm.map == _default_map(op):
        out.add("permutation_map")
    ib = op.attributes.get("in_bounds")
    if isinstance(ib, ArrayAttr) and not any(v.value for v in ib.values):  # type: ignore
        out.add("in_bounds")
    return out

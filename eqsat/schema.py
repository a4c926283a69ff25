"""The e-graph schema, generated from the op table: the vocabulary rule files are written in.

Every op of ``frontend.ops`` becomes one egglog constructor. Its arguments are, in order:
the result ``Type`` (so rules can see shapes), the operands (``Term``, or ``TermList`` for
variadic and optional groups), the attributes (encoded by kind, see ``ATTR_SORTS``), then the
state token(s) its effects thread. Ops with regions, calls and anything we do not model
become opaque ``Barrier`` nodes whose bodies are optimized on their own.

``eqsat schema`` prints the generated text with a comment per constructor: it is the
reference for rule authors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from frontend.ops import all_specs
from frontend.ops import kinds as K
from frontend.ops.spec import (
    OPTIONAL,
    PRINTS,
    PURE,
    READS,
    SINGLE,
    TERMINATOR,
    WRITES,
    AttrKind,
    OpSpec,
)

# How each attribute kind is stored in a term. Anything not listed is kept as its MLIR text
# (a String), which rules can still compare for equality.
ATTR_SORTS: dict[int, str] = {
    id(K.I64_LIST): "IVec",
    id(K.I64_ARRAY): "IVec",
    id(K.I64): "i64",
    id(K.I32): "i64",
    id(K.BOOL): "i64",
    id(K.BOOL_ARRAY): "IVec",
    id(K.ITERATOR_ARRAY): "IVec",
    id(K.AFFINE_MAP): "Map",
    id(K.MAP_ARRAY): "MapList",
    id(K.COMBINING_KIND): "String",
    id(K.PUNCTUATION): "String",
    id(K.FASTMATH): "String",
    id(K.OVERFLOW): "String",
}


def attr_sort(kind: AttrKind) -> str:
    if kind.description == "comparison predicate":
        return "i64"
    return ATTR_SORTS.get(id(kind), "String")


# Effect classes: what state a constructor consumes and what sort it yields.
PURE_OP, READ_OP, WRITE_OP, PRINT_OP, ALLOC_OP, BARRIER_OP = (
    "pure",
    "read",
    "write",
    "print",
    "alloc",
    "barrier",
)


def effect_class(spec: OpSpec) -> str:
    """How an op is threaded through the e-graph (see module docstring)."""
    if spec.regions or spec.name == "func.call":
        return BARRIER_OP
    if spec.has(PRINTS):
        return PRINT_OP
    if spec.name in ("memref.alloc", "memref.alloca"):
        return ALLOC_OP
    if spec.has(WRITES):
        # A write whose only result is optional (transfer_write: a tensor result, none on a
        # memref) is a write; the encoder keeps the tensor form a barrier.
        return WRITE_OP if all(r.kind == OPTIONAL for r in spec.results) else BARRIER_OP
    if spec.has(READS):
        return READ_OP
    if spec.has(PURE):
        return PURE_OP
    return BARRIER_OP


def constructor_name(op_name: str) -> str:
    """``vector.transpose`` -> ``Transpose``; other dialects keep their prefix:
    ``arith.addf`` -> ``ArithAddf``, ``vector.scalable.extract`` -> ``ScalableExtract``,
    ``arm_neon.intr.sdot`` -> ``ArmNeonIntrSdot``."""
    dialect, _, rest = op_name.partition(".")
    camel = "".join(p[:1].upper() + p[1:] for p in re.split(r"[._]", rest))
    prefix = "".join(p.capitalize() for p in dialect.split("_"))  # arm_neon -> ArmNeon
    return camel if dialect == "vector" else prefix + camel


@dataclass(frozen=True)
class Arg:
    """One argument of a constructor: where it comes from and its egglog sort."""

    role: str  # "type" | "operand" | "attr" | "state" | "id"
    name: str
    sort: str
    kind: str = SINGLE  # operand kind, or "optional" for optional attributes


@dataclass(frozen=True)
class Constructor:
    name: str
    op: str  # MLIR op name
    effect: str
    args: tuple[Arg, ...]
    sort: str  # the sort it yields: Term, Multi or State
    summary: str

    def signature(self) -> str:
        return f"({self.name} {' '.join(a.sort for a in self.args)})".replace(" )", ")")


def _constructor(spec: OpSpec) -> Constructor | None:
    effect = effect_class(spec)
    if effect == BARRIER_OP or spec.has(TERMINATOR) or spec.name == "builtin.module":
        return None
    if spec.name in ("func.func", "memref.global"):
        return None
    args: list[Arg] = []
    nres = len(spec.results)
    multi = nres > 1 or any(r.kind != SINGLE for r in spec.results)
    if multi and spec.infer is None:  # its result types would be lost: kept as it is
        return None
    if nres == 1 and not multi:
        args.append(Arg("type", "type", "Type"))
    if effect == ALLOC_OP:
        args.append(Arg("id", "id", "i64"))
    for o in spec.operands:
        args.append(Arg("operand", o.name, "Term" if o.kind == SINGLE else "TermList", o.kind))
    for a in spec.attrs:
        sort = attr_sort(a.kind)
        optional = a.optional and a.default is None
        args.append(
            Arg("attr", a.name, "String" if optional else sort, OPTIONAL if optional else SINGLE)
        )
    if effect in (READ_OP, WRITE_OP):
        args.append(Arg("state", "mem", "State"))
    if effect == PRINT_OP:
        args.append(Arg("state", "io", "State"))
    sort = "State" if effect in (WRITE_OP, PRINT_OP) else ("Multi" if multi else "Term")
    if nres == 0 and effect == PURE_OP:
        return None
    return Constructor(
        constructor_name(spec.name), spec.name, effect, tuple(args), sort, spec.summary
    )


@cache
def constructors() -> dict[str, Constructor]:
    """Constructor by MLIR op name, for every op the e-graph models directly."""
    out = {}
    for name, spec in sorted(all_specs().items()):
        c = _constructor(spec)
        if c is not None:
            out[name] = c
    return out


@cache
def by_constructor() -> dict[str, Constructor]:
    return {c.name: c for c in constructors().values()}


PRELUDE = """\
; ---- sorts ---------------------------------------------------------------------------------
(sort IVec (Vec i64))          ; shapes, permutations, positions, static index lists
(sort MapList (Vec IVec))      ; contract indexing maps: result positions of each map
(sort IFn (UnstableFn (i64) i64))  ; (unstable-fn "vec-get" p): a permutation as a function

; A type: fixed-shape vectors expose shape and element type; every other type is its text.
(datatype Type
  (VT IVec String)             ; (VT (vec-of 4 8) "f32")  =  vector<4x8xf32>
  (TT String))                 ; (TT "memref<8xf32>"), (TT "f32"), scalable vectors, ...

; A projected permutation map (transfer ops): number of dims and, per result, the dim it
; reads or -1 for a constant 0 (a broadcast).
(datatype Map (PMap i64 IVec))

; Leaves are numbered by block, so that the blocks of one program share one e-graph.
(datatype Term
  (Arg i64 i64 Type)           ; (Arg block i type): block argument #i
  (Outer i64 i64 Type))        ; (Outer block k type): value #k captured from outside the block
(datatype TermList (TNil) (TCons Term TermList))
(datatype State
  (StInit i64 String))         ; (StInit block "mem"|"io"): memory and stdout, threaded apart
(datatype Multi)               ; an op with several results; see Res
(constructor Res (Multi i64 Type) Term)     ; result #i of a Multi
(constructor MemOut (Multi) State)          ; memory state after a barrier
(constructor IOOut (Multi) State)           ; stdout state after a barrier
; An op we do not rewrite (regions, calls): id into the side table, its inputs and states.
(constructor Barrier (i64 TermList State State) Multi)
; The block's exit: the terminator's operands and the final states.
(datatype Root (Exit TermList State State))

; Rule helper: element #i of a list (decodes to that element; rules reduce it away).
(constructor ListAt (TermList i64) Term)

; ---- unrolling to native tiles, symbolically: one node stands for every tile ----------------
; The target (or --native) sets, for each vector type it would split, the tile shape (one
; hardware vector) and how many tiles cover the type.
(function NativeTile (Type) IVec :merge old)
(function TileCount (Type) i64 :merge old)
; (Tiled t count tile kernel srcs): the value of type t computed tile by tile; kernel computes
; one tile from (TileOf tile x) leaves, "the current tile of x", for the x listed in srcs.
; Cost: count x kernel + srcs (each source is computed once, whole).
(constructor TileOf (IVec Term) Term)
; (TileAt tile dims x): a tile of x whose offset in dim d comes from grid dim dims[d] (-1: 0).
; A contraction tiled over its result grid reads whole rows of lhs and columns of rhs.
(constructor TileAt (IVec IVec Term) Term)
(constructor Tiled (Type i64 IVec Term TermList) Term)

; ---- vector.mask around one op: (Masked type mask passthru inner id operands) is
; `vector.mask mask, passthru { inner }`, inner the op's own term (it decodes inside the mask's
; region). When extraction picks a lowering strategy for inner (several ops, which a mask body
; cannot hold), the original op (side table entry id) is emitted on the decoded operands.
(constructor Masked (Type Term TermList Term i64 TermList) Term)
"""


@cache
def schema_text() -> str:
    """The whole schema: prelude, one constructor per op, strategy macros, helpers."""
    from eqsat.strategies import STRATEGIES

    lines = [PRELUDE, binding_tables()]
    lines.append("; ---- ops, generated from the op table (frontend/ops) -------------------------")
    for c in constructors().values():
        arg_doc = " ".join(f"{a.name}:{a.sort}" for a in c.args)
        lines.append(f"; {c.op}: {c.summary or c.op}  [{c.effect}]  {arg_doc}")
        lines.append(f"(constructor {c.name} ({' '.join(a.sort for a in c.args)}) {c.sort})")
    lines.append("")
    lines.append(
        "; ---- lowering strategies: equal alternatives, expanded by eqsat.strategies ----"
    )
    for s in STRATEGIES.values():
        lines.append(f"; {s.name}: {s.doc}")
        lines.append(f"(constructor {s.name} ({' '.join(s.sorts)}) {s.sort})")
    lines.append("")
    lines.append(HELPERS)
    lines.append(neutral_facts())
    lines.append(typing_rules())
    return "\n".join(lines) + "\n"


def binding_tables() -> str:
    """The tables the encoder names a block's values in (``eqsat.egraph.BINDING_TABLES``):
    ``(BoundTerm block n)`` is op #n's value. Why not a ``let`` per op: egglog makes a table of
    each, and its saturation and teardown grow with the number of tables (a window of 4,096
    ops saturated in half the time with these)."""
    from eqsat.egraph import BINDING_TABLES

    out = ["; ---- the encoder's names of each block's values (eqsat.encode) ---------------"]
    for sort, table in BINDING_TABLES.items():
        out.append(f"(function {table} (i64 i64) {sort} :no-merge)")
    return "\n".join(out) + "\n"


def typing_rules() -> str:
    """``(type-of e)`` for every term: rules that need an operand's shape read it here."""
    out = [
        "; ---- typing: (type-of x) is the type of any Term ----------------------------------------",
        "(ruleset typing)",
        '(rule ((= e (Arg b i t))) ((set (type-of e) t)) :ruleset typing :name "type-of-Arg")',
        '(rule ((= e (Outer b k t))) ((set (type-of e) t)) :ruleset typing :name "type-of-Outer")',
        '(rule ((= e (Res m i t))) ((set (type-of e) t)) :ruleset typing :name "type-of-Res")',
        "(rule ((= e (Tiled t n tile k s))) ((set (type-of e) t)) :ruleset typing "
        ':name "type-of-Tiled")',
        "(rule ((= e (Masked t m p x i o))) ((set (type-of e) t)) :ruleset typing "
        ':name "type-of-Masked")',
        "(rule ((= e (TileOf tile x)) (= (VT sh el) (type-of x))) ((set (type-of e) (VT tile el)))"
        ' :ruleset typing :name "type-of-TileOf")',
        "(rule ((= e (TileAt tile dims x)) (= (VT sh el) (type-of x))) "
        '((set (type-of e) (VT tile el))) :ruleset typing :name "type-of-TileAt")',
    ]
    from eqsat.strategies import STRATEGIES

    typed = [
        (c.name, len(c.args))
        for c in constructors().values()
        if c.args and c.args[0].role == "type" and c.sort == "Term"
    ]
    typed += [(s.name, len(s.sorts)) for s in STRATEGIES.values() if s.sorts[:1] == ("Type",)]
    for name, n in typed:
        rest = " ".join(f"a{i}" for i in range(1, n))
        out.append(
            f"(rule ((= e ({name} t {rest}))) ((set (type-of e) t)) :ruleset typing "
            f':name "type-of-{name}")'
        )
    return "\n".join(out) + "\n"


# Element types whose neutral elements rules can name (see neutral_facts).
NEUTRAL_ELEMENTS = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")


def neutral_facts() -> str:
    """``(neutral-lit kind elem)``: the ``arith.constant`` value text (as the encoder writes
    it) of the combining kind's identity element on ``elem``, from frontend.semantics
    (``neutral``), for every kind defined on it: masked reductions and contractions give
    masked-off lanes this value (rules/canonicalize/mask.egg)."""
    from frontend import semantics as S
    from frontend.builder import typed_attr

    out = [
        "; ---- identity elements of the combining kinds (frontend/semantics_vector.py neutral)",
        "(function neutral-lit (String String) String :merge old)",
    ]
    for e in NEUTRAL_ELEMENTS:
        for kind in S.FLOAT_KINDS if S.is_float(e) else S.INT_KINDS:
            v = S.neutral(kind, e)
            text = str(typed_attr(v.item() if hasattr(v, "item") else v, e))
            out.append(f'(set (neutral-lit "{kind}" "{e}") "{text}")')  # no quotes to escape
    return "\n".join(out) + "\n"


HELPERS = """\
; ---- analyses available to rules ---------------------------------------------------------------
(function type-of (Term) Type :merge old)
; The product of a shape's sizes.
(function num-elems (IVec) i64 :merge old)
; NativeWidth elem -> lanes of one hardware vector of that element type (set by a target).
(function NativeWidth (String) i64 :merge old)
"""

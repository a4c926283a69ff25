"""``OpSpec``: the one description of an op that every stage reads.

Like an ODS record in MLIR, a spec names the op's operands, results, attributes and regions
with their constraints, its assembly format, its result-type rule, its verifier and its numpy
semantics. The parser and printer interpret ``format``; the verifier checks the declared
constraints and then calls ``verify``; the interpreter calls ``eval``; the e-graph schema is
generated from the operand and attribute lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from frontend.attributes import Attribute, DenseArrayAttr
from frontend.errors import MLIRError
from frontend.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    Type,
    VectorType,
)

if TYPE_CHECKING:
    from frontend.ir import Operation, Value

SINGLE, OPTIONAL, VARIADIC = "single", "optional", "variadic"

# Traits: what rewriting and effect analysis may assume.
PURE = "pure"  # no memory effect: may be reordered, merged, removed when unused
ELEMENTWISE = "elementwise"  # applies lane by lane; commutes with shape-only ops
TERMINATOR = "terminator"
READS = "reads"  # reads memory
WRITES = "writes"  # writes memory
PRINTS = "prints"  # writes stdout
MASKABLE = "maskable"  # may sit inside vector.mask
ISOLATED = "isolated"  # regions do not see outer values (func.func)
SYMBOL = "symbol"  # defines a symbol (func.func, memref.global)
COMMUTATIVE = "commutative"
VERBATIM = "verbatim"  # kept as written: printed in its own form even in generic mode
UNDEFINED = "undefined"  # the result has no defined content (ub.poison): any value will do
SELECTS = "selects"  # elementwise, but each result lane copies one operand lane (arith.select)
FREES = "frees"  # ends its memref operand's buffer (memref.dealloc); a later access is a fault
# Its rules (the declared constraints and its ``verify``) read only its attributes and the
# types of its operands and results, and it has no regions: ``frontend.verifier`` verifies
# each signature once (a test reads what each such ``verify`` touches).
LOCAL = "local"

DYNAMIC_INDEX = -(2**63)  # MLIR's ShapedType::kDynamic marker inside static index lists


@dataclass(frozen=True, slots=True)
class TypeConstraint:
    """A named predicate on types, with the phrase used in error messages."""

    description: str
    check: Callable[[Type], bool]

    def __or__(self, other: TypeConstraint) -> TypeConstraint:
        return TypeConstraint(
            f"{self.description} or {other.description}",
            lambda t: self.check(t) or other.check(t),
        )


_I1 = IntegerType(1)


def _is_int(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.signedness == "signless"


ANY = TypeConstraint("any type", lambda t: True)
INDEX = TypeConstraint("index", lambda t: isinstance(t, IndexType))
SIGNLESS_INT = TypeConstraint("signless integer", _is_int)
FLOAT = TypeConstraint("floating-point", lambda t: isinstance(t, FloatType))
INT_OR_INDEX = TypeConstraint(
    "signless integer or index", lambda t: _is_int(t) or isinstance(t, IndexType)
)
I1 = TypeConstraint("i1", lambda t: t == _I1)
VECTOR = TypeConstraint("vector", lambda t: isinstance(t, VectorType))
MEMREF = TypeConstraint("memref", lambda t: isinstance(t, MemRefType))
SHAPED = TypeConstraint("memref or ranked tensor", lambda t: isinstance(t, (MemRefType, TensorType)))
MASK = TypeConstraint(
    "vector of i1", lambda t: isinstance(t, VectorType) and t.element == _I1
)
FIXED_VECTOR = TypeConstraint(
    "fixed-length vector", lambda t: isinstance(t, VectorType) and not t.is_scalable
)


def like(scalar: TypeConstraint) -> TypeConstraint:
    """``scalar`` or a vector (or tensor) of it: the operand shape of arith/math ops."""
    check = scalar.check
    return TypeConstraint(
        f"{scalar.description}-like",
        lambda t: check(t) or (isinstance(t, (VectorType, TensorType)) and check(t.element)),
    )


def vector_of(scalar: TypeConstraint) -> TypeConstraint:
    return TypeConstraint(
        f"vector of {scalar.description}",
        lambda t: isinstance(t, VectorType) and scalar.check(t.element),
    )


@dataclass(frozen=True, slots=True)
class Operand:
    name: str
    constraint: TypeConstraint = ANY
    kind: str = SINGLE


@dataclass(frozen=True, slots=True)
class Result:
    name: str
    constraint: TypeConstraint = ANY
    kind: str = SINGLE


@dataclass(frozen=True, slots=True)
class AttrKind:
    """How one attribute is spelled inside a custom assembly format, and what it may hold.

    ``parse(p)`` reads the custom spelling, ``show(a)`` writes it, ``check(a)`` validates
    an attribute from any source (generic form, builder). ``build(x)`` makes the attribute
    from a plain Python value (ODS's ``constBuilderCall``), for the builder API and for
    older generic spellings (an ``ArrayAttr`` of i64 where MLIR 22 has a dense array).
    """

    description: str
    check: Callable[[Attribute], bool]
    parse: Callable[[Any], Attribute] | None = None
    show: Callable[[Attribute], str] | None = None
    enum: str | None = None  # the mnemonic of an enum kind (``vector.kind``)
    build: Callable[[Any], Attribute] | None = None
    # A regular expression covering the custom spelling (no nesting), for the parser's fast
    # path (``frontend.fastpath``); ``parse`` still reads the text it matched.
    pattern: str | None = None

    def convert(self, value: Any) -> Attribute:
        """``value`` as an attribute of this kind; ValueError when it cannot be one."""
        if isinstance(value, Attribute) and self.check(value):
            return value
        a = value
        if self.build is not None:
            try:
                a = self.build(value)
            except (TypeError, ValueError, KeyError, AttributeError) as e:
                raise ValueError(f"{value!r} is not a valid {self.description}: {e}") from None
        if not isinstance(a, Attribute) or not self.check(a):
            raise ValueError(f"{value!r} is not a valid {self.description}")
        return a

    def try_parse(self, p: Any) -> Attribute | None:
        """Parse the custom spelling if it is present at the cursor (for optional groups)."""
        save = p.pos
        if self.parse is None:
            a = p.try_attribute()
            return a if a is not None and self.check(a) else _reset(p, save)
        try:
            return self.parse(p)
        except MLIRError:
            p.pos = save
            return None


def _reset(p: Any, pos: int) -> None:
    p.pos = pos
    return None


@dataclass(frozen=True, slots=True)
class Attr:
    name: str
    kind: AttrKind
    optional: bool = False
    default: Attribute | None = None
    # MLIR releases up to this one store the attribute as an ArrayAttr of i64 rather than a
    # dense i64 array (shuffle mask, ...): the generic form printed for them must say so.
    array_until: int = 0
    # The default is the custom form's only: a generic form must spell the attribute out (a
    # required property whose custom parser fills it in, as ``op_bundle_sizes``).
    custom_default: bool = False


@dataclass(slots=True)
class OpSpec:
    """One op of one dialect: its signature, syntax, type rules and semantics."""

    name: str
    summary: str = ""
    operands: tuple[Operand, ...] = ()
    results: tuple[Result, ...] = ()
    attrs: tuple[Attr, ...] = ()
    regions: tuple[str, ...] = ()
    traits: frozenset[str] = frozenset()
    format: str | None = None  # ODS-style assembly format, interpreted by frontend.format
    parse: Callable[..., Any] | None = None  # custom parser: (parser, state) -> None
    print: Callable[..., str] | None = None  # custom printer: (printer, op) -> str
    infer: Callable[..., list[Type]] | None = None  # result types from operand types + attrs
    # A generic form's result types must equal ``infer``'s exactly; False: scalable flags may
    # differ (MLIR ops without type inference whose verifier compares dim sizes only).
    infer_scalable: bool = True
    verify: Callable[[Operation], None] | None = None  # raises VerifyError via op_error
    # numpy semantics: ``eval(ctx, op, *operands)``, one argument per declared operand (single:
    # the value, optional: the value or None, variadic: a list). ``ctx`` is the interpreter
    # (``frontend.ops.runtime.EvalContext``: vscale, out, mask, run_region, invoke,
    # global_memref, static). Returns the result value when the spec declares exactly one
    # non-variadic result (None if an optional one is absent), else a sequence of all result
    # values (None or [] for none); terminators return the values they pass to the parent.
    # Faults (out-of-bounds access, division by zero, ...) raise SemanticsError; the
    # interpreter turns them into a RuntimeFault at the op's location.
    eval: Callable[..., Any] | None = None
    # Attributes whose implied value depends on types (transfer maps): filled after parsing,
    # and left out of the custom form while they still hold the implied value.
    complete: Callable[[Operation], None] | None = None
    implicit: Callable[[Operation], set[str]] | None = None
    # The mask a `vector.mask` around this op must have (MaskableOpInterface); maskable ops
    # without one take a mask of their result's shape.
    mask_type: Callable[[Operation], Type] | None = None
    since: int = 0  # MLIR versions: removed in MLIR 22 ops carry until=21
    until: int = 99
    # Declarative formats for the common spellings of an op with a custom parser, for the
    # parser's fast path (``frontend.fastpath``) only: ``parse`` stays the definition of the
    # syntax, and each of these must build the op it builds from the same text.
    fast_formats: tuple[str, ...] = ()
    compiled_format: Any = field(default=None, repr=False)
    # Derived from the fields above once, for the lookups the parser and verifier do per op.
    roles: dict[str, str] = field(init=False, repr=False, compare=False)
    operand_kinds: dict[str, str] = field(init=False, repr=False, compare=False)
    result_kinds: dict[str, str] = field(init=False, repr=False, compare=False)
    attr_index: dict[str, Attr] = field(init=False, repr=False, compare=False)
    defaults: tuple[tuple[str, Attribute], ...] = field(init=False, repr=False, compare=False)
    segmented: bool = field(init=False, repr=False, compare=False)
    single_operands: int = field(init=False, repr=False, compare=False)
    single_results: int = field(init=False, repr=False, compare=False)
    positions: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.operand_kinds = {o.name: o.kind for o in self.operands}
        self.result_kinds = {r.name: r.kind for r in self.results}
        self.attr_index = {a.name: a for a in self.attrs}
        # A name in the format is an operand before a result before a region before an attr.
        self.roles = {a.name: "attr" for a in self.attrs}
        self.roles.update({name: "region" for name in self.regions})
        self.roles.update({name: "result" for name in self.result_kinds})
        self.roles.update({name: "operand" for name in self.operand_kinds})
        self.defaults = tuple((a.name, a.default) for a in self.attrs if a.default is not None)
        self.segmented = sum(o.kind != SINGLE for o in self.operands) > 1
        self.single_operands = sum(o.kind == SINGLE for o in self.operands)
        self.single_results = sum(r.kind == SINGLE for r in self.results)
        # Single operands before the (at most one) flexible group sit at a fixed index, those
        # after it at a fixed distance from the end (negative index).
        self.positions = {}
        if not self.segmented:
            n = len(self.operands)
            flexible = next((i for i, o in enumerate(self.operands) if o.kind != SINGLE), n)
            for i, o in enumerate(self.operands):
                if i < flexible:
                    self.positions[o.name] = i
                elif i > flexible:
                    self.positions[o.name] = i - n

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def mnemonic(self) -> str:
        return self.name.split(".", 1)[1]

    def has(self, trait: str) -> bool:
        return trait in self.traits

    def touches_elements(self, op: Operation) -> bool:
        """Does op read or write the elements of its memref operands (where a freed buffer
        is a use after free)? READS or WRITES ops, but not views (READS with a memref result
        make only a descriptor) and not FREES (memref.dealloc checks its operand itself)."""
        if FREES in self.traits:
            return False
        if WRITES in self.traits:
            return True
        return READS in self.traits and not any(isinstance(r.type, MemRefType) for r in op.results)

    def attr_def(self, name: str) -> Attr | None:
        return self.attr_index.get(name)

    def needs_segments(self) -> bool:
        """More than one optional/variadic operand group: MLIR stores explicit sizes."""
        return self.segmented

    def operand_span(self, op: Operation, name: str) -> tuple[int, int]:
        """Where group ``name`` sits in ``op.operands``: (first index, size); (0, 0) if absent."""
        if not self.segmented:
            pos = self.positions.get(name)
            if pos is not None:  # a single operand at a fixed place, counted from either end
                start = pos if pos >= 0 else len(op.operands) + pos
                return (start, 1) if 0 <= start < len(op.operands) else (0, 0)
        start = 0
        for o, size in zip(self.operands, self.segment_sizes(op)):
            if o.name == name:
                return start, size
            start += size
        return 0, 0

    def group_operands(self, op: Operation) -> dict[str, list[Value]]:
        sizes = self.segment_sizes(op)
        out: dict[str, list[Value]] = {}
        i = 0
        for o, n in zip(self.operands, sizes):
            out[o.name] = op.operands[i : i + n]
            i += n
        return out

    def segment_sizes(self, op: Operation) -> list[int]:
        if self.segmented:
            seg = op.attributes.get("operandSegmentSizes")
            if _valid_segments(seg, len(self.operands), len(op.operands)):
                return list(seg.values)  # type: ignore[union-attr]
        rest = len(op.operands) - self.single_operands
        return [1 if o.kind == SINGLE else rest for o in self.operands]

    def group_results(self, op: Operation) -> dict[str, list[Value]]:
        rest = len(op.results) - self.single_results
        out: dict[str, list[Value]] = {}
        i = 0
        for r in self.results:
            n = 1 if r.kind == SINGLE else rest
            out[r.name] = op.results[i : i + n]
            i += n
        return out


def _valid_segments(seg: Any, groups: int, operands: int) -> bool:
    """``array<i32: ...>`` with one non-negative size per group, summing to the operands."""
    if not (isinstance(seg, DenseArrayAttr) and seg.element == "i32" and len(seg.values) == groups):
        return False
    total = 0
    for v in seg.values:
        if not isinstance(v, int) or v < 0:
            return False
        total += v
    return total == operands


def segments_attr(sizes: list[int]) -> DenseArrayAttr:
    return DenseArrayAttr("i32", tuple(sizes))

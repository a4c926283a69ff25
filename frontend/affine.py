"""Affine expressions and maps: ``affine_map<(d0, d1)[s0] -> (d1, d0 + s0, 0)>``.

Vector ops use maps to say which iteration dims index which operand (``vector.contract``)
and how memory dims map to vector dims (``transfer_read``); rules and the interpreter need to
evaluate, compose and classify them, so they are real values rather than strings.
"""

from __future__ import annotations

from dataclasses import dataclass


class AffineExpr:
    """Base class; subclasses are frozen and hashable."""

    def __add__(self, other: AffineExpr) -> AffineExpr:
        return AffineBinary("+", self, other)

    def __mul__(self, other: AffineExpr) -> AffineExpr:
        return AffineBinary("*", self, other)

    def evaluate(self, dims: tuple[int, ...], syms: tuple[int, ...] = ()) -> int:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class AffineDim(AffineExpr):
    position: int

    def evaluate(self, dims: tuple[int, ...], syms: tuple[int, ...] = ()) -> int:
        return dims[self.position]

    def __str__(self) -> str:
        return f"d{self.position}"


@dataclass(frozen=True, slots=True)
class AffineSymbol(AffineExpr):
    position: int

    def evaluate(self, dims: tuple[int, ...], syms: tuple[int, ...] = ()) -> int:
        return syms[self.position]

    def __str__(self) -> str:
        return f"s{self.position}"


@dataclass(frozen=True, slots=True)
class AffineConstant(AffineExpr):
    value: int

    def evaluate(self, dims: tuple[int, ...], syms: tuple[int, ...] = ()) -> int:
        return self.value

    def __str__(self) -> str:
        return str(self.value)


def _sdiv(a: int, b: int) -> int:
    """Signed division truncating toward zero (LLVM's ``sdiv``); ZeroDivisionError on 0."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def floordiv(a: int, b: int) -> int:
    """``a floordiv b`` as ``-lower-affine`` computes it: ``a < 0 ? -1 - (-1 - a) / b : a / b``
    (the floor for b > 0, which is all MLIR's lowering accepts as a constant divisor)."""
    return -1 - _sdiv(-1 - a, b) if a < 0 else _sdiv(a, b)


def ceildiv(a: int, b: int) -> int:
    """``a ceildiv b`` as ``-lower-affine`` computes it: ``a <= 0 ? -(-a / b) : (a - 1) / b + 1``."""
    return -_sdiv(-a, b) if a <= 0 else _sdiv(a - 1, b) + 1


def mod(a: int, b: int) -> int:
    """``a mod b`` as ``-lower-affine`` computes it: ``r = srem(a, b); r < 0 ? r + b : r``
    (non-negative for b > 0, like Python's ``%``)."""
    r = a - b * _sdiv(a, b)
    return r + b if r < 0 else r


_PRECEDENCE = {"+": 1, "*": 2, "floordiv": 2, "ceildiv": 2, "mod": 2}


@dataclass(frozen=True, slots=True)
class AffineBinary(AffineExpr):
    """``lhs op rhs`` with op one of ``+ * floordiv ceildiv mod`` (``-`` is ``+ (-1 * x)``)."""

    op: str
    lhs: AffineExpr
    rhs: AffineExpr

    def evaluate(self, dims: tuple[int, ...], syms: tuple[int, ...] = ()) -> int:
        a, b = self.lhs.evaluate(dims, syms), self.rhs.evaluate(dims, syms)
        if self.op == "+":
            return a + b
        if self.op == "*":
            return a * b
        if self.op == "floordiv":
            return floordiv(a, b)
        if self.op == "ceildiv":
            return ceildiv(a, b)
        return mod(a, b)

    def __str__(self) -> str:
        def wrap(e: AffineExpr, right: bool) -> str:
            if isinstance(e, AffineBinary):
                inner, outer = _PRECEDENCE[e.op], _PRECEDENCE[self.op]
                if inner < outer or (right and inner == outer and self.op != "+"):
                    return f"({e})"
            return str(e)

        if self.op == "+":
            # Print `a - b` for `a + (-1 * b)` and `a - 3` for `a + -3`, like MLIR.
            r = self.rhs
            if isinstance(r, AffineConstant) and r.value < 0:
                return f"{wrap(self.lhs, False)} - {-r.value}"
            if (
                isinstance(r, AffineBinary)
                and r.op == "*"
                and isinstance(r.rhs, AffineConstant)
                and r.rhs.value == -1
            ):
                return f"{wrap(self.lhs, False)} - {wrap(r.lhs, True)}"
        if self.op == "*" and isinstance(self.rhs, AffineConstant) and self.rhs.value == -1:
            return f"-{wrap(self.lhs, True)}"  # MLIR's spelling of a negation: `-d0 + 12`
        return f"{wrap(self.lhs, False)} {self.op} {wrap(self.rhs, True)}"


@dataclass(frozen=True, slots=True)
class AffineMap:
    """``(d0, ..., d{n-1})[s0, ...] -> (e0, e1, ...)``."""

    num_dims: int
    num_symbols: int
    results: tuple[AffineExpr, ...]

    @staticmethod
    def identity(n: int) -> AffineMap:
        return AffineMap(n, 0, tuple(AffineDim(i) for i in range(n)))

    @staticmethod
    def minor_identity(num_dims: int, num_results: int) -> AffineMap:
        """The default transfer map: the last ``num_results`` dims, in order."""
        m = _MINOR_IDENTITY.get((num_dims, num_results))
        if m is None:
            first = num_dims - num_results
            m = AffineMap(num_dims, 0, tuple(AffineDim(first + i) for i in range(num_results)))
            _MINOR_IDENTITY[num_dims, num_results] = m
        return m

    @staticmethod
    def from_dims(num_dims: int, positions: tuple[int | None, ...]) -> AffineMap:
        """A projected permutation; ``None`` stands for the constant ``0`` (a broadcast)."""
        return AffineMap(
            num_dims,
            0,
            tuple(AffineConstant(0) if p is None else AffineDim(p) for p in positions),
        )

    def evaluate(self, dims: tuple[int, ...], syms: tuple[int, ...] = ()) -> tuple[int, ...]:
        return tuple(e.evaluate(dims, syms) for e in self.results)

    def result_positions(self) -> tuple[int | None, ...] | None:
        """Dim positions of each result (``None`` for a constant 0), or None if not that simple."""
        out: list[int | None] = []
        for e in self.results:
            if isinstance(e, AffineDim):
                out.append(e.position)
            elif isinstance(e, AffineConstant) and e.value == 0:
                out.append(None)
            else:
                return None
        return tuple(out)

    def is_projected_permutation(self, allow_zero: bool = False) -> bool:
        pos = self.result_positions()
        if pos is None or self.num_symbols:
            return False
        dims = [p for p in pos if p is not None]
        if not allow_zero and len(dims) != len(pos):
            return False
        return len(set(dims)) == len(dims)

    def is_permutation(self) -> bool:
        return self.is_projected_permutation() and len(self.results) == self.num_dims

    def __str__(self) -> str:
        dims = ", ".join(f"d{i}" for i in range(self.num_dims))
        syms = (
            f"[{', '.join(f's{i}' for i in range(self.num_symbols))}]" if self.num_symbols else ""
        )
        return f"({dims}){syms} -> ({', '.join(map(str, self.results))})"


_MINOR_IDENTITY: dict[tuple[int, int], AffineMap] = {}  # maps are immutable: one per shape

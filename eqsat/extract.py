"""Extraction: the cheapest term of an e-class under a cost model chosen at run time (per target).

Why our own extractor: egglog 14's raw ``bindings.Extractor`` calls a Python fold for every e-node
of the whole graph, several times (fixed-point passes: 189k folds for 23.6k e-nodes), and its
``greedy-dag`` extractor is no faster. Reading the tables once with ``freeze()`` and running
Knuth's algorithm (Dijkstra for hyperedges) over the part reachable from the root calls the cost
function about once per reachable e-node. On 50k e-nodes (experiments/bench_saturate.py): snapshot
0.15 s + tree extraction 0.25-0.3 s (0.25 s for each further cost table on the same snapshot),
against 0.68 s for ``bindings.Extractor`` and 0.77 s for its ``greedy-dag``; on 5k e-nodes
15 + 21-43 ms against 65 ms.

Contract for cost functions (as egg states it): costs must be monotone, a node costing at least as
much as each of its children; with non-negative own costs and ``own + sum(children)`` this holds.
Infinite costs mark illegal ops; a root whose every term is infinite extracts with cost ``inf``.
"""

from __future__ import annotations

import heapq
import math
from itertools import islice
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from egglog import bindings

from eqsat.egraph import EGraph
from eqsat.memory import MemoryBudget

type Literal = int | float | str | bool | None | tuple[Literal | Term, ...] | Term

# ``cost(op, literals, child_costs) -> float``: the cost of a term rooted at an ``op`` node.
# ``literals`` are the node's primitive arguments in order (i64 -> int, f64 -> float, String ->
# str, bool, ``Vec`` of primitives -> tuple); ``child_costs`` are the costs of its e-class
# arguments in order (elements of a ``Vec`` of e-classes included). Tree extraction uses it as a
# fold; DAG extraction calls it with zero child costs to get the node's own cost.
type CostFn = Callable[[str, tuple[Literal, ...], tuple[float, ...]], float]


class ExtractionError(Exception):
    """The root has no finite-depth term (only cycles) or is not in the graph."""


@dataclass(frozen=True)
class Term:
    """An extracted term: an op and its arguments in declaration order.

    An argument is a ``Term`` (an e-class argument), a Python literal, or a tuple for a container
    (a ``Vec i64`` shape becomes ``(4, 8)``, a ``Vec`` of e-classes a tuple of ``Term``).
    """

    op: str
    args: tuple[Term | Literal, ...] = ()

    @property
    def children(self) -> tuple[Term, ...]:
        """The e-class arguments, containers flattened."""
        out: list[Term] = []
        for a in self.args:
            if isinstance(a, Term):
                out.append(a)
            elif isinstance(a, tuple):
                out.extend(x for x in a if isinstance(x, Term))
        return tuple(out)

    @property
    def literals(self) -> tuple[Literal, ...]:
        """The primitive arguments (what the cost function sees as ``literals``)."""
        return tuple(a for a in self.args if not _holds_terms(a))

    def __hash__(self) -> int:
        # Cached: extracted terms share sub-terms, and an uncached hash would walk every path.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.op, self.args))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __str__(self) -> str:
        """egglog syntax, so a term can be fed back to egglog or compared as text."""
        out: list[str] = []
        stack: list[object] = [self]
        while stack:  # no recursion: terms can be thousands deep
            item = stack.pop()
            if isinstance(item, _Text):
                out.append(item)
            elif isinstance(item, Term):
                stack.append(_Text(")"))
                for arg in reversed(item.args):
                    stack.extend((arg, _Text(" ")))
                stack.append(_Text("(" + item.op))
            elif isinstance(item, tuple):
                stack.append(_Text(")"))
                for arg in reversed(item):
                    stack.extend((arg, _Text(" ")))
                stack.append(_Text("(vec-of"))
            else:
                out.append(_show(item))
        return "".join(out)


class _Text(str):
    """Already-rendered text on the ``Term.__str__`` stack (a plain str is a String literal)."""


def _holds_terms(arg: object) -> bool:
    return isinstance(arg, Term) or (
        isinstance(arg, tuple) and any(isinstance(x, Term) for x in arg)
    )


def _show(arg: object) -> str:
    match arg:
        case bool():
            return "true" if arg else "false"
        case str():
            return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
        case float():
            return repr(arg) if math.isfinite(arg) else ("inf" if arg > 0 else "-inf")
        case None:
            return "()"
        case _:
            return str(arg)


@dataclass(frozen=True)
class TableCost:
    """A cost function from a per-target table keyed by op name (``costs/<target>.toml``).

    An op's own cost is ``costs[op]`` (``default`` if absent: ``inf`` makes unlisted ops
    illegal); ``repeat[op] = i`` multiplies it by the node's ``i``-th literal, the tile count of
    a symbolic-tile node. Tree cost is own cost plus children.
    """

    costs: Mapping[str, float]
    default: float = math.inf
    repeat: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_own", {op: float(c) for op, c in self.costs.items()})

    def own(self, op: str, literals: tuple[Literal, ...]) -> float:
        """The cost of one ``op`` node, children excluded."""
        cost = self._own.get(op, self.default)  # type: ignore[attr-defined]
        if self.repeat and op in self.repeat and cost:
            cost *= literals[self.repeat[op]]  # type: ignore[operator]
        return cost

    def __call__(
        self, op: str, literals: tuple[Literal, ...], child_costs: Sequence[float]
    ) -> float:
        return self.own(op, literals) + sum(child_costs)


@dataclass(frozen=True)
class Extraction:
    """The chosen term and its costs. ``cost`` is what the extractor minimised."""

    term: Term
    cost: float
    tree_cost: float  # shared sub-terms paid at every use
    dag_cost: float  # each distinct e-class of the term paid once (own costs)
    dag: bool  # True: greedy DAG extraction; False: optimal tree extraction
    classes: int  # distinct e-classes in the term
    # e-class -> chosen e-node (snapshot numbering) for every e-class of the term
    choice: Mapping[int, int] = field(default_factory=dict, repr=False)
    # A whole-program term the cost model adds to ``dag_cost`` (register pressure: spills over
    # the block's schedule, ``eqsat.extract_refine``); included in ``cost``.
    program_cost: float = 0.0


# The snapshot keeps nodes in parallel lists indexed by node number, with e-classes renumbered
# densely (0..n-1), so the extractor works on lists of ints. egglog Values are hashed once on the
# way in: hash(Value) costs ~0.25 us, a dict keyed by Value ~0.8 us (PyO3 equality), a list index
# ~30 ns. The layout rebuilds a node's argument tuple: "l" takes the next literal, "c" the next
# child, an int n takes n children as a tuple (a Vec of e-classes).


def _written(operands: list[tuple[Literal, ...] | None]) -> tuple[Literal, ...] | None:
    """The vector a write stores: its first vector operand of a non-``i1`` element (a
    maskedstore's mask comes before its value), else its first vector operand, else None."""
    vectors = [t for t in operands if t is not None and len(t) == 3 and t[0] == "type"]
    data = [t for t in vectors if t[2] != "i1"]
    return (data or vectors or [None])[0]


class Snapshot:
    """The e-graph's extractable e-nodes, read once; extract from it under many cost tables."""

    def __init__(self, egraph: EGraph) -> None:
        self.egraph = egraph
        self.ops: list[str] = []
        self.owner: list[int] = []  # node -> e-class
        self.lits: list[tuple[Literal, ...]] = []
        self.kids: list[tuple[int, ...]] = []
        self.layouts: list[tuple[str | int, ...]] = []
        self._dense: dict[int, int] = {}  # hash(Value) -> e-class number
        self._decoded: dict[tuple[str, int], Literal] = {}
        schema = egraph.schema
        for name, fn in egraph.raw.freeze().functions.items():
            sig = schema.constructors.get(name)
            if sig is None or sig.unextractable or fn.is_let_binding:
                continue
            self._add_table(name, sig.inputs, fn.rows)
        self.members: list[list[int]] = [[] for _ in range(len(self._dense))]  # e-class -> nodes
        for node, cls in enumerate(self.owner):
            self.members[cls].append(node)
        self.cost_lits = self._with_types()

    def _with_types(self) -> list[tuple[Literal, ...]]:
        """Literals as cost functions see them: a node whose first argument is a ``Type``
        e-class gets its operands' types ``("operands", t1, t2, ...)`` and then its own type
        appended, each ``("type", shape, elem)`` (``VT``), ``("type", text)`` (``TT``) or None
        where unknown, since an op's cost depends on its widths. The result type stays last.
        A write (a node yielding the memory ``State``) has no result: it gets its operands'
        types and then the type of the vector it writes (see ``_written``). A transfer's
        permutation map stands among the operands as ``("map", rank, positions)``: a transfer
        whose lanes are not consecutive in memory is a gather or a scatter."""
        types = list(self.class_types)
        for node, op in enumerate(self.ops):
            if op == "PMap":
                types[self.owner[node]] = ("map", *self.lits[node])
        out = list(self.lits)
        writes = self._state_ops
        for node, layout in enumerate(self.layouts):
            if layout and layout[0] == "c":
                kids = self.kids[node]
                t = self._type_terms.get(kids[0])
                if t is not None:
                    operands = ("operands",) + tuple(types[k] for k in kids[1:])
                    out[node] = self.lits[node] + (operands, t)
                elif self.ops[node] in writes:
                    written = _written([types[k] for k in kids])
                    if written is not None:
                        operands = ("operands",) + tuple(types[k] for k in kids)
                        out[node] = self.lits[node] + (operands, written)
        return out

    @cached_property
    def _state_ops(self) -> frozenset[str]:
        """Constructors that yield a memory state (writes, prints, write strategies)."""
        sigs = self.egraph.schema.constructors
        return frozenset(name for name, sig in sigs.items() if sig.output == "State")

    @cached_property
    def _type_terms(self) -> dict[int, tuple[Literal, ...]]:
        """Type e-class -> ``("type", ...)``."""
        return {
            self.owner[n]: ("type", *self.lits[n])
            for n, op in enumerate(self.ops)
            if op in ("VT", "TT")
        }

    @cached_property
    def class_types(self) -> list[tuple[Literal, ...] | None]:
        """e-class -> the type of its values, where a node tells it: a typed op's first
        argument, a leaf's (``Arg``/``Outer``/``Res``) type argument, or a tile's shape."""
        tt = self._type_terms
        types: list[tuple[Literal, ...] | None] = [None] * len(self.members)
        for node, kids in enumerate(self.kids):
            cls = self.owner[node]
            if types[cls] is None:
                t = next((tt[k] for k in kids if k in tt), None)
                if t is not None:
                    types[cls] = t
        for _ in range(3):  # tiles of tiles: a few rounds reach every nesting that occurs
            for node, op in enumerate(self.ops):
                if op in ("TileOf", "TileAt") and types[self.owner[node]] is None:
                    src = types[self.kids[node][-1]]
                    if src is not None and len(src) == 3:
                        types[self.owner[node]] = ("type", self.lits[node][0], src[2])
        return types

    def __len__(self) -> int:
        return len(self.ops)

    @cached_property
    def parents(self) -> list[list[int]]:
        """e-class -> nodes that take it as an argument (once per node)."""
        parents: list[list[int]] = [[] for _ in self.members]
        for node, kids in enumerate(self.kids):
            for kid in set(kids) if len(kids) > 1 else kids:
                parents[kid].append(node)
        return parents

    @cached_property
    def arity(self) -> list[int]:
        """node -> number of distinct e-class arguments."""
        return [len(set(k)) if len(k) > 1 else len(k) for k in self.kids]

    def _class(self, value: bindings.Value) -> int:
        return self._dense.setdefault(hash(value), len(self._dense))

    def _add_table(self, name: str, sorts: tuple[str, ...], rows: list[bindings.FrozenRow]) -> None:
        kinds = tuple(self._kind(s) for s in sorts)
        rows = [r for r in rows if not r.subsumed]
        dense = self._dense
        number = dense.setdefault
        self.ops.extend([name] * len(rows))
        self.owner.extend([number(hash(r.output), len(dense)) for r in rows])
        if all(k == "c" for k in kinds):  # the common case, in comprehensions (PyO3 getters and
            # Value hashing dominate: ~0.6 us per attribute read)
            self.kids.extend([tuple([number(hash(v), len(dense)) for v in r.inputs]) for r in rows])
            self.lits.extend([()] * len(rows))
            self.layouts.extend([kinds] * len(rows))
            return
        for row in rows:
            lits, kids, layout = self._arguments(kinds, sorts, row.inputs)
            self.lits.append(lits)
            self.kids.append(kids)
            self.layouts.append(layout)

    def _arguments(
        self, kinds: tuple[str, ...], sorts: tuple[str, ...], values: list[bindings.Value]
    ) -> tuple[tuple[Literal, ...], tuple[int, ...], tuple[str | int, ...]]:
        lits: list[Literal] = []
        kids: list[int] = []
        layout: list[str | int] = []
        for kind, sort, value in zip(kinds, sorts, values, strict=True):
            if kind == "c":
                kids.append(self._class(value))
                layout.append("c")
            elif kind == "l":
                lits.append(self.decode(sort, value))
                layout.append("l")
            else:
                elems = self.egraph.raw.value_to_vec(value)
                kids.extend(map(self._class, elems))
                layout.append(len(elems))
        return tuple(lits), tuple(kids), tuple(layout)

    def _kind(self, sort: str) -> str:
        schema = self.egraph.schema
        if sort in schema.eq_sorts:
            return "c"
        container = schema.containers.get(sort)
        if container and container[1] and container[1][0] in schema.eq_sorts:
            if container[0] != "Vec":
                raise NotImplementedError(f"extracting a {container[0]} of e-classes ({sort})")
            return "v"
        return "l"

    def decode(self, sort: str, value: bindings.Value) -> Literal:
        """A primitive or container value as a Python value (cached per value)."""
        key = (sort, hash(value))
        if key not in self._decoded:
            self._decoded[key] = self._decode(sort, value)
        return self._decoded[key]

    def _decode(self, sort: str, value: bindings.Value) -> Literal:
        raw = self.egraph.raw
        match sort:
            case "i64":
                return raw.value_to_i64(value)
            case "f64":
                return raw.value_to_f64(value)
            case "String":
                return raw.value_to_string(value)
            case "bool":
                return raw.value_to_bool(value)
            case "Unit":
                return None
        schema = self.egraph.schema
        container = schema.containers.get(sort)
        if container and container[0] == "Vec" and container[1][0] not in schema.eq_sorts:
            return tuple(self.decode(container[1][0], v) for v in raw.value_to_vec(value))
        termdag, term, _ = raw.extract_value(value, sort)  # anything else: egglog's own reading
        return _from_termdag(termdag, term)

    def root(self, root: str | tuple[str, bindings.Value]) -> int:
        """The e-class number of an egglog expression or an (sort, value) pair."""
        _, value = self.egraph.eval(root) if isinstance(root, str) else root
        dense = self._dense.get(hash(value))
        if dense is None or not self.members[dense]:
            raise ExtractionError(f"root {root!r} is not an extractable e-class")
        return dense

    def extract(
        self,
        root: str | tuple[str, bindings.Value],
        cost: CostFn,
        *,
        dag: bool = False,
        budget: MemoryBudget | None = None,
        every: dict[int, int] | None = None,
    ) -> Extraction:
        """See ``extract``; ``budget`` is checked as e-classes are finalised. With ``every``,
        the search goes on past the root (the same choices up to it) and ``every`` receives
        the choice for every reachable e-class (what ``eqsat.extract_refine`` starts from)."""
        cls = self.root(root)
        sets: dict[int, dict[int, float]] = {}
        best = _knuth(self, cls, cost, dag, sets=sets, budget=budget, full=every is not None)
        if best.get(cls) is None:
            raise ExtractionError(f"root {root!r} has no finite term (only cycles)")
        if every is not None:
            every.update(best)
        return self.result(cls, best, cost, dag=dag, sets=sets if dag else None)

    def result(
        self,
        cls: int,
        best: Mapping[int, int],
        cost: CostFn,
        *,
        dag: bool,
        sets: Mapping[int, dict[int, float]] | None = None,
    ) -> Extraction:
        """The extraction of e-class ``cls`` for a choice of node per e-class (``best``);
        ``sets``: the DAG extractor's sets below each class, if it ran (else recomputed)."""
        order = postorder(self, cls, best)
        dag_cost = self._dag_cost(cls, order, best, cost, sets)
        costs: dict[int, float] = {}
        for c in order:
            node = best[c]
            kid_costs = tuple(costs[k] for k in self.kids[node])
            costs[c] = cost(self.ops[node], self.cost_lits[node], kid_costs)
        return Extraction(
            term=self._term(order, best),
            cost=dag_cost if dag else costs[cls],
            tree_cost=costs[cls],
            dag_cost=dag_cost,
            dag=dag,
            classes=len(order),
            choice={c: best[c] for c in order},
        )

    def _dag_cost(
        self,
        cls: int,
        order: Sequence[int],
        best: Mapping[int, int],
        cost: CostFn,
        sets: Mapping[int, dict[int, float]] | None,
    ) -> float:
        """Each e-class of the chosen term paid once at its own cost, except inside a
        ``Tiled`` kernel, which its ``Tiled`` node pays ``count`` times (see ``dag_below``):
        the classes reached from the root without entering a kernel. Linear in the term;
        ``sets`` are the extractor's (capped) sets below each class, for the kernels."""
        if sets is None:
            sets = {}
            for c in order:
                own, below = dag_below(self, best[c], sets, cost)
                sets[c] = _settled(below, c, own)  # type: ignore[index]
        exact = dag_total(self, cls, best, cost, lambda node: dag_below(self, node, sets, cost)[0])
        return exact  # type: ignore[return-value]

    def class_costs(self, root: int, cost: CostFn) -> tuple[dict[int, int], dict[int, float]]:
        """Optimal tree cost of every e-class reachable from ``root`` (no early stop), with the
        node that achieves it: what ``--explain`` compares alternatives by."""
        value: dict[int, float] = {}
        best = _knuth(self, root, cost, False, full=True, value=value)
        return best, value

    def _term(self, order: Sequence[int], best: Mapping[int, int]) -> Term:
        """Build the chosen term bottom-up (``order`` lists children before parents)."""
        built: dict[int, Term] = {}
        for cls in order:
            node = best[cls]
            lits, kids = iter(self.lits[node]), iter(self.kids[node])
            args: list[Term | Literal] = []
            for slot in self.layouts[node]:
                if slot == "l":
                    args.append(next(lits))
                elif slot == "c":
                    args.append(built[next(kids)])
                else:
                    args.append(tuple(built[next(kids)] for _ in range(slot)))
            built[cls] = Term(self.ops[node], tuple(args))
        return built[order[-1]]


def extract(
    egraph: EGraph | Snapshot,
    root: str | tuple[str, bindings.Value],
    cost: CostFn,
    *,
    dag: bool = False,
) -> Extraction:
    """The cheapest term for ``root`` (an egglog expression such as ``"$root"``, or a (sort,
    value) pair from ``EGraph.eval``) under ``cost``.

    ``dag=False`` (default) minimises *tree* cost exactly: a sub-term used twice is paid twice.
    ``dag=True`` minimises *DAG* cost greedily (each e-class paid once, own costs from ``cost``
    with zero child costs), like egglog's ``greedy-dag``: not optimal, but it sees sharing. Either
    way the result carries both costs of the chosen term. Pass a ``Snapshot`` to extract several
    times (roots, cost tables) from one read of the graph.
    """
    snapshot = egraph if isinstance(egraph, Snapshot) else Snapshot(egraph)
    return snapshot.extract(root, cost, dag=dag)


def _reachable(snap: Snapshot, root: int) -> list[int]:
    """Nodes of the e-classes reachable from ``root``."""
    seen = bytearray(len(snap.members))
    seen[root] = 1
    todo = [root]
    nodes: list[int] = []
    members, kids = snap.members, snap.kids
    while todo:
        for node in members[todo.pop()]:
            nodes.append(node)
            for kid in kids[node]:
                if not seen[kid]:
                    seen[kid] = 1
                    todo.append(kid)
    return nodes


# DAG mode keeps, for every final e-class, the classes below it with their own costs. Exact, that
# is quadratic in program length (every value of a long program has most of the program below
# it: a 20,000-op chain held 200 million entries, 4 GB). So a set keeps at most DAG_SET_CAP
# entries, the ones added last (the nearest below, as ``_union`` adds a node's own class last):
# sharing between alternatives is seen within that horizon, and what lies beyond it counts as
# paid. Below the cap the choice is the exact greedy one.
DAG_SET_CAP = 256


def _knuth(
    snap: Snapshot,
    root: int,
    cost: CostFn,
    dag: bool,
    full: bool = False,
    value: dict[int, float] | None = None,
    budget: MemoryBudget | None = None,
    sets: dict[int, dict[int, float]] | None = None,
) -> dict[int, int]:
    """Knuth's generalisation of Dijkstra to hypergraphs: e-classes are finalised cheapest first;
    a node is costed once, when its last child class is final. Stops when the root is final
    (``full``: when every reachable class is). Returns e-class -> chosen node; ``value``, when
    given, receives each final class's cost. With capped DAG sets a node can cost less than a
    child (what the cap dropped): the order is then only nearly cheapest first."""
    ops, owner, lits, kids = snap.ops, snap.owner, snap.cost_lits, snap.kids
    members = snap.members
    missing: dict[int, int] = {}
    heap: list[tuple[float, int]] = []
    best: dict[int, int] = {}
    if value is None:
        value = {}  # final e-class costs
    if sets is None:
        sets = {}  # DAG mode: e-class -> own cost of each class below (capped)

    pending: dict[int, float] = {}  # e-class -> cheapest cost pushed so far
    # DAG mode: the pricing of each node on the heap (its children are final, so it holds
    # when the node is popped), dropped when its class is final.
    priced: dict[int, tuple[float, dict[int, float]]] = {}

    def push(node: int) -> None:
        cls = owner[node]
        if cls in best:
            return  # a cheaper node of this class is already final
        k = kids[node]
        if dag:
            own, below = dag_below(snap, node, sets, cost)
            total = own + sum(below.values())
        else:
            total = cost(ops[node], lits[node], tuple(map(value.__getitem__, k)))
        if math.isnan(total):
            raise ValueError(f"cost of {ops[node]} is NaN")
        if total < pending.get(cls, math.inf) or cls not in pending:
            pending[cls] = total
            heapq.heappush(heap, (total, node))
            if dag:
                priced[node] = (own, below)

    parents = snap.parents
    arity = snap.arity
    for node in _reachable(snap, root):
        missing[node] = arity[node]
        if not arity[node]:
            push(node)
    popped = 0
    while heap:
        total, node = heapq.heappop(heap)
        cls = owner[node]
        if cls in best:
            continue
        popped += 1
        if budget is not None:
            budget.tick(popped, "extract", lambda: f"at e-class {popped} of {len(missing)}")
        if dag:
            own, below = priced[node]
            for other in members[cls]:
                priced.pop(other, None)
            sets[cls] = _settled(below, cls, own)
        best[cls] = node
        value[cls] = total
        if cls == root and not full:
            break
        for parent in parents[cls]:
            if parent not in missing:
                continue  # not reachable from this root
            missing[parent] -= 1
            if not missing[parent]:
                push(parent)
    return best


TILE_LEAVES = frozenset({"TileOf", "TileAt"})


def _capped(below: dict[int, float]) -> dict[int, float]:
    """The last ``DAG_SET_CAP`` entries of a set (see ``DAG_SET_CAP``)."""
    if len(below) <= DAG_SET_CAP:
        return below
    return dict(islice(below.items(), len(below) - DAG_SET_CAP, None))


# At most this many entries are dropped from a set in place (``_settled``); more, and the set
# is built again from the rest.
_DROP_IN_PLACE = 32


def _settled(below: dict[int, float], cls: int, own: float) -> dict[int, float]:
    """``_capped(below | {cls: own})``, the class's own entry last, made from ``below`` (a
    fresh set of the caller's, changed here). Why: a set of a class reached by one child is
    its child's set and one more entry, and building the last ``DAG_SET_CAP`` entries again
    was the greedy extraction's main cost on long programs; the oldest entries are dropped
    in place instead (the dict keeps the order of the rest)."""
    excess = len(below) + 1 - DAG_SET_CAP
    if excess <= 0 or cls in below:
        below[cls] = own
        return _capped(below)
    if excess <= _DROP_IN_PLACE:
        for k in list(islice(below, excess)):
            del below[k]
    else:
        below = dict(islice(below.items(), excess, None))
    below[cls] = own
    return below


def dag_below(
    snap: Snapshot, node: int, sets: Mapping[int, dict[int, float]], cost: CostFn
) -> tuple[float, dict[int, float]]:
    """DAG pricing of ``node`` given the classes below each final e-class (``sets``: class ->
    {class below it, itself included: own cost}): its own cost, and the classes below it.

    A ``(Tiled t count tile kernel srcs)`` node runs its kernel ``count`` times: the kernel's
    classes that the sources (and the type) do not already hold are paid ``count`` times, as
    part of the Tiled node's own cost, and are not shared with the rest of the term. A tile
    leaf (``TileOf``/``TileAt``) holds nothing below it: its operand is one of the sources
    (with capped sets, a set of the whole operand would leave some of it in the kernel)."""
    op, lits, kids = snap.ops[node], snap.cost_lits[node], snap.kids[node]
    own = cost(op, lits, (0.0,) * len(kids))
    if op == "Tiled" and len(kids) >= 2:
        outside = _union(sets, (kids[0],) + kids[2:])
        kernel = sets[kids[1]]
        own += lits[0] * sum(v for c, v in kernel.items() if c not in outside)  # type: ignore
        return own, outside
    if op in TILE_LEAVES:
        return own, {}  # the whole operand is one of the Tiled node's sources, paid outside
    return own, _union(sets, kids)


def dag_total(
    snap: Snapshot,
    root: int,
    choice: Mapping[int, int],
    cost: CostFn,
    tiled: Callable[[int], float | None],
    classes: Sequence[int] | None = None,
) -> float | None:
    """The classes reached from ``root`` without entering a kernel, each paid once: at its own
    cost, a ``Tiled`` node at ``tiled(node)`` (which pays its kernel; None stops the sum and
    is returned). One walk, in one order, for the exact cost and its bound
    (``eqsat.extract_refine``), so that where they agree they agree to the last bit;
    ``classes``: that walk, ``outer_classes(snap, root, choice)``, when the caller has it."""
    ops, kids_of, lits = snap.ops, snap.kids, snap.cost_lits
    total = 0.0
    for c in outer_classes(snap, root, choice) if classes is None else classes:
        node = choice[c]
        if ops[node] == "Tiled" and len(kids_of[node]) >= 2:
            own = tiled(node)
            if own is None:
                return None
            total += own
        else:
            total += cost(ops[node], lits[node], (0.0,) * len(kids_of[node]))
    return total


def outer_classes(snap: Snapshot, root: int, choice: Mapping[int, int]) -> Iterator[int]:
    """The classes reached from ``root`` through the chosen nodes without entering a
    ``Tiled`` node's kernel (which that node pays), each once, in ``dag_total``'s order."""
    ops, kids_of = snap.ops, snap.kids
    seen = {root}
    todo = [root]
    while todo:
        c = todo.pop()
        yield c
        node = choice[c]
        k = kids_of[node]
        if ops[node] == "Tiled" and len(k) >= 2:
            k = (k[0],) + k[2:]  # the kernel is in the Tiled node's own cost
        for kid in k:
            if kid not in seen:
                seen.add(kid)
                todo.append(kid)


def _union(sets: Mapping[int, dict[int, float]], kids: Sequence[int]) -> dict[int, float]:
    """The kids' sets merged, the largest first (ties in the order of ``set(kids)``)."""
    if not kids:
        return {}
    if len(kids) == 1:  # the usual cases, without the sort
        return dict(sets[kids[0]])
    distinct = set(kids)
    if len(distinct) == 2:
        a, b = distinct
        sa, sb = sets[a], sets[b]
        if len(sb) > len(sa):
            sa, sb = sb, sa
        out = dict(sa)
        out.update(sb)
        return out
    ordered = sorted(distinct, key=lambda k: -len(sets[k]))
    out = dict(sets[ordered[0]])
    for kid in ordered[1:]:
        out.update(sets[kid])
    return out


def postorder(
    snap: Snapshot, root: int, best: Mapping[int, int], stop: frozenset[str] = frozenset()
) -> list[int]:
    """The chosen term's e-classes, children before parents, each once (no recursion: terms can
    be thousands deep); below a class whose chosen node's op is in ``stop``, none."""
    order: list[int] = []
    done: set[int] = set()
    stack: list[tuple[int, bool]] = [(root, False)]
    while stack:
        cls, expanded = stack.pop()
        if cls in done:
            continue
        if expanded:
            done.add(cls)
            order.append(cls)
            continue
        stack.append((cls, True))
        if stop and snap.ops[best[cls]] in stop:
            continue
        stack.extend((k, False) for k in snap.kids[best[cls]] if k not in done)
    return order


def _from_termdag(termdag: bindings.TermDag, term: int) -> Literal:
    node = termdag.get(term)
    if isinstance(node, bindings.TermLit):
        value = node.value
        return None if isinstance(value, bindings.Unit) else value.value
    if isinstance(node, bindings.TermApp):
        args = tuple(_from_termdag(termdag, a) for a in node.args)
        return args if node.name == "vec-of" else Term(node.name, args)
    return Term(node.name)

"""A target: what one kind of hardware vector unit offers, read from ``costs/<name>.toml``.

The file names the LLVM triple, CPU and feature string code is generated for, the native
lanes per element type (one hardware register's worth), the register count, and the cycles
each hardware op takes per native register (``[cost]``, read by ``eqsat.targets.costmodel``). Users copy a file
and edit it; a malformed one is reported as ``FILE:LINE: error: ...`` naming the key.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from eqsat.targets.features import malformed, missing_on_host, triple_problem, unknown, unknown_cpu
from eqsat.targets.widths import ELEMENT_TYPES
# Directions of LLVM's pre-RA machine scheduler a target file may pick (``schedule``); the
# first is LLVM's default on x86 (GenericScheduler schedules bottom-up unless told otherwise).
SCHEDULES = ("bottomup", "topdown", "bidirectional")
_REQUIRED = {"triple": str, "cpu": str, "features": str, "vector_bits": int, "registers": int}
_OPTIONAL = (
    "description", "requires", "accumulators", "legalize", "schedule", "shuffle_lane_bits",
    "align_versioning", "max_registers",  # last: refused with its own message (below)
)
SECTIONS = ("target", "width", "cost")


class TargetError(Exception):
    """A target file that cannot be used: ``FILE:LINE: error: message``."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: error: {message}")


class UnknownTarget(TargetError):
    """A target name that is neither a shipped target nor a file: a usage error (exit 2)."""


@dataclass(frozen=True)
class Target:
    """One target file, parsed and checked."""

    name: str
    path: str
    description: str
    triple: str
    cpu: str
    features: str
    requires: tuple[str, ...]
    vector_bits: int
    registers: int
    width: dict[str, int]
    # The raw ``[cost]`` table (op -> number, or op -> {elem/"default": number}).
    cost: dict[str, Any] = field(default_factory=dict)
    # ``[cost]`` keys -> their line in the file, for errors found later (cost model).
    lines: dict[str, int] = field(default_factory=dict)
    # Registers a reduction chain keeps live as accumulators before it spills (a contraction's
    # outer-product lowering works on blocks of rows that fit; see costmodel).
    accumulators: int = 8
    # Legalize rule files (``rules/legalize/<name>.egg``) this target uses at ``--emit hwv``.
    legalize: tuple[str, ...] = ()
    # Direction of LLVM's pre-register-allocation machine scheduler for this target's code
    # (``-misched-prera-direction``): "bottomup" (LLVM's default), "topdown" (keeps closer to
    # the order the expansions emit) or "bidirectional".
    schedule: str = SCHEDULES[0]
    # Bits of the lanes a one-instruction shuffle stays within (x86 AVX/AVX-512: 128; 0: the
    # whole register): a shuffle moving values across them costs more (see costmodel).
    shuffle_lane_bits: int = 0
    # Alignment versioning (eqsat/codegen/align_version.py): the largest body, in
    # native-register operations, that gets a copy running on vector-aligned memref
    # arguments after a check at entry; 0: no function is versioned.
    align_versioning: int = 0

    def lanes(self, elem: str) -> int | None:
        """Native lanes for an element type name (``f32``), or None when the target has none."""
        return self.width.get(elem)

    def cost_model(self, overrides: Any = None, emit: str = "vv", reassoc: bool = False) -> Any:
        """This target's cost function for extraction at level ``emit`` (``vv`` or ``hwv``),
        float reductions priced as trees when ``reassoc`` (see ``eqsat.targets.costmodel``)."""
        from eqsat.targets.costmodel import TargetCost

        return TargetCost(self, overrides, emit, reassoc)

    def error(self, key: str, message: str) -> TargetError:
        """An error about ``key`` of this file, at the key's line."""
        return TargetError(self.path, self.lines.get(key), message)

    def runs_on_host(self) -> bool:
        """True when this machine can execute the target's code: same architecture and every
        required or enabled CPU feature present (the host CPU name says nothing reliable in
        a VM)."""
        import platform

        arch = self.triple.split("-")[0]
        host = platform.machine().lower().replace("amd64", "x86_64").replace("arm64", "aarch64")
        if arch != host:
            return False
        return not missing_on_host(self.features, self.requires)


def _line_of(text: str, key: str, section: str | None = None) -> int | None:
    """The 1-based line where ``key`` is assigned (inside ``[section]`` when given)."""
    current = None
    quoted = re.escape(key)
    pattern = re.compile(rf'^\s*("{quoted}"|{quoted})\s*=')
    for i, line in enumerate(text.splitlines(), 1):
        header = re.match(r"^\s*\[([^\]]+)\]", line)
        if header:
            current = header.group(1).strip().strip('"')
            if section and current == f"{section}.{key}" or current == f'{section}."{key}"':
                return i
            continue
        if (section is None or current == section) and pattern.match(line):
            return i
    return None


def _section_line(text: str, section: str) -> int | None:
    """The line of the ``[section]`` header."""
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"^\s*\[\s*{re.escape(section)}\s*\]", line):
            return i
    return None


def parse_target(text: str, path: str, name: str | None = None) -> Target:
    """A ``Target`` from the text of a target file; ``TargetError`` when it is malformed."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+)", str(e))
        raise TargetError(path, int(m.group(1)) if m else None, str(e).split(" (at")[0]) from None
    name = name or Path(path).stem
    head = data.get("target")
    if not isinstance(head, dict):
        raise TargetError(path, 1, "missing [target] section (triple, cpu, features, ...)")
    for section in data:
        if section not in SECTIONS:
            raise TargetError(path, _section_line(text, section) or _line_of(text, section),
                              f"unknown section [{section}] (a target file has "
                              f"{', '.join(f'[{x}]' for x in SECTIONS)})")  # fmt: skip
    for key in head:
        if key not in _REQUIRED and key not in _OPTIONAL:
            known = ", ".join([*_REQUIRED, *_OPTIONAL[:-1]])
            raise TargetError(path, _line_of(text, key, "target"),
                              f"unknown key '{key}' in [target] (known: {known})")  # fmt: skip
    for key, kind in _REQUIRED.items():
        if key not in head:
            raise TargetError(path, _section_line(text, "target"), f"[target] needs '{key}'")
        if not isinstance(head[key], kind) or isinstance(head[key], bool):
            raise TargetError(
                path, _line_of(text, key, "target"), f"'{key}' must be a {kind.__name__}"
            )
        if kind is int and head[key] < 1:
            raise TargetError(path, _line_of(text, key, "target"), f"'{key}' must be >= 1")
    problem = triple_problem(head["triple"])
    if problem is not None:
        raise TargetError(path, _line_of(text, "triple", "target"), f"'triple': {problem}")
    if unknown_cpu(head["triple"], head["cpu"]):
        raise TargetError(path, _line_of(text, "cpu", "target"),
                          f"LLVM knows no processor {head['cpu']!r} for {head['triple']}")  # fmt: skip
    requires = head.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
        raise TargetError(
            path, _line_of(text, "requires", "target"), "'requires' must be a list of strings"
        )
    bad = malformed(head["features"])
    line = _line_of(text, "features", "target")
    if bad is not None:
        raise TargetError(
            path, line, f"'features' must list +name or -name separated by commas, got {bad!r}"
        )
    strange = unknown(head["triple"], head["features"])
    if strange:
        raise TargetError(
            path, line, f"LLVM knows no feature {', '.join(strange)} for {head['triple']}"
        )
    width = data.get("width")
    if not isinstance(width, dict) or not width:
        raise TargetError(
            path,
            _section_line(text, "width") or 1,
            "missing [width] section (native lanes per element type)",
        )
    for elem, lanes in width.items():
        line = _line_of(text, elem, "width")
        if elem not in ELEMENT_TYPES:
            known = ", ".join(ELEMENT_TYPES)
            raise TargetError(path, line, f"unknown element type '{elem}' (known: {known})")
        if not isinstance(lanes, int) or isinstance(lanes, bool) or lanes < 1:
            raise TargetError(path, line, f"width of {elem} must be a positive integer")
        if lanes & (lanes - 1):
            raise TargetError(path, line, f"width of {elem} must be a power of two, got {lanes}")
    cost = data.get("cost", {})
    if not isinstance(cost, dict):
        raise TargetError(path, _line_of(text, "cost") or 1, "[cost] must be a table")
    lines = {k: _line_of(text, k, "cost") or _line_of(text, k) or 0 for k in cost}
    for key, value in cost.items():
        problem = _cost_problem(key, value)
        if problem:
            raise TargetError(path, lines.get(key) or _section_line(text, "cost"), problem)
    if "max_registers" in head:  # a cap that priced wide ops out; pressure replaced it
        raise TargetError(
            path,
            _line_of(text, "max_registers", "target"),
            "'max_registers' is no longer a target key: wide ops cost what their split into "
            "native registers costs, and register pressure is priced from 'registers' "
            "(delete the line)",
        )
    accumulators = head.get("accumulators", max(1, head["registers"] // 2))
    if not isinstance(accumulators, int) or isinstance(accumulators, bool) or accumulators < 1:
        raise TargetError(
            path, _line_of(text, "accumulators", "target"), "'accumulators' must be >= 1"
        )
    legalize = head.get("legalize", [])
    if not isinstance(legalize, list) or not all(isinstance(x, str) for x in legalize):
        raise TargetError(
            path, _line_of(text, "legalize", "target"), "'legalize' must be a list of names"
        )
    shipped = _legalize_names()
    for x in legalize:
        if x not in shipped:
            raise TargetError(path, _line_of(text, "legalize", "target"),
                              f"no legalize rule file {x!r} (rules/legalize has "
                              f"{', '.join(sorted(shipped))})")  # fmt: skip
    schedule = head.get("schedule", SCHEDULES[0])
    if schedule not in SCHEDULES:
        raise TargetError(
            path,
            _line_of(text, "schedule", "target"),
            f"'schedule' must be one of {', '.join(SCHEDULES)}, got {schedule!r}",
        )
    lane_bits = head.get("shuffle_lane_bits", 0)
    if not isinstance(lane_bits, int) or isinstance(lane_bits, bool) or lane_bits < 0:
        raise TargetError(
            path, _line_of(text, "shuffle_lane_bits", "target"),
            "'shuffle_lane_bits' must be a number of bits >= 0 (0: the whole register)",
        )
    versioning = head.get("align_versioning", 0)
    if not isinstance(versioning, int) or isinstance(versioning, bool) or versioning < 0:
        raise TargetError(
            path, _line_of(text, "align_versioning", "target"),
            "'align_versioning' must be a number of native-register operations >= 0 "
            f"(the largest body versioned; 0: none), got {versioning!r}",
        )
    return Target(
        name=name,
        path=path,
        description=str(head.get("description", "")),
        triple=head["triple"],
        cpu=head["cpu"],
        features=head["features"],
        requires=tuple(requires),
        vector_bits=head["vector_bits"],
        registers=head["registers"],
        width=dict(width),
        cost=cost,
        lines={k: v for k, v in lines.items() if v},
        accumulators=accumulators,
        legalize=tuple(legalize),
        schedule=schedule,
        shuffle_lane_bits=lane_bits,
        align_versioning=versioning,
    )


def _legalize_names() -> frozenset[str]:
    """The exact legalize rule files of the ``rules`` package (``rules/legalize/<name>.egg``)."""
    folder = resources.files("rules") / "legalize"
    return frozenset(
        f.name.removesuffix(".egg")
        for f in folder.iterdir()
        if f.name.endswith(".egg") and not f.name.endswith("-fast-math.egg")
    )


def known_cost_keys() -> frozenset[str]:
    """Names a ``[cost]`` table may price: MLIR ops of the op table, the agreed HWV ops,
    strategy constructors (a flat cost instead of their expansion) and ``default``."""
    from eqsat.strategies import STRATEGIES
    from eqsat.targets.hwv_names import HWV_NAMES
    from frontend.ops import all_specs

    return frozenset(all_specs()) | HWV_NAMES | frozenset(STRATEGIES) | {"default"}


def _cost_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0


def _cost_problem(key: str, value: Any) -> str | None:
    """Why ``key = value`` is not a valid ``[cost]`` entry, or None."""
    if key not in known_cost_keys():
        return f"unknown op '{key}' in [cost] (keys are MLIR op names such as \"arith.addf\")"
    if isinstance(value, dict):
        for elem, v in value.items():
            if elem != "default" and elem not in ELEMENT_TYPES:
                return f"cost of '{key}': unknown element type '{elem}'"
            if not _cost_number(v):
                return f"cost of '{key}' for {elem} must be a non-negative number, got {v!r}"
        return None
    if not _cost_number(value):
        return f"cost of '{key}' must be a non-negative number or {{ f32 = ..., default = ... }}"
    return None


def builtin_targets() -> list[str]:
    """Names of the target files shipped in ``costs/``."""
    files = resources.files("costs")
    return sorted(p.name[: -len(".toml")] for p in files.iterdir() if p.name.endswith(".toml"))


def load_target(name_or_path: str | Path) -> Target:
    """A shipped target by name (``avx2``) or a user's target file by path."""
    text_path = str(name_or_path)
    if text_path.endswith(".toml") or "/" in text_path:
        try:
            data = Path(text_path).read_bytes()
            return parse_target(data.decode("utf-8"), text_path)
        except OSError as e:
            raise TargetError(text_path, None, f"cannot read target file: {e.strerror}") from None
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            raise TargetError(
                text_path, line, f"invalid UTF-8 byte 0x{data[e.start]:02x}: target files are text"
            ) from None
    names = builtin_targets()
    if text_path not in names:
        raise UnknownTarget(
            "eqsat", None, f"unknown target '{text_path}' (known: {', '.join(names)})"
        )
    res = resources.files("costs") / f"{text_path}.toml"
    return parse_target(res.read_text(), f"costs/{text_path}.toml", text_path)

"""The frontend's layers import one way: the IR core (ir, types, attributes, errors) at the
bottom, the op table (frontend.ops) on it, the parser and printer on both."""

from __future__ import annotations

import ast
from pathlib import Path

FRONTEND = Path(__file__).resolve().parent.parent / "frontend"


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            pkg = FRONTEND.parent.joinpath(*node.module.split("."))
            subs = [a.name for a in node.names if (pkg / f"{a.name}.py").is_file()]
            # `from frontend.ops import vector_eval` imports the submodule, not the package
            out.update(f"{node.module}.{n}" for n in subs)
            if len(subs) < len(node.names):
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("frontend")}


def test_ir_core_imports_nothing_above_it() -> None:
    core = {"frontend.attributes", "frontend.errors", "frontend.types"}
    assert _imports(FRONTEND / "ir.py") <= core


def test_op_tables_import_the_registry_not_the_package() -> None:
    for path in sorted((FRONTEND / "ops").glob("*.py")):
        if path.name == "__init__.py":
            continue
        assert "frontend.ops" not in _imports(path), path.name
        assert not {"frontend.parser", "frontend.printer"} & _imports(path), path.name


def test_hooks_are_installed() -> None:
    from frontend import ir, parse

    module = parse("func.func @f() {\n  return\n}\n")
    assert module.ops[0].spec is not None and module.ops[0].spec.name == "func.func"
    assert str(module).startswith("module {")
    assert ir.Operation("vector.broadcast").spec is not None

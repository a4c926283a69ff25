"""One stage of one test file, in a process of its own (a JIT crash or a hang cannot take the
driver down): ``python -m experiments.integration.worker STAGE FILE ENTRY [MATRIX_LAYOUT]``
(the layout of flat matrices, as the RUN line's ``-matrix-default-layout``).

STAGE is ``interp`` (our reference interpreter) or a target name (``avx2``, ``x86-64-v2``):
the module goes through eqsat (``optimize_module`` at the target's hardware level, the
module's own transform script read as forced strategies, as ``eqsat opt --target T`` does),
then is compiled with bounds-checked memory accesses and its entry called. What the program
prints goes to stdout; the exit status says how the stage ended (``EXIT``), the last stderr
line why.
"""

from __future__ import annotations

import sys
import traceback

#: Exit statuses of a stage (anything else, e.g. a signal, is a crash).
EXIT = {
    "ok": 0,
    "frontend": 3,  # parse or verify error of ours: the file is unsupported
    "runtime": 4,  # the interpreter or the compiled code faulted while running
    "compile": 5,  # eqsat (e-graph, decode) or code generation rejected the module
    "host": 6,  # this host cannot run the target
    "bug": 7,  # an unexpected exception (a bug of ours; traceback on stderr)
}
STATUS_OF = {v: k for k, v in EXIT.items()}


def _say(kind: str, message: str) -> int:
    sys.stdout.flush()
    first = message.strip().splitlines()[0] if message.strip() else kind
    print(f"{kind}: {first}", file=sys.stderr)
    return EXIT[kind]


def _compiled(module: object, target_name: str, entry: str, layout: str) -> int:
    from eqsat.codegen import compile
    from eqsat.forced_strategies import module_cost_overrides
    from eqsat.optimizer import optimize_module
    from eqsat.targets import load_target

    target = load_target(target_name)
    if not target.runs_on_host():
        return _say("host", f"this host cannot run {target_name} code")
    try:
        cost = target.cost_model(module_cost_overrides(module), "hwv", False)
        lowered = optimize_module(module, cost=cost, target=target, emit="hwv").module
        program = compile(lowered, target, entry=entry, checked=True, matrix_layout=layout)
    except Exception as e:  # eqsat or codegen rejected what the interpreter ran
        return _say("compile", f"{type(e).__name__}: {e}")
    try:
        program[entry]()
    except Exception as e:
        return _say("runtime", f"{type(e).__name__}: {e}")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print(
            "usage: python -m experiments.integration.worker STAGE FILE ENTRY [MATRIX_LAYOUT]",
            file=sys.stderr,
        )
        return 2
    stage, path, entry = argv[:3]
    layout = argv[3] if len(argv) == 4 else "row-major"
    from frontend import MLIRError, parse

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        module = parse(text, path)
    except MLIRError as e:
        return _say("frontend", str(e))
    except (OSError, UnicodeDecodeError, RecursionError) as e:
        return _say("frontend", f"{path}: error: {e}")
    func = module.functions().get(entry)
    if func is None:
        return _say("frontend", f"{path}: error: no function @{entry}")
    if func.attributes["function_type"].type.inputs:
        return _say("frontend", f"{path}: error: @{entry} takes arguments")
    try:
        if stage == "interp":
            from eqsat.interpreter import Interpreter

            try:
                Interpreter(module, out=sys.stdout, matrix_layout=layout).call(entry)
            except Exception as e:
                return _say("runtime", f"{type(e).__name__}: {e}")
            return 0
        return _compiled(module, stage, entry, layout)
    except Exception:
        traceback.print_exc()
        return _say("bug", "unexpected exception (traceback above)")
    finally:
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

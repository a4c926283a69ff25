"""``eqsat``: the command line, in the style of ``mlir-opt``.

Every error in the user's input is printed as ``FILE:LINE:COL: error: message`` with exit
status 1; a traceback is a bug in eqsat.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # python -m eqsat.cli is python -m eqsat (eqsat.entry), which
    import runpy  # stops a Ctrl-C during the imports below cleanly

    runpy.run_module("eqsat", run_name="__main__", alter_sys=True)

import argparse  # noqa: E402
import signal  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402

from eqsat.bench.command import add_bench_command  # noqa: E402
from eqsat.commands import add_commands  # noqa: E402
from eqsat.inputs import positive, positive_seconds, read_input  # noqa: E402
from frontend import MLIRError, parse, print_module  # noqa: E402


def cmd_parse(args: argparse.Namespace) -> int:
    text, name = read_input(args.file)
    module = parse(text, name)
    sys.stdout.write(print_module(module, generic=args.generic))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Run a function without arguments and print what it prints, like mlir-runner."""
    from eqsat.interpreter import Interpreter

    text, name = read_input(args.file)
    module = parse(text, name)
    func = module.functions().get(args.entry)
    if func is None:
        print(f"eqsat: error: {name} has no function @{args.entry}", file=sys.stderr)
        return 1
    if func.attributes["function_type"].type.inputs:
        print(
            f"eqsat: error: @{args.entry} takes arguments; `run` needs a function without "
            "arguments",
            file=sys.stderr,
        )
        return 1
    target = args.target
    if args.strict and target not in (None, "interp"):
        print("eqsat: error: --strict runs in the interpreter only (--target interp)",
              file=sys.stderr)
        return 2
    if target is None and args.strict:
        target = "interp"  # --strict's located in_bounds faults are the interpreter's
    if target != "interp":
        from eqsat.codegen.commands import CodegenError, best_host_target, run

        explicit = target is not None
        if explicit:  # a bad name or target file: its error here, before the child runs
            from eqsat.targets import load_target

            load_target(target)
        target = target or best_host_target() or "interp"
        if target != "interp":
            from eqsat.codegen.guard import GeneratedCodeCrash, call_guarded

            chosen = target
            try:  # in a child process: a fault in the generated code is an error, not a crash
                call_guarded(
                    lambda: run(module, chosen, args.entry, args.layout, args.reassoc,
                                args.matrix_layout, args.fp_contract),
                    f"the {chosen} code of @{args.entry}",
                    timeout=args.max_seconds,
                )  # fmt: skip
                return 0
            except GeneratedCodeCrash as e:
                print(f"eqsat: error: {e}", file=sys.stderr)
                return 1
            except CodegenError:
                if explicit:
                    raise
                target = "interp"  # the default falls back to what can run the program
    try:
        with _time_limit(args.max_seconds):
            Interpreter(
                module,
                vscale=args.vscale,
                out=sys.stdout,
                matrix_layout=args.matrix_layout,
                strict_bounds=args.strict,
                fp_contract=args.fp_contract,
            ).call(args.entry)
    except _OutOfTime:
        print(f"eqsat: error: @{args.entry} did not finish within {args.max_seconds:g} s "
              "(--max-seconds); stopped", file=sys.stderr)  # fmt: skip
        return 1
    finally:
        sys.stdout.flush()
    return 0


class _OutOfTime(BaseException):
    """Raised by the timer of ``run --max-seconds`` (a BaseException: no fault handler of
    the interpreter takes it for a fault of the program)."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    if seconds is None or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Version(argparse.Action):
    """``--version``: looked up only when asked (reading the distribution's metadata costs a
    command that runs without it about a tenth of a second)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from eqsat.version import version

        print(f"eqsat {version()}")  # on stdout, as argparse's own version action
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="eqsat", description=__doc__.splitlines()[0])
    ap.add_argument("--version", action=_Version)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("parse", help="parse, verify and print an MLIR file")
    p.add_argument("file", help="MLIR file, or - for stdin")
    p.add_argument("--generic", action="store_true", help="print every op in generic form")
    p.set_defaults(run=cmd_parse)
    r = sub.add_parser("run", help="run a function without arguments and print its output")
    r.add_argument("file", help="MLIR file, or - for stdin")
    r.add_argument("--entry", default="entry", help="function to run (default: entry)")
    r.add_argument(
        "--target",
        default=None,
        metavar="interp|NAME|FILE",
        help="compile for this target (eqsat targets lists them; or a target .toml file) and "
        "run it (default: the best target this host runs, or interp, the numpy reference "
        "interpreter, for programs no target compiles)",
    )
    r.add_argument(
        "--layout",
        choices=["nested", "flat"],
        default="nested",
        help="n-D vectors as nested LLVM arrays of 1-D vectors (default) or flattened",
    )
    r.add_argument(
        "--reassoc",
        action="store_true",
        help="let compiled float reductions reassociate (results may change in the last bits)",
    )
    r.add_argument(
        "--fp-contract",
        action="store_true",
        help="fp-contract mode: a float vector.contract<add> fuses each multiply-add (one "
        "rounding per reduction point, in order; MLIR's outerproduct lowering), in the "
        "interpreter and in compiled code alike",
    )
    r.add_argument(
        "--vscale",
        type=positive,
        default=1,
        help="runtime vscale of scalable vectors (default: 1)",
    )
    r.add_argument(
        "--matrix-layout",
        choices=["row-major", "column-major"],
        default="row-major",
        help="layout of the flat matrices of vector.flat_transpose / vector.matrix_multiply, as "
        "LLVM's -matrix-default-layout (default: row-major)",
    )
    r.add_argument(
        "--strict",
        action="store_true",
        help="fault on a transfer marked in_bounds that reaches past a dimension (default: read "
        "or write the flat memory as MLIR does, with a warning); runs the interpreter unless "
        "--target is given",
    )
    r.add_argument(
        "--max-seconds",
        type=positive_seconds,
        default=None,
        help="stop the run after this many seconds with an error (default: no limit; "
        "Ctrl-C also stops it)",
    )
    r.set_defaults(run=cmd_run)
    add_commands(sub)
    add_bench_command(sub)
    return ap


def _output_failed(e: OSError) -> int:
    """stdout cannot take the output (a full device, a closed pipe): one line, exit 1, and
    stdout pointed at /dev/null so that the interpreter's final flush stays quiet."""
    import os

    print(f"eqsat: error: cannot write the output: {e.strerror or e}", file=sys.stderr)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    return 1


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if argv is None and getattr(args, "max_memory", None):
        # The process is ours (the command line, not a caller of main()): cap its address
        # space a little above the memory budget (process-wide, so only here).
        from eqsat.memory import hard_limit

        hard_limit(args.max_memory)
    try:
        return _run(args)
    except OSError as e:
        import errno

        if e.errno not in (errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT, errno.EFBIG):
            raise
        return _output_failed(e)
    finally:
        if argv is None:
            _leave_to_exit()


def _leave_to_exit() -> None:
    """The command line's process is about to end: take what it built out of the cyclic
    collector's reach (``gc.freeze``), so that the interpreter's final collection does not walk
    it. Why: IR is cyclic (an op holds its results, each result its op), so freeing a program
    is a collection's work: 2 of 27 CPU s of ``eqsat opt`` on a 16,000-op program (2.2 s of
    the 2.3 s after ``main`` returned), all of it spent just before the memory goes back to
    the system anyway. Only for the process's own command line (a caller of ``main()`` keeps
    its collector as it was)."""
    import gc

    gc.freeze()


def _run(args: argparse.Namespace) -> int:
    try:
        return args.run(args)
    except MLIRError as e:
        print(str(e), file=sys.stderr)
        return 1
    except RecursionError:
        print("eqsat: error: input nests too deeply", file=sys.stderr)
        return 1
    except Exception as e:  # errors of the engine layer that carry their own file:line:col
        from eqsat.egraph import RuleError
        from eqsat.targets import TargetError
        from eqsat.targets.target import UnknownTarget

        if isinstance(e, RuleError):
            print(e.render(), file=sys.stderr)
            return 1
        if isinstance(e, TargetError):  # exit 2 for an unknown name, 1 for a file's content
            print(str(e), file=sys.stderr)
            return 2 if isinstance(e, UnknownTarget) else 1
        if isinstance(e, FileNotFoundError):
            print(f"eqsat: error: {e}", file=sys.stderr)
            return 1
        raise


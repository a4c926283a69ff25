"""The ``eqsat`` console script (and ``python -m eqsat``): Ctrl-C at any moment is
``eqsat: interrupted`` and exit status 130, never a traceback.

Importing the command line takes seconds (egglog, llvmlite, numpy), and an interrupt during
an import would surface as a traceback from whatever module was loading (or be swallowed by
a library's bare ``except``). So before anything heavy is imported, SIGINT ends the process
at once; once the imports are done, Python's own handler is back and the interrupt is a
KeyboardInterrupt (``eqsat.cli`` may be running a compiled program in a child process, which
it stops on the way out). This module
and the package's ``__init__`` import only what the interpreter has loaded at startup, so
the window before the handler is installed is the interpreter's own start-up.
"""

import os
import sys

INTERRUPTED = "eqsat: interrupted"


def _interrupted(signum: int, frame: object) -> None:
    os.write(2, (INTERRUPTED + "\n").encode())
    os._exit(130)


def main() -> int:
    try:
        import signal

        before = signal.getsignal(signal.SIGINT)  # (SIG_IGN, in a background job, stays)
        if before is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted)
        from eqsat.cli import main as run

        signal.signal(signal.SIGINT, before)
    except KeyboardInterrupt:  # before the handler was installed
        print(INTERRUPTED, file=sys.stderr)
        return 130
    try:
        return run()
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

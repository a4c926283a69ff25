"""Target machines from target files, LLVM's O3 pipeline, assembly, and the JIT.

The target machine is built from ``costs/<target>.toml`` (triple, CPU, features), never from
the host CPU name. Code is run only when ``Target.runs_on_host()`` says the host has every
feature it needs; other targets compile to assembly only.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
from functools import cache

import llvmlite.binding as llvm

from eqsat.codegen.llvm_options import LlvmOptions
from eqsat.codegen.llvm_options import apply as apply_options
from eqsat.codegen.runtime import SYMBOLS
from eqsat.codegen.runtime_checked import SYMBOLS as CHECKED_SYMBOLS
from eqsat.codegen.runtime_memref import SYMBOLS as MEMREF_SYMBOLS
from eqsat.codegen.types import CodegenError
from eqsat.targets import Target
from eqsat.targets.features import missing_on_host


@cache
def _init() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    for name, addr in {**SYMBOLS, **MEMREF_SYMBOLS, **CHECKED_SYMBOLS}.items():
        llvm.add_symbol(name, addr)
    gcc = ctypes.util.find_library("gcc_s")  # half-precision conversions (__extendhfsf2, ...)
    if gcc:
        try:
            llvm.load_library_permanently(gcc)
        except RuntimeError:
            pass


# C-library functions that code generation or LLVM's backend call by name
_C_RUNTIME = frozenset(
    "malloc free calloc realloc aligned_alloc posix_memalign memcpy memmove memset memcmp "
    "bcmp abort exit".split()
)


@cache
def _libraries() -> tuple[ctypes.CDLL, ctypes.CDLL] | None:
    libm, libc = ctypes.util.find_library("m"), ctypes.util.find_library("c")
    return (ctypes.CDLL(libm), ctypes.CDLL(libc)) if libm and libc else None


def library_symbol(name: str) -> bool:
    """Is name a libm function (LLVM folds and rewrites calls to those by name, defined or
    not) or a C runtime function that generated code calls (malloc, memcpy, ...)?"""
    if name in _C_RUNTIME:
        return True
    libs = _libraries()
    if libs is None:
        return False
    libm, libc = libs
    try:  # (a lookup through libm's handle also finds libc's own symbols)
        return hasattr(libm, name) and not hasattr(libc, name)
    except (ValueError, TypeError):
        return False


def target_machine(
    target: Target, opt: int = 3, options: LlvmOptions | None = None
) -> llvm.TargetMachine:
    """A target machine from the target file; LLVM's process-wide options set to ``options``
    (the target file's by default, see ``eqsat.codegen.llvm_options``)."""
    _init()
    try:
        t = llvm.Target.from_triple(target.triple)
    except RuntimeError as e:
        raise CodegenError(
            f"target {target.name}: LLVM has no target for {target.triple}: {e}"
        ) from None
    apply_options(options or LlvmOptions.of(target))
    return t.create_target_machine(
        cpu=target.cpu, features=target.features, opt=opt, codemodel="jitdefault"
    )


def parse_and_optimize(
    text: str, tm: llvm.TargetMachine, triple: str, opt: int = 3
) -> llvm.ModuleRef:
    """Parse and verify our LLVM IR, then run LLVM's pipeline (O3 by default; O0 leaves
    constant inputs unfolded, which tests use to run every lowering's code)."""
    _init()
    try:
        mod = llvm.parse_assembly(text)
        mod.verify()
    except RuntimeError as e:
        raise CodegenError(f"internal error: emitted LLVM IR does not verify: {e}") from None
    mod.triple = triple
    mod.data_layout = str(tm.target_data)
    pto = llvm.create_pipeline_tuning_options(speed_level=opt)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    return mod


def emit_assembly(text: str, target: Target) -> str:
    tm = target_machine(target)
    return tm.emit_assembly(parse_and_optimize(text, tm, target.triple))


def optimized_ir(text: str, target: Target) -> str:
    tm = target_machine(target)
    return str(parse_and_optimize(text, tm, target.triple))


def jit(text: str, target: Target, opt: int = 3) -> llvm.ExecutionEngine:
    """An execution engine holding the compiled module (the host must run the target)."""
    if not target.runs_on_host():
        import platform

        arch = target.triple.split("-")[0]
        why = (
            f"it is {platform.machine()}, the target is {arch}"
            if arch != platform.machine().lower().replace("amd64", "x86_64")
            else f"it lacks {', '.join(missing_on_host(target.features, target.requires))}"
        )
        raise CodegenError(
            f"this host cannot execute code for target '{target.name}' ({why}); "
            "`eqsat opt FILE --emit asm --target " + target.name + "` shows its code"
        )
    tm = target_machine(target, opt)
    mod = parse_and_optimize(text, tm, target.triple, opt)
    if "half" in text or "bfloat" in text:
        # Compiled once, to an object whose needs are checked before the JIT loads it (the
        # JIT aborts the process on a symbol it cannot resolve).
        obj = tm.emit_object(mod)
        needs = undefined_symbols(obj)
        if needs is not None:
            _check_runtime_calls(needs, target)
            empty = llvm.parse_assembly("")
            empty.triple = target.triple
            engine = llvm.create_mcjit_compiler(empty, tm)
            engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
            engine.finalize_object()
            return engine
        _check_runtime_calls(_asm_needs(tm.emit_assembly(mod)), target)
    engine = llvm.create_mcjit_compiler(mod, tm)
    engine.finalize_object()
    engine.run_static_constructors()
    return engine


def undefined_symbols(obj: bytes) -> set[str] | None:
    """The names an ELF64 little-endian object file needs from elsewhere (its undefined
    symbols); None for another format."""
    import struct

    if obj[:4] != b"\x7fELF" or obj[4:6] != b"\x02\x01":
        return None
    (shoff,) = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    names: set[str] = set()
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2 or not entsize:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for k in range(size // entsize):
            name, _, _, shndx, _, _ = struct.unpack_from("<IBBHQQ", obj, offset + k * entsize)
            if shndx == 0 and name:  # SHN_UNDEF
                start = strings + name
                names.add(obj[start : obj.index(b"\0", start)].decode())
    return names


_RUNTIME_CALL = re.compile(r"\$?\b(__[A-Za-z0-9_]+)\b")


def _asm_needs(asm: str) -> set[str]:
    """The ``__`` names assembly text refers to and does not define."""
    defined = set(re.findall(r"^(__[A-Za-z0-9_]+):", asm, re.M))
    return set(_RUNTIME_CALL.findall(asm)) - defined


def _check_runtime_calls(needs: set[str], target: Target) -> None:
    """Every compiler-runtime function the code calls (half-precision conversions on targets
    without F16C) must exist in this process: an unresolved one would crash the JIT."""
    for name in sorted(needs):
        if name.startswith("__") and not name.startswith("__LCPI") and (
            not llvm.address_of_symbol(name)
        ):
            raise CodegenError(
                f"code for target '{target.name}' calls the runtime function {name} (a "
                "half-precision conversion), which this process does not provide"
            )

"""Target files (``costs/*.toml``): the shipped ones load; malformed ones name file, line, key."""

import pytest

from eqsat.targets import TargetError, builtin_targets, load_target


def test_shipped_targets_load():
    assert set(builtin_targets()) >= {"x86-64-v2", "avx2", "avx512", "neon"}
    widths = {n: load_target(n).lanes("f32") for n in ("x86-64-v2", "avx2", "avx512", "neon")}
    assert widths == {"x86-64-v2": 4, "avx2": 8, "avx512": 16, "neon": 4}
    assert load_target("neon").triple.startswith("aarch64")
    assert not load_target("neon").runs_on_host()  # this suite runs on x86-64


def _write(tmp_path, text):
    p = tmp_path / "t.toml"
    p.write_text(text)
    return str(p)


GOOD = """[target]
triple = "x86_64-unknown-linux-gnu"
cpu = "x86-64-v3"
features = "+avx2"
vector_bits = 256
registers = 16

[width]
f32 = 8
"""


@pytest.mark.parametrize(
    "text, line, needle",
    [
        (GOOD.replace("registers = 16", "registers = \"many\""), 6, "'registers' must be a int"),
        (GOOD.replace("f32 = 8", "f32 = 6"), 9, "power of two"),
        (GOOD.replace("f32 = 8", "q7 = 8"), 9, "unknown element type 'q7'"),
        (GOOD.replace("cpu = ", "cpu == "), 3, "error:"),
        (GOOD.replace('cpu = "x86-64-v3"\n', ""), 1, "needs 'cpu'"),
        (GOOD.replace("registers = 16", 'registers = 16\nschedule = "sideways"'), 7,
         "'schedule' must be one of bottomup, topdown, bidirectional"),
    ],
)
def test_malformed_target_files_name_line_and_key(tmp_path, text, line, needle):
    path = _write(tmp_path, text)
    with pytest.raises(TargetError) as e:
        load_target(path)
    assert str(e.value).startswith(f"{path}:{line}: error:"), str(e.value)
    assert needle in str(e.value)


def test_unknown_target_lists_the_known_ones():
    with pytest.raises(TargetError, match="unknown target 'avx9'.*avx2"):
        load_target("avx9")


def test_schedule_defaults_to_llvms_and_avx2_schedules_top_down(tmp_path):
    assert load_target(_write(tmp_path, GOOD)).schedule == "bottomup"
    assert load_target("avx2").schedule == "topdown"
    assert load_target("x86-64-v2").schedule == "bottomup"

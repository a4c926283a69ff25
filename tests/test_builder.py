"""The builder API makes the same IR as parsing the equivalent text."""

from __future__ import annotations

import numpy as np
import pytest

from frontend import VerifyError, parse, print_module
from frontend.builder import Builder, affine_map, parse_type, typed_attr, vector_type
from frontend.types import f32, index


def same_as_text(b: Builder, text: str) -> None:
    built = print_module(b.module())
    assert built == print_module(parse(text)), built
    assert print_module(b.module(), generic=True) == print_module(parse(text), generic=True)


def test_transpose_with_inferred_result() -> None:
    b = Builder()
    with b.function("entry", [vector_type([4, 8], "f32")]) as (_, args):
        x = b.op("vector.transpose", [args[0]], permutation=[1, 0])
        b.ret(x)
    same_as_text(
        b,
        """
func.func @entry(%arg0: vector<4x8xf32>) -> vector<8x4xf32> {
  %0 = vector.transpose %arg0, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  return %0 : vector<8x4xf32>
}""",
    )


def test_contract_matmul() -> None:
    b = Builder()
    a_t, b_t, c_t = (vector_type(s, f32) for s in ([4, 3], [3, 7], [4, 7]))
    with b.function("matmul", [a_t, b_t, c_t], [c_t]) as (_, (lhs, rhs, acc)):
        r = b.op(
            "vector.contract",
            [lhs, rhs, acc],
            indexing_maps=[
                affine_map(m)
                for m in ("(i, j, k) -> (i, k)", "(i, j, k) -> (k, j)", "(i, j, k) -> (i, j)")
            ],
            iterator_types=["parallel", "parallel", "reduction"],
            kind="add",
        )
        b.ret(r)
    same_as_text(
        b,
        """
#maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
         affine_map<(i, j, k) -> (i, j)>]
func.func @matmul(%a: vector<4x3xf32>, %b: vector<3x7xf32>, %c: vector<4x7xf32>)
    -> vector<4x7xf32> {
  %0 = vector.contract {indexing_maps = #maps,
                        iterator_types = ["parallel", "parallel", "reduction"]}
       %a, %b, %c : vector<4x3xf32>, vector<3x7xf32> into vector<4x7xf32>
  return %0 : vector<4x7xf32>
}""",
    )


def test_transfer_read_default_and_permuted_maps() -> None:
    b = Builder()
    mem = parse_type("memref<?x?xf32>")
    with b.function("read", [mem, index]) as (_, (m, i)):
        pad = b.constant(0.0, f32)
        v = b.op("vector.transfer_read", [m, [i, i], pad], [vector_type([8], f32)])
        w = b.op(
            "vector.transfer_read",
            [m, [i, i], pad],
            [vector_type([4, 8], f32)],
            permutation_map=affine_map("(d0, d1) -> (d1, d0)"),
            in_bounds=[True, False],
        )
        mask = b.op("vector.create_mask", [i], [vector_type([8], "i1")])
        b.op("vector.transfer_write", [v, m, [i, i], mask])
        b.ret(w)
    same_as_text(
        b,
        """
func.func @read(%m: memref<?x?xf32>, %i: index) -> vector<4x8xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i], %pad : memref<?x?xf32>, vector<8xf32>
  %w = vector.transfer_read %m[%i, %i], %pad
         {permutation_map = affine_map<(d0, d1) -> (d1, d0)>, in_bounds = [true, false]}
         : memref<?x?xf32>, vector<4x8xf32>
  %mask = vector.create_mask %i : vector<8xi1>
  vector.transfer_write %v, %m[%i, %i], %mask : vector<8xf32>, memref<?x?xf32>
  return %w : vector<4x8xf32>
}""",
    )


def test_scf_for_with_iter_args() -> None:
    b = Builder()
    vt = vector_type([4], f32)
    with b.function("sum", [vt]) as (_, (x,)):
        zero = b.constant(np.zeros(4), vt)
        lb, ub, step = (b.constant(n, index) for n in (0, 8, 1))
        with b.region([index, vt]) as (body, (_iv, acc)):
            s = b.op("arith.addf", [acc, x])
            b.op("scf.yield", [s])
        loop = b.op("scf.for", [lb, ub, step, [zero]], [vt], regions=[body])
        total = b.op("vector.reduction", [loop], kind="add")
        b.ret(total)
    same_as_text(
        b,
        """
func.func @sum(%x: vector<4xf32>) -> f32 {
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %s = arith.addf %acc, %x : vector<4xf32>
    scf.yield %s : vector<4xf32>
  }
  %t = vector.reduction <add>, %r : vector<4xf32> into f32
  return %t : f32
}""",
    )


def test_multi_result_ops_extract_and_constants() -> None:
    b = Builder()
    with b.function("f", [vector_type([2, 8], "i32")]) as (_, (x,)):
        row = b.op("vector.extract", [x], static_position=[1])
        de = b.op("vector.deinterleave", [row])
        lanes = b.constant([[1, 2], [3, 4]], vector_type([2, 2], "i32"))
        b.ret(*de.results, lanes)
    same_as_text(
        b,
        """
func.func @f(%x: vector<2x8xi32>) -> (vector<4xi32>, vector<4xi32>, vector<2x2xi32>) {
  %r = vector.extract %x[1] : vector<8xi32> from vector<2x8xi32>
  %a, %b = vector.deinterleave %r : vector<8xi32> -> vector<4xi32>
  %c = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  return %a, %b, %c : vector<4xi32>, vector<4xi32>, vector<2x2xi32>
}""",
    )


def test_builder_errors_are_clear() -> None:
    b = Builder()
    with b.function("f", [vector_type([4], f32)]) as (_, (x,)):
        with pytest.raises(ValueError, match="unknown operation 'vector.nope'"):
            b.op("vector.nope", [x])
        with pytest.raises(ValueError, match="kind"):
            b.op("vector.reduction", [x], kind="average")
        with pytest.raises(ValueError, match="has no attribute 'colour'"):
            b.op("vector.reduction", [x], kind="add", colour=3)
        with pytest.raises(ValueError, match="give result_types"):
            b.op("vector.broadcast", [x])
        b.op("vector.shape_cast", [x], [vector_type([3], f32)])  # wrong element count
        b.ret()
    with pytest.raises(VerifyError, match="different number of elements"):
        b.module()
    with pytest.raises(ValueError, match="does not fit"):
        typed_attr(300, "i8")

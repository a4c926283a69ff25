"""The reference interpreter on the vector ops (all 43, masked and scalable forms): small
programs with hand-checked printed output.

Each case is the body of ``func.func @entry()`` and the exact text its ``vector.print`` ops
write. Values are chosen so the result is exact and obvious (worked out in the comments where
it is not). ``test_every_op_has_semantics`` keeps the table complete.
"""

from __future__ import annotations

import io

import pytest

from eqsat.interpreter import Interpreter
from frontend import parse
from frontend.ops import all_specs

C = """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
"""
# A memref<8xi32> holding 0, 10, ..., 70 (for the memory ops).
M8 = (
    C
    + """
  %m = memref.alloc() : memref<8xi32>
  %init = arith.constant dense<[0, 10, 20, 30, 40, 50, 60, 70]> : vector<8xi32>
  vector.store %init, %m[%c0] : memref<8xi32>, vector<8xi32>
"""
)
SHOW8 = """
  %all = vector.load %m[%c0] : memref<8xi32>, vector<8xi32>
  vector.print %all : vector<8xi32>
"""
V4 = "  %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>\n"
MM = (
    "indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
    'affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]'
)


def run(body: str, vscale: int = 1, prelude: str = "") -> str:
    text = f"{prelude}\nfunc.func @entry() {{\n{body}\n  return\n}}\n"
    out = io.StringIO()
    Interpreter(parse(text, "<case>"), vscale=vscale, out=out).call("entry")
    return out.getvalue()


VECTOR_CASES = {
    "vscale": ("%v = vector.vscale\n vector.print %v : index", "1\n"),
    "bitcast": (  # little-endian: [1, 2] -> 0x0201 = 513, [3, 4] -> 0x0403 = 1027
        """%a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi8>
        %b = vector.bitcast %a : vector<4xi8> to vector<2xi16>
        vector.print %b : vector<2xi16>""",
        "( 513, 1027 )\n",
    ),
    "broadcast": (
        """%x = arith.constant 1.5 : f32
        %b = vector.broadcast %x : f32 to vector<2x2xf32>
        vector.print %b : vector<2x2xf32>
        %r = arith.constant dense<[1, 2, 3]> : vector<3xi32>
        %s = vector.broadcast %r : vector<3xi32> to vector<2x3xi32>
        vector.print %s : vector<2x3xi32>""",
        "( ( 1.5, 1.5 ), ( 1.5, 1.5 ) )\n( ( 1, 2, 3 ), ( 1, 2, 3 ) )\n",
    ),
    "compressstore": (  # set lanes 0, 2, 3 go to m[1], m[2], m[3]
        M8
        + """%mk = arith.constant dense<[true, false, true, true]> : vector<4xi1>
        %x = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
        vector.compressstore %m[%c1], %mk, %x : memref<8xi32>, vector<4xi1>, vector<4xi32>"""
        + SHOW8,
        "( 0, -1, -3, -4, 40, 50, 60, 70 )\n",
    ),
    "constant_mask": (
        """%k = vector.constant_mask [2, 1] : vector<3x2xi1>
        vector.print %k : vector<3x2xi1>""",
        "( ( 1, 0 ), ( 1, 0 ), ( 0, 0 ) )\n",
    ),
    "contract": (  # [[1,2],[3,4]] @ [[5,6],[7,8]] + 1 = [[20,23],[44,51]]; dot 1*4+2*5+3*6 + .5
        f"""%a = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
        %b = arith.constant dense<[[5, 6], [7, 8]]> : vector<2x2xi32>
        %acc = arith.constant dense<1> : vector<2x2xi32>
        %r = vector.contract {{{MM}}} %a, %b, %acc : vector<2x2xi32>, vector<2x2xi32>
          into vector<2x2xi32>
        vector.print %r : vector<2x2xi32>
        %x = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
        %y = arith.constant dense<[4.0, 5.0, 6.0]> : vector<3xf32>
        %h = arith.constant 0.5 : f32
        %d = vector.contract {{indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>,
          affine_map<(k) -> ()>], iterator_types = ["reduction"]}} %x, %y, %h
          : vector<3xf32>, vector<3xf32> into f32
        vector.print %d : f32""",
        "( ( 20, 23 ), ( 44, 51 ) )\n32.5\n",
    ),
    "create_mask": (  # bounds clamp to [0, size]
        C
        + """%n = arith.constant -1 : index
        %c9 = arith.constant 9 : index
        %k = vector.create_mask %c2, %c1 : vector<3x2xi1>
        vector.print %k : vector<3x2xi1>
        %f = vector.create_mask %c9 : vector<3xi1>
        vector.print %f : vector<3xi1>
        %e = vector.create_mask %n : vector<2xi1>
        vector.print %e : vector<2xi1>""",
        "( ( 1, 0 ), ( 1, 0 ), ( 0, 0 ) )\n( 1, 1, 1 )\n( 0, 0 )\n",
    ),
    "deinterleave": (
        """%v = arith.constant dense<[0, 1, 2, 3, 4, 5]> : vector<6xi32>
        %a, %b = vector.deinterleave %v : vector<6xi32> -> vector<3xi32>
        vector.print %a : vector<3xi32>
        vector.print %b : vector<3xi32>""",
        "( 0, 2, 4 )\n( 1, 3, 5 )\n",
    ),
    "expandload": (  # set lanes take m[2], m[3] in turn
        M8
        + """%mk = arith.constant dense<[false, true, true, false]> : vector<4xi1>
        %p = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
        %r = vector.expandload %m[%c2], %mk, %p : memref<8xi32>, vector<4xi1>, vector<4xi32>
          into vector<4xi32>
        vector.print %r : vector<4xi32>""",
        "( -1, 20, 30, -4 )\n",
    ),
    "extractelement": (
        C
        + """%v = arith.constant dense<[1.5, 2.5, 3.5]> : vector<3xf32>
        %e = vector.extractelement %v[%c2 : index] : vector<3xf32>
        vector.print %e : f32
        %i = arith.constant 1 : i32
        %f = vector.extractelement %v[%i : i32] : vector<3xf32>
        vector.print %f : f32
        %z = arith.constant dense<7.0> : vector<f32>
        %g = vector.extractelement %z[] : vector<f32>
        vector.print %g : f32""",
        "3.5\n2.5\n7\n",
    ),
    "extract": (
        C
        + """%m = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
        %r = vector.extract %m[1] : vector<3xi32> from vector<2x3xi32>
        vector.print %r : vector<3xi32>
        %e = vector.extract %m[0, 2] : i32 from vector<2x3xi32>
        vector.print %e : i32
        %d = vector.extract %m[%c1, %c0] : i32 from vector<2x3xi32>
        vector.print %d : i32""",
        "( 4, 5, 6 )\n3\n4\n",
    ),
    "extract_strided_slice": (
        """%v = arith.constant dense<[0, 1, 2, 3, 4, 5]> : vector<6xi32>
        %s = vector.extract_strided_slice %v {offsets = [2], sizes = [3], strides = [1]}
          : vector<6xi32> to vector<3xi32>
        vector.print %s : vector<3xi32>
        %m = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : vector<3x3xi32>
        %t = vector.extract_strided_slice %m {offsets = [1, 1], sizes = [2, 2], strides = [1, 1]}
          : vector<3x3xi32> to vector<2x2xi32>
        vector.print %t : vector<2x2xi32>""",
        "( 2, 3, 4 )\n( ( 5, 6 ), ( 8, 9 ) )\n",
    ),
    "fma": (
        """%a = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
        %b = arith.constant dense<[3.0, 4.0]> : vector<2xf32>
        %c = arith.constant dense<0.5> : vector<2xf32>
        %r = vector.fma %a, %b, %c : vector<2xf32>
        vector.print %r : vector<2xf32>""",
        "( 3.5, 8.5 )\n",
    ),
    "flat_transpose": (  # row-major 2x3 [[0,1,2],[3,4,5]] -> 3x2 [[0,3],[1,4],[2,5]]
        """%v = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : vector<6xf32>
        %t = vector.flat_transpose %v {rows = 2 : i32, columns = 3 : i32}
          : vector<6xf32> -> vector<6xf32>
        vector.print %t : vector<6xf32>""",
        "( 0, 3, 1, 4, 2, 5 )\n",
    ),
    "from_elements": (
        """%a = arith.constant 1.0 : f32
        %b = arith.constant 2.0 : f32
        %v = vector.from_elements %a, %b, %b, %a : vector<2x2xf32>
        vector.print %v : vector<2x2xf32>""",
        "( ( 1, 2 ), ( 2, 1 ) )\n",
    ),
    "gather": (  # masked-off lane 2 has an out-of-range index and is not read
        M8
        + """%ix = arith.constant dense<[5, 0, 99, 1]> : vector<4xi32>
        %mk = arith.constant dense<[true, true, false, true]> : vector<4xi1>
        %p = arith.constant dense<-1> : vector<4xi32>
        %g = vector.gather %m[%c1][%ix], %mk, %p : memref<8xi32>, vector<4xi32>, vector<4xi1>,
          vector<4xi32> into vector<4xi32>
        vector.print %g : vector<4xi32>""",
        "( 60, 10, -1, 20 )\n",
    ),
    "insertelement": (
        C
        + """%v = arith.constant dense<[1.5, 2.5, 3.5]> : vector<3xf32>
        %x = arith.constant 9.0 : f32
        %r = vector.insertelement %x, %v[%c1 : index] : vector<3xf32>
        vector.print %r : vector<3xf32>""",
        "( 1.5, 9, 3.5 )\n",
    ),
    "insert": (
        C
        + """%m = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
        %s = arith.constant 9 : i32
        %a = vector.insert %s, %m[1, 0] : i32 into vector<2x2xi32>
        vector.print %a : vector<2x2xi32>
        %row = arith.constant dense<[7, 8]> : vector<2xi32>
        %b = vector.insert %row, %m[%c0] : vector<2xi32> into vector<2x2xi32>
        vector.print %b : vector<2x2xi32>""",
        "( ( 1, 2 ), ( 9, 4 ) )\n( ( 7, 8 ), ( 3, 4 ) )\n",
    ),
    "insert_strided_slice": (
        """%d = arith.constant dense<0> : vector<5xi32>
        %s = arith.constant dense<[1, 2]> : vector<2xi32>
        %r = vector.insert_strided_slice %s, %d {offsets = [2], strides = [1]}
          : vector<2xi32> into vector<5xi32>
        vector.print %r : vector<5xi32>""",
        "( 0, 0, 1, 2, 0 )\n",
    ),
    "interleave": (
        """%a = arith.constant dense<[1, 2]> : vector<2xi32>
        %b = arith.constant dense<[3, 4]> : vector<2xi32>
        %r = vector.interleave %a, %b : vector<2xi32> -> vector<4xi32>
        vector.print %r : vector<4xi32>""",
        "( 1, 3, 2, 4 )\n",
    ),
    "load_store": (  # 2-D memref: a row-major slice along the innermost dim
        C
        + """%m = memref.alloca() : memref<2x3xf32>
        %v = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
        vector.store %v, %m[%c1, %c0] : memref<2x3xf32>, vector<3xf32>
        %r = vector.load %m[%c1, %c1] : memref<2x3xf32>, vector<2xf32>
        vector.print %r : vector<2xf32>
        %z = vector.load %m[%c0, %c0] : memref<2x3xf32>, vector<3xf32>
        vector.print %z : vector<3xf32>""",
        "( 2, 3 )\n( 0, 0, 0 )\n",
    ),
    "maskedload": (  # lane 3 would be m[8] (out of bounds) but is masked off
        M8
        + """%mk = arith.constant dense<[true, false, true, false]> : vector<4xi1>
        %p = arith.constant dense<9> : vector<4xi32>
        %c5 = arith.constant 5 : index
        %r = vector.maskedload %m[%c5], %mk, %p : memref<8xi32>, vector<4xi1>, vector<4xi32>
          into vector<4xi32>
        vector.print %r : vector<4xi32>""",
        "( 50, 9, 70, 9 )\n",
    ),
    "maskedstore": (
        M8
        + """%mk = arith.constant dense<[true, false, true, false]> : vector<4xi1>
        %x = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
        vector.maskedstore %m[%c2], %mk, %x : memref<8xi32>, vector<4xi1>, vector<4xi32>"""
        + SHOW8,
        "( 0, 10, -1, 30, -3, 50, 60, 70 )\n",
    ),
    "matrix_multiply": (  # row-major [[1,2,3],[4,5,6]] @ [[1,.5],[-1,2],[0,1]]
        """%a = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : vector<6xf32>
        %b = arith.constant dense<[1.0, 0.5, -1.0, 2.0, 0.0, 1.0]> : vector<6xf32>
        %p = vector.matrix_multiply %a, %b {lhs_rows = 2 : i32, lhs_columns = 3 : i32,
          rhs_columns = 2 : i32} : (vector<6xf32>, vector<6xf32>) -> vector<4xf32>
        vector.print %p : vector<4xf32>""",
        "( -1, 7.5, -1, 18 )\n",
    ),
    "multi_reduction": (
        """%s = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
        %acc = arith.constant dense<[10, 20]> : vector<2xi32>
        %r = vector.multi_reduction <add>, %s, %acc [1] : vector<2x3xi32> to vector<2xi32>
        vector.print %r : vector<2xi32>
        %z = arith.constant 0 : i32
        %t = vector.multi_reduction <maxsi>, %s, %z [0, 1] : vector<2x3xi32> to i32
        vector.print %t : i32""",
        "( 16, 35 )\n6\n",
    ),
    "outerproduct": (
        """%a = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
        %b = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
        %o = vector.outerproduct %a, %b : vector<2xf32>, vector<3xf32>
        vector.print %o : vector<2x3xf32>
        %acc = arith.constant dense<[0.5, -1.0]> : vector<2xf32>
        %s = arith.constant 2.0 : f32
        %x = vector.outerproduct %a, %s, %acc : vector<2xf32>, f32
        vector.print %x : vector<2xf32>""",
        "( ( 3, 4, 5 ), ( 6, 8, 10 ) )\n( 2.5, 3 )\n",
    ),
    "reduction": (
        V4
        + """%acc = arith.constant 10 : i32
        %a = vector.reduction <add>, %v, %acc : vector<4xi32> into i32
        vector.print %a : i32
        %m = vector.reduction <mul>, %v : vector<4xi32> into i32
        vector.print %m : i32
        %f = arith.constant dense<[1.0, 0x7FC00000, -3.0]> : vector<3xf32>
        %x = vector.reduction <maxnumf>, %f : vector<3xf32> into f32
        vector.print %x : f32
        %y = vector.reduction <maximumf>, %f : vector<3xf32> into f32
        vector.print %y : f32""",
        "20\n24\n1\nnan\n",
    ),
    "scan": (  # inclusive prefix sums; the second result is the last one (a 0-D vector)
        """%s = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
        %i = arith.constant dense<0> : vector<i32>
        %d, %a = vector.scan <add>, %s, %i {inclusive = true, reduction_dim = 0 : i64}
          : vector<4xi32>, vector<i32>
        vector.print %d : vector<4xi32>
        vector.print %a : vector<i32>""",
        "( 1, 3, 6, 10 )\n( 10 )\n",
    ),
    "scatter": (
        M8
        + """%ix = arith.constant dense<[3, 0, 99]> : vector<3xindex>
        %mk = arith.constant dense<[true, true, false]> : vector<3xi1>
        %x = arith.constant dense<[-1, -2, -3]> : vector<3xi32>
        vector.scatter %m[%c1][%ix], %mk, %x : memref<8xi32>, vector<3xindex>, vector<3xi1>,
          vector<3xi32>"""
        + SHOW8,
        "( 0, -2, 20, 30, -1, 50, 60, 70 )\n",
    ),
    "shape_cast": (
        """%m = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
        %f = vector.shape_cast %m : vector<2x3xi32> to vector<3x2xi32>
        vector.print %f : vector<3x2xi32>""",
        "( ( 1, 2 ), ( 3, 4 ), ( 5, 6 ) )\n",
    ),
    "shuffle": (
        """%a = arith.constant dense<[1, 2]> : vector<2xi32>
        %b = arith.constant dense<[3, 4]> : vector<2xi32>
        %r = vector.shuffle %a, %b [0, 3, 1, 2, 2] : vector<2xi32>, vector<2xi32>
        vector.print %r : vector<5xi32>""",
        "( 1, 4, 2, 3, 3 )\n",
    ),
    "splat": (
        """%x = arith.constant -2 : i8
        %v = vector.splat %x : vector<3xi8>
        vector.print %v : vector<3xi8>""",
        "( -2, -2, -2 )\n",
    ),
    "step": (
        "%s = vector.step : vector<4xindex>\n vector.print %s : vector<4xindex>",
        "( 0, 1, 2, 3 )\n",
    ),
    "transfer_read": (  # out-of-bounds lanes read the padding; a transposed map reads columns
        C
        + """%m = memref.alloca() : memref<2x3xi32>
        %v = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
        vector.transfer_write %v, %m[%c0, %c0] : vector<2x3xi32>, memref<2x3xi32>
        %pad = arith.constant -1 : i32
        %a = vector.transfer_read %m[%c1, %c1], %pad : memref<2x3xi32>, vector<4xi32>
        vector.print %a : vector<4xi32>
        %t = vector.transfer_read %m[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1)
          -> (d1, d0)>} : memref<2x3xi32>, vector<3x2xi32>
        vector.print %t : vector<3x2xi32>
        %b = vector.transfer_read %m[%c1, %c0], %pad {permutation_map = affine_map<(d0, d1)
          -> (0, d1)>, in_bounds = [true, true]} : memref<2x3xi32>, vector<2x3xi32>
        vector.print %b : vector<2x3xi32>""",
        "( 5, 6, -1, -1 )\n( ( 1, 4 ), ( 2, 5 ), ( 3, 6 ) )\n( ( 4, 5, 6 ), ( 4, 5, 6 ) )\n",
    ),
    "transfer_write": (  # lanes past the end are dropped; a mask skips lanes
        M8
        + """%x = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
        %c6 = arith.constant 6 : index
        vector.transfer_write %x, %m[%c6] : vector<4xi32>, memref<8xi32>
        %mk = arith.constant dense<[false, true, true, false]> : vector<4xi1>
        vector.transfer_write %x, %m[%c0], %mk : vector<4xi32>, memref<8xi32>"""
        + SHOW8,
        "( 0, -2, -3, 30, 40, 50, -1, -2 )\n",
    ),
    "transpose": (
        """%m = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
        %t = vector.transpose %m, [1, 0] : vector<2x3xi32> to vector<3x2xi32>
        vector.print %t : vector<3x2xi32>""",
        "( ( 1, 4 ), ( 2, 5 ), ( 3, 6 ) )\n",
    ),
    "type_cast": (  # the vector memref aliases the scalar one
        C
        + """%m = memref.alloca() : memref<2x2xf32>
        %x = arith.constant 4.5 : f32
        memref.store %x, %m[%c1, %c0] : memref<2x2xf32>
        %t = vector.type_cast %m : memref<2x2xf32> to memref<vector<2x2xf32>>
        %v = memref.load %t[] : memref<vector<2x2xf32>>
        vector.print %v : vector<2x2xf32>""",
        "( ( 0, 0 ), ( 4.5, 0 ) )\n",
    ),
}

MASK_CASES = {
    "reduction": (  # masked-off lanes are the neutral element: 1 + 3 and 1 * 3
        V4
        + """%k = arith.constant dense<[true, false, true, false]> : vector<4xi1>
        %a = vector.mask %k { vector.reduction <add>, %v : vector<4xi32> into i32 }
          : vector<4xi1> -> i32
        vector.print %a : i32
        %m = vector.mask %k { vector.reduction <mul>, %v : vector<4xi32> into i32 }
          : vector<4xi1> -> i32
        vector.print %m : i32""",
        "4\n3\n",
    ),
    "transfer_read_passthru": (  # masked off: passthru; on but out of bounds: padding
        M8
        + """%k = arith.constant dense<[true, false, true, true]> : vector<4xi1>
        %pt = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
        %pad = arith.constant 99 : i32
        %c6 = arith.constant 6 : index
        %r = vector.mask %k, %pt { vector.transfer_read %m[%c6], %pad
          : memref<8xi32>, vector<4xi32> } : vector<4xi1> -> vector<4xi32>
        vector.print %r : vector<4xi32>
        %q = vector.mask %k { vector.transfer_read %m[%c6], %pad
          : memref<8xi32>, vector<4xi32> } : vector<4xi1> -> vector<4xi32>
        vector.print %q : vector<4xi32>""",
        "( 60, -2, 99, 99 )\n( 60, 99, 99, 99 )\n",
    ),
    "transfer_write": (
        M8
        + """%k = arith.constant dense<[true, false, false, true]> : vector<4xi1>
        %x = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
        vector.mask %k { vector.transfer_write %x, %m[%c1] : vector<4xi32>, memref<8xi32> }
          : vector<4xi1>"""
        + SHOW8,
        "( 0, -1, 20, 30, -4, 50, 60, 70 )\n",
    ),
    "multi_reduction": (
        """%s = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
        %acc = arith.constant dense<0> : vector<2xi32>
        %k = vector.constant_mask [2, 2] : vector<2x3xi1>
        %r = vector.mask %k { vector.multi_reduction <add>, %s, %acc [1]
          : vector<2x3xi32> to vector<2xi32> } : vector<2x3xi1> -> vector<2xi32>
        vector.print %r : vector<2xi32>""",
        "( 3, 9 )\n",
    ),
    "contract": (  # the mask covers the iteration space (i, j, k): only k = 0 counts
        f"""%a = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
        %b = arith.constant dense<[[5, 6], [7, 8]]> : vector<2x2xi32>
        %acc = arith.constant dense<0> : vector<2x2xi32>
        %k = vector.constant_mask [2, 2, 1] : vector<2x2x2xi1>
        %r = vector.mask %k {{ vector.contract {{{MM}}} %a, %b, %acc
          : vector<2x2xi32>, vector<2x2xi32> into vector<2x2xi32> }}
          : vector<2x2x2xi1> -> vector<2x2xi32>
        vector.print %r : vector<2x2xi32>""",
        "( ( 5, 6 ), ( 15, 18 ) )\n",
    ),
    "outerproduct": (  # masked-off lanes keep acc
        """%a = arith.constant dense<[1, 2]> : vector<2xi32>
        %b = arith.constant dense<[3, 4]> : vector<2xi32>
        %acc = arith.constant dense<[[10, 20], [30, 40]]> : vector<2x2xi32>
        %k = arith.constant dense<[[true, false], [false, true]]> : vector<2x2xi1>
        %r = vector.mask %k { vector.outerproduct %a, %b, %acc : vector<2xi32>, vector<2xi32> }
          : vector<2x2xi1> -> vector<2x2xi32>
        vector.print %r : vector<2x2xi32>""",
        "( ( 13, 20 ), ( 30, 48 ) )\n",
    ),
    "gather": (
        M8
        + """%ix = arith.constant dense<[1, 2]> : vector<2xindex>
        %on = arith.constant dense<true> : vector<2xi1>
        %p = arith.constant dense<-5> : vector<2xi32>
        %k = arith.constant dense<[false, true]> : vector<2xi1>
        %g = vector.mask %k { vector.gather %m[%c0][%ix], %on, %p : memref<8xi32>,
          vector<2xindex>, vector<2xi1>, vector<2xi32> into vector<2xi32> }
          : vector<2xi1> -> vector<2xi32>
        vector.print %g : vector<2xi32>""",
        "( -5, 20 )\n",
    ),
    "elementwise": (  # MLIR 19 accepts element-wise ops: masked-off lanes are passthru or 0
        V4
        + """%k = arith.constant dense<[true, false, true, false]> : vector<4xi1>
        %a = vector.mask %k { arith.addi %v, %v : vector<4xi32> } : vector<4xi1> -> vector<4xi32>
        vector.print %a : vector<4xi32>
        %b = vector.mask %k, %v { arith.muli %v, %v : vector<4xi32> }
          : vector<4xi1> -> vector<4xi32>
        vector.print %b : vector<4xi32>""",
        "( 2, 0, 6, 0 )\n( 1, 2, 9, 4 )\n",
    ),
}

SCALABLE_CASES = {  # run with vscale = 2
    "vscale": ("%v = vector.vscale\n vector.print %v : index", "2\n"),
    "step_broadcast": (
        """%s = vector.step : vector<[2]xindex>
        vector.print %s : vector<[2]xindex>
        %x = arith.constant 1.5 : f32
        %b = vector.broadcast %x : f32 to vector<[2]xf32>
        vector.print %b : vector<[2]xf32>
        %c = arith.constant dense<7> : vector<[2]xi32>
        vector.print %c : vector<[2]xi32>""",
        "( 0, 1, 2, 3 )\n( 1.5, 1.5, 1.5, 1.5 )\n( 7, 7, 7, 7 )\n",
    ),
    "scalable_extract": (  # a fixed result: pos counts elements
        """%s = vector.step : vector<[4]xindex>
        %e = vector.scalable.extract %s[4] : vector<4xindex> from vector<[4]xindex>
        vector.print %e : vector<4xindex>""",
        "( 4, 5, 6, 7 )\n",
    ),
    "scalable_insert": (  # a scalable source: pos 2 is scaled to 4
        """%d = vector.step : vector<[4]xindex>
        %n = arith.constant 9 : index
        %s = vector.broadcast %n : index to vector<[2]xindex>
        %r = vector.scalable.insert %s, %d[2] : vector<[2]xindex> into vector<[4]xindex>
        vector.print %r : vector<[4]xindex>""",
        "( 0, 1, 2, 3, 9, 9, 9, 9 )\n",
    ),
    "create_mask": (
        """%c3 = arith.constant 3 : index
        %k = vector.create_mask %c3 : vector<[2]xi1>
        vector.print %k : vector<[2]xi1>""",
        "( 1, 1, 1, 0 )\n",
    ),
}


@pytest.mark.parametrize("name", VECTOR_CASES)
def test_vector_op(name: str) -> None:
    body, expected = VECTOR_CASES[name]
    assert run(body) == expected


@pytest.mark.parametrize("name", MASK_CASES)
def test_vector_mask(name: str) -> None:
    body, expected = MASK_CASES[name]
    assert run(body) == expected


@pytest.mark.parametrize("name", SCALABLE_CASES)
def test_scalable_with_vscale_2(name: str) -> None:
    body, expected = SCALABLE_CASES[name]
    assert run(body, vscale=2) == expected


def test_every_op_has_semantics() -> None:
    missing = sorted(name for name, spec in all_specs().items() if spec.eval is None)
    assert missing == []
    vector_ops = [n for n in all_specs() if n.startswith("vector.")]
    assert len(vector_ops) == 43


def test_accumulate_fold_is_the_element_loop() -> None:
    """The interpreter's fast reduction path gives the bits of the sequential element loop."""
    import numpy as np

    from frontend import semantics_vector as V

    def loop(kind, acc, items, elem, mask):
        for r in range(items.shape[-1]):
            nxt = V.combine(kind, acc, items[..., r], elem)
            acc = nxt if mask is None else np.where(mask[..., r], nxt, acc)
        return np.asarray(acc)

    rng = np.random.default_rng(7)
    pool = [0.0, -0.0, 1.0, -1.5, 3e38, -3e38, np.inf, -np.inf, np.nan, 1e-45, 0.1, 1e30]
    for _ in range(400):
        elem = str(rng.choice(["f32", "f64", "i8", "i16", "i32", "i64", "index"]))
        table = V._ACCUMULATE_FLOAT if elem[0] == "f" else V._ACCUMULATE_INT
        kind = str(rng.choice(list(table)))
        shape = tuple(int(s) for s in rng.integers(1, 4, size=rng.integers(0, 3)))
        shape += (int(rng.integers(1, 12)),)
        dt = V.dtype_of(elem)
        if elem[0] == "f":
            items = rng.choice(pool, size=shape) * rng.choice([1, 1.1, 3.3], size=shape)
            with np.errstate(over="ignore"):  # 3e38 * 3.3 is inf in f32
                items, acc = items.astype(dt), rng.choice(pool, size=shape[:-1]).astype(dt)
        else:
            info = np.iinfo(dt)
            items = rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
            acc = np.asarray(rng.integers(info.min, info.max, size=shape[:-1], dtype=dt))
        mask = rng.random(shape) < 0.6 if rng.random() < 0.5 else None
        with np.errstate(all="ignore"):
            fast = np.asarray(V._fold_accumulate(kind, acc, items, elem, mask))
            slow = loop(kind, acc, items, elem, mask).astype(dt)
        assert fast.dtype == dt and fast.tobytes() == slow.tobytes(), (elem, kind)


def test_transfers_on_tensors_are_values() -> None:
    body = (
        C
        + """%t = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %p = arith.constant -1 : i32
    %v = vector.transfer_read %t[%c1, %c1], %p : tensor<2x2xi32>, vector<2xi32>
    vector.print %v : vector<2xi32>
    %w = arith.constant dense<[7, 8]> : vector<2xi32>
    %t2 = vector.transfer_write %w, %t[%c0, %c1] : vector<2xi32>, tensor<2x2xi32>
    %r = vector.transfer_read %t2[%c0, %c0], %p : tensor<2x2xi32>, vector<2x2xi32>
    vector.print %r : vector<2x2xi32>
    %o = vector.transfer_read %t[%c0, %c0], %p : tensor<2x2xi32>, vector<2x2xi32>
    vector.print %o : vector<2x2xi32>"""
    )  # the write drops the lane past the end and leaves %t unchanged
    assert run(body) == "( 4, -1 )\n( ( 1, 7 ), ( 3, 4 ) )\n( ( 1, 2 ), ( 3, 4 ) )\n"

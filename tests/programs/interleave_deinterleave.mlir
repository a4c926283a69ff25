// REFERENCE: mlir22
// vector.interleave (trailing dims of two vectors alternated: a0, b0, a1, b1, ...) and
// vector.deinterleave (even and odd lanes of the trailing dim), 1-D and 2-D, i8/f16/f32/i64,
// and a round trip.
func.func @entry() {
  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi8>
  %b = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi8>
  %i0 = vector.interleave %a, %b : vector<4xi8> -> vector<8xi8>
  vector.print %i0 : vector<8xi8>
  %e, %o = vector.deinterleave %i0 : vector<8xi8> -> vector<4xi8>
  vector.print %e : vector<4xi8>
  vector.print %o : vector<4xi8>

  %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %n = arith.constant dense<[[0.5, 0.25, 0.125], [-1.0, -2.0, -3.0]]> : vector<2x3xf32>
  %i1 = vector.interleave %m, %n : vector<2x3xf32> -> vector<2x6xf32>
  vector.print %i1 : vector<2x6xf32>

  %p = arith.constant dense<[[10, 11, 12, 13], [20, 21, 22, 23]]> : vector<2x4xi64>
  %pe, %po = vector.deinterleave %p : vector<2x4xi64> -> vector<2x2xi64>
  vector.print %pe : vector<2x2xi64>
  vector.print %po : vector<2x2xi64>

  %h = arith.constant dense<[1.5, 2.5]> : vector<2xf16>
  %g = arith.constant dense<[-0.5, 100.0]> : vector<2xf16>
  %i2 = vector.interleave %h, %g : vector<2xf16> -> vector<4xf16>
  vector.print %i2 : vector<4xf16>
  %q = arith.constant dense<[7, 8]> : vector<2xi32>
  %qe, %qo = vector.deinterleave %q : vector<2xi32> -> vector<1xi32>
  vector.print %qe : vector<1xi32>
  vector.print %qo : vector<1xi32>
  return
}

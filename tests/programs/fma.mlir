// REFERENCE: mlir22
// vector.fma = lhs * rhs + acc with a single rounding, on 1-D/2-D f32, f64 and f16 vectors,
// and math.fma on scalars. Inputs are chosen so fused and unfused results differ:
// (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 in f32 (unfused: 0), and (1 + 2^-27)^2 - (1 + 2^-26)
// = 2^-54 in f64. arith.mulf followed by arith.addf is NOT fused (prints 0).
func.func @entry() {
  %a = arith.constant dense<[1.000244140625, 2.0, -3.0, 0.5]> : vector<4xf32>
  %c = arith.constant dense<[-1.00048828125, 1.0, 0.5, -0.25]> : vector<4xf32>
  %r = vector.fma %a, %a, %c : vector<4xf32>
  vector.print %r : vector<4xf32>
  %p = arith.mulf %a, %a : vector<4xf32>
  %u = arith.addf %p, %c : vector<4xf32>
  vector.print %u : vector<4xf32>

  %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %n = arith.constant dense<[[0.5, -1.0, 2.0], [0.25, 0.0, -2.0]]> : vector<2x3xf32>
  %k = arith.constant dense<[[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]> : vector<2x3xf32>
  %r2 = vector.fma %m, %n, %k : vector<2x3xf32>
  vector.print %r2 : vector<2x3xf32>

  %d = arith.constant dense<[1.0000000074505806, 3.0]> : vector<2xf64>
  %dc = arith.constant dense<[-1.0000000149011612, -9.0]> : vector<2xf64>
  %rd = vector.fma %d, %d, %dc : vector<2xf64>
  vector.print %rd : vector<2xf64>

  %h = arith.constant dense<[1.5, -2.0]> : vector<2xf16>
  %hc = arith.constant dense<[0.25, 100.0]> : vector<2xf16>
  %rh = vector.fma %h, %h, %hc : vector<2xf16>
  vector.print %rh : vector<2xf16>

  %s = arith.constant 1.000244140625 : f32
  %sc = arith.constant -1.00048828125 : f32
  %rs = math.fma %s, %s, %sc : f32
  vector.print %rs : f32
  return
}

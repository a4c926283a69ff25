// REFERENCE: mlir22
// math dialect on f32/f64 scalars and vectors: sqrt, rsqrt, exp, exp2, log, log2, log10,
// tanh, sin, cos, absf, absi, ceil, floor, round (half away from zero), roundeven, trunc,
// copysign, powf, fma. Inputs are chosen so the printed 6 significant digits do not depend on
// the last-ulp accuracy of the implementation (values are far from %g rounding boundaries).
func.func @entry() {
  %v = arith.constant dense<[0.25, 1.0, 2.0, 16.0, 100.0]> : vector<5xf32>
  %s = math.sqrt %v : vector<5xf32>
  vector.print %s : vector<5xf32>
  %rs = math.rsqrt %v : vector<5xf32>
  vector.print %rs : vector<5xf32>
  %x = arith.constant dense<[0.0, 1.0, -1.0, 0.5, 3.0]> : vector<5xf32>
  %e = math.exp %x : vector<5xf32>
  vector.print %e : vector<5xf32>
  %e2 = math.exp2 %x : vector<5xf32>
  vector.print %e2 : vector<5xf32>
  %lg = math.log %v : vector<5xf32>
  vector.print %lg : vector<5xf32>
  %l2 = math.log2 %v : vector<5xf32>
  vector.print %l2 : vector<5xf32>
  %l10 = math.log10 %v : vector<5xf32>
  vector.print %l10 : vector<5xf32>
  %t = math.tanh %x : vector<5xf32>
  vector.print %t : vector<5xf32>
  %sn = math.sin %x : vector<5xf32>
  vector.print %sn : vector<5xf32>
  %cs = math.cos %x : vector<5xf32>
  vector.print %cs : vector<5xf32>

  %r = arith.constant dense<[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -3.7, 3.2]> : vector<8xf32>
  %a = math.absf %r : vector<8xf32>
  vector.print %a : vector<8xf32>
  %c = math.ceil %r : vector<8xf32>
  vector.print %c : vector<8xf32>
  %f = math.floor %r : vector<8xf32>
  vector.print %f : vector<8xf32>
  %ro = math.round %r : vector<8xf32>
  vector.print %ro : vector<8xf32>
  %re = math.roundeven %r : vector<8xf32>
  vector.print %re : vector<8xf32>
  %tr = math.trunc %r : vector<8xf32>
  vector.print %tr : vector<8xf32>
  %sign = arith.constant dense<[1.0, -1.0, 1.0, -1.0, -0.0, 0.0, 1.0, -1.0]> : vector<8xf32>
  %cp = math.copysign %r, %sign : vector<8xf32>
  vector.print %cp : vector<8xf32>

  %i = arith.constant dense<[-7, 7, -128, 0]> : vector<4xi8>
  %ai = math.absi %i : vector<4xi8>
  vector.print %ai : vector<4xi8>

  %d = arith.constant 2.0 : f64
  %ds = math.sqrt %d : f64
  vector.print %ds : f64
  %de = math.exp %d : f64
  vector.print %de : f64
  %dl = math.log %d : f64
  vector.print %dl : f64
  %dt = math.tanh %d : f64
  vector.print %dt : f64
  %b = arith.constant 1.5 : f32
  %p3 = arith.constant 3.0 : f32
  %pw = math.powf %b, %p3 : f32
  vector.print %pw : f32
  %fm = math.fma %b, %p3, %b : f32
  vector.print %fm : f32
  return
}

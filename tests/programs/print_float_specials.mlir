// REFERENCE: mlir22
// How vector.print formats floats (C printf "%g" on the value widened to double): nan and
// -nan (sign of NaN is printed), inf, -inf, -0, 1e+10, 1e-05, 0.333333 (6 significant
// digits), 16777216 -> 1.67772e+07, 100000 vs 1e+06, denormals, f64 0.1 vs f32 0.1
// (0.1 both: %g hides the difference), f16 values (0.1 -> 0.0999756), inf and -0 produced
// by arithmetic, and negf of a NaN (flips the sign bit). NaNs *computed* by arithmetic
// (0/0, sqrt(-1)) are deliberately not printed: their sign differs between LLVM constant
// folding (+nan) and x86 hardware (-nan), so it is not well defined.
func.func @entry() {
  %v = arith.constant dense<[0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000, -0.0, 0.0]> : vector<6xf32>
  vector.print %v : vector<6xf32>
  %w = arith.constant dense<[1.0e10, 1.0e-5, 0.333333333, 16777216.0, 100000.0, 1000000.0, 123456789.0, 0.0001]> : vector<8xf32>
  vector.print %w : vector<8xf32>
  %dn = arith.constant dense<[1.0e-45, 1.17549435e-38, 3.40282347e+38, -1.5e-40]> : vector<4xf32>
  vector.print %dn : vector<4xf32>
  %d = arith.constant dense<[0.1, 1.0e100, 4.9406564584124654e-324, 0x7FF8000000000000, 0xFFF0000000000000, 2.5e-7]> : vector<6xf64>
  vector.print %d : vector<6xf64>
  %f1 = arith.constant 0.1 : f32
  vector.print %f1 : f32
  %h = arith.constant dense<[0.1, 65504.0, 6.0e-8, 0x7E00, 0xFC00, -0.0, 0.333]> : vector<7xf16>
  vector.print %h : vector<7xf16>

  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m1 = arith.constant -1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %pinf = arith.divf %one, %z : f32
  vector.print %pinf : f32
  %ninf = arith.divf %m1, %z : f32
  vector.print %ninf : f32
  %neg = arith.negf %nan : f32
  vector.print %neg : f32
  %pos = arith.negf %neg : f32
  vector.print %pos : f32
  %absn = math.absf %neg : f32
  vector.print %absn : f32
  %nz = arith.mulf %m1, %z : f32
  vector.print %nz : f32
  %t3 = arith.constant 3.0 : f32
  %q = arith.divf %one, %t3 : f32
  vector.print %q : f32
  %dq = arith.extf %q : f32 to f64
  vector.print %dq : f64
  return
}

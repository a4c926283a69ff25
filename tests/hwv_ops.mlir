// Every HWV op, in the syntax mlir-opt-22 prints (tests/test_hwv_ops.py).
func.func @f(%a: vector<8xf32>, %b: vector<8xf32>, %s: f32, %i: vector<8xi32>, %k: vector<16xi1>, %c: vector<16xf32>, %i4: vector<4xi32>, %iv: vector<16xi8>, %a4: vector<4xf32>, %m4: vector<4x4xi8>, %i8a: vector<8xi8>) -> (vector<8xf32>, vector<8xf32>, f32, f32, f32, i32, f32, f32, i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, vector<4xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<4xi32>, vector<8xi16>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<4xi32>, vector<4xf32>, vector<4xf32>) {
  %0 = llvm.intr.fma(%a, %b, %a) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %1 = llvm.intr.fmuladd(%a, %b, %a) {fastmathFlags = #llvm.fastmath<fast>} : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %2 = "llvm.intr.vector.reduce.fadd"(%s, %a) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<8xf32>) -> f32
  %3 = "llvm.intr.vector.reduce.fadd"(%s, %a) : (f32, vector<8xf32>) -> f32
  %4 = "llvm.intr.vector.reduce.fmul"(%s, %a) : (f32, vector<8xf32>) -> f32
  %5 = "llvm.intr.vector.reduce.add"(%i) : (vector<8xi32>) -> i32
  %6 = llvm.intr.vector.reduce.fmax(%a) : (vector<8xf32>) -> f32
  %7 = "llvm.intr.vector.reduce.fminimum"(%a) <{fastmathFlags = #llvm.fastmath<nnan>}> : (vector<8xf32>) -> f32
  %8 = "llvm.intr.vector.reduce.umin"(%i) : (vector<8xi32>) -> i32
  %9 = "llvm.intr.vector.reduce.mul"(%i) : (vector<8xi32>) -> i32
  %10 = "llvm.intr.vector.reduce.and"(%i) : (vector<8xi32>) -> i32
  %11 = "llvm.intr.vector.reduce.or"(%i) : (vector<8xi32>) -> i32
  %12 = "llvm.intr.vector.reduce.xor"(%i) : (vector<8xi32>) -> i32
  %13 = "llvm.intr.vector.reduce.smax"(%i) : (vector<8xi32>) -> i32
  %14 = "llvm.intr.vector.reduce.smin"(%i) : (vector<8xi32>) -> i32
  %15 = "llvm.intr.vector.reduce.umax"(%i) : (vector<8xi32>) -> i32
  %16 = llvm.intr.vector.reduce.fmin(%a) : (vector<8xf32>) -> f32
  %17 = llvm.intr.vector.reduce.fmaximum(%a) : (vector<8xf32>) -> f32
  %18 = llvm.intr.matrix.multiply %a, %b {lhs_rows = 2 : i32, lhs_columns = 4 : i32, rhs_columns = 2 : i32} : (vector<8xf32>, vector<8xf32>) -> vector<4xf32>
  %19 = llvm.intr.matrix.transpose %a {rows = 2 : i32, columns = 4 : i32} : vector<8xf32> into vector<8xf32>
  %20 = llvm.call_intrinsic "llvm.x86.avx.hadd.ps.256"(%a, %b) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %21 = x86vector.avx.intr.dot %a, %b : vector<8xf32>
  %22 = arm_neon.intr.sdot %i4, %iv, %iv : vector<16xi8>, vector<16xi8> to vector<4xi32>
  %23 = arm_neon.intr.smull %i8a, %i8a : vector<8xi8> to vector<8xi16>
  %24 = x86vector.avx512.mask.compress %k, %c : vector<16xf32>
  %25 = x86vector.avx512.mask.compress %k, %c, %c : vector<16xf32>, vector<16xf32>
  %26 = x86vector.avx512.mask.compress %k, %c {constant_src = dense<0.000000e+00> : vector<16xf32>} : vector<16xf32>
  %27 = arm_neon.2d.sdot %i4, %m4, %m4 : vector<4x4xi8>, vector<4x4xi8> to vector<4xi32>
  %28 = llvm.call_intrinsic "llvm.x86.sse3.hadd.ps"(%a4, %a4) {fastmathFlags = #llvm.fastmath<fast>} : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  %29 = llvm.call_intrinsic "llvm.aarch64.neon.faddp.v4f32"(%a4, %a4) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29 : vector<8xf32>, vector<8xf32>, f32, f32, f32, i32, f32, f32, i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, vector<4xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<4xi32>, vector<8xi16>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<4xi32>, vector<4xf32>, vector<4xf32>
}

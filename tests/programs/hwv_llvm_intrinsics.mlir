// REFERENCE: mlir22
// LLVM's vector intrinsics at the HWV level: fma/fmuladd, every llvm.vector.reduce.* (ordered
// and reassociated fadd/fmul, NaN and -0.0), matrix.multiply/transpose (row-major).
func.func @entry() {
  // fma rounds once: (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24, not 0.
  %a = arith.constant dense<1.000244140625> : vector<4xf32>
  %c = arith.constant dense<-1.00048828125> : vector<4xf32>
  %f = llvm.intr.fma(%a, %a, %c) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  vector.print %f : vector<4xf32>
  %x = arith.constant dense<[1.0, -2.0, 0.5, 3.0]> : vector<4xf32>
  %y = arith.constant dense<[4.0, 0.25, -8.0, 2.0]> : vector<4xf32>
  %g = llvm.intr.fmuladd(%x, %y, %x) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  vector.print %g : vector<4xf32>
  %s1 = arith.constant 2.0 : f64
  %xd = arith.constant dense<[1.5, -2.0]> : vector<2xf64>
  %fd = llvm.intr.fma(%s1, %s1, %s1) : (f64, f64, f64) -> f64
  vector.print %fd : f64

  // Ordered fadd: ((((0 + 1e8) + 1) - 1e8) + 1) ...; reassoc: a pairwise tree, start last.
  %v = arith.constant dense<[1.0e8, 1.0, -1.0e8, 1.0, 3.0, 0.5, 0.25, 1.0e-3]> : vector<8xf32>
  %z = arith.constant 0.0 : f32
  %r0 = "llvm.intr.vector.reduce.fadd"(%z, %v) : (f32, vector<8xf32>) -> f32
  vector.print %r0 : f32
  %r1 = "llvm.intr.vector.reduce.fadd"(%z, %v) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<8xf32>) -> f32
  vector.print %r1 : f32
  %m = arith.constant dense<[3.0, 0.5, -2.0, 1.5]> : vector<4xf32>
  %two = arith.constant 2.0 : f32
  %r2 = "llvm.intr.vector.reduce.fmul"(%two, %m) : (f32, vector<4xf32>) -> f32
  vector.print %r2 : f32
  %r3 = "llvm.intr.vector.reduce.fmul"(%two, %m) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32
  vector.print %r3 : f32
  %r4 = "llvm.intr.vector.reduce.fadd"(%s1, %xd) : (f64, vector<2xf64>) -> f64
  vector.print %r4 : f64
  // Signed zeros: -0 + -0 + ... is -0; starting from +0 gives +0.
  %nz = arith.constant dense<-0.0> : vector<4xf32>
  %mz = arith.constant -0.0 : f32
  %r5 = "llvm.intr.vector.reduce.fadd"(%mz, %nz) : (f32, vector<4xf32>) -> f32
  vector.print %r5 : f32
  %r6 = "llvm.intr.vector.reduce.fadd"(%z, %nz) : (f32, vector<4xf32>) -> f32
  vector.print %r6 : f32

  // Min/max: fmax/fmin ignore NaN, fmaximum/fminimum propagate it and order -0 < +0.
  %n = arith.constant dense<[1.0, 0x7FC00000, -3.0, 2.5]> : vector<4xf32>
  %mx = llvm.intr.vector.reduce.fmax(%n) : (vector<4xf32>) -> f32
  vector.print %mx : f32
  %mn = llvm.intr.vector.reduce.fmin(%n) : (vector<4xf32>) -> f32
  vector.print %mn : f32
  %mxm = llvm.intr.vector.reduce.fmaximum(%n) : (vector<4xf32>) -> f32
  vector.print %mxm : f32
  %mnm = llvm.intr.vector.reduce.fminimum(%n) : (vector<4xf32>) -> f32
  vector.print %mnm : f32
  %zz = arith.constant dense<[-0.0, 0.0, -0.0, -1.0e-30]> : vector<4xf32>
  %zmax = llvm.intr.vector.reduce.fmaximum(%zz) : (vector<4xf32>) -> f32
  vector.print %zmax : f32
  %pz = arith.constant dense<[0.0, -0.0, 1.0e-30, 0.0]> : vector<4xf32>
  %zmin = llvm.intr.vector.reduce.fminimum(%pz) : (vector<4xf32>) -> f32
  vector.print %zmin : f32

  // Integer reductions (wrap-around; u* read unsigned).
  %i = arith.constant dense<[2147483647, 1, -5, 12, 7, -1, 0, 3]> : vector<8xi32>
  %ia = "llvm.intr.vector.reduce.add"(%i) : (vector<8xi32>) -> i32
  vector.print %ia : i32
  %im = "llvm.intr.vector.reduce.mul"(%i) : (vector<8xi32>) -> i32
  vector.print %im : i32
  %iand = "llvm.intr.vector.reduce.and"(%i) : (vector<8xi32>) -> i32
  vector.print %iand : i32
  %ior = "llvm.intr.vector.reduce.or"(%i) : (vector<8xi32>) -> i32
  vector.print %ior : i32
  %ixor = "llvm.intr.vector.reduce.xor"(%i) : (vector<8xi32>) -> i32
  vector.print %ixor : i32
  %ismax = "llvm.intr.vector.reduce.smax"(%i) : (vector<8xi32>) -> i32
  vector.print %ismax : i32
  %ismin = "llvm.intr.vector.reduce.smin"(%i) : (vector<8xi32>) -> i32
  vector.print %ismin : i32
  %iumax = "llvm.intr.vector.reduce.umax"(%i) : (vector<8xi32>) -> i32
  vector.print %iumax : i32
  %iumin = "llvm.intr.vector.reduce.umin"(%i) : (vector<8xi32>) -> i32
  vector.print %iumin : i32
  %b = arith.constant dense<[100, 100, -128, 27]> : vector<4xi8>
  %ba = "llvm.intr.vector.reduce.add"(%b) : (vector<4xi8>) -> i8
  vector.print %ba : i8
  %bu = "llvm.intr.vector.reduce.umax"(%b) : (vector<4xi8>) -> i8
  vector.print %bu : i8

  // Matrix intrinsics, row-major: [[1,2,3],[4,5,6]] x [[1,0],[0,1],[2,-1]], and transposes.
  %l = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : vector<6xf32>
  %rr = arith.constant dense<[1.0, 0.0, 0.0, 1.0, 2.0, -1.0]> : vector<6xf32>
  %mm = llvm.intr.matrix.multiply %l, %rr {lhs_rows = 2 : i32, lhs_columns = 3 : i32, rhs_columns = 2 : i32} : (vector<6xf32>, vector<6xf32>) -> vector<4xf32>
  vector.print %mm : vector<4xf32>
  %tr = llvm.intr.matrix.transpose %l {rows = 2 : i32, columns = 3 : i32} : vector<6xf32> into vector<6xf32>
  vector.print %tr : vector<6xf32>
  %li = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %mi = llvm.intr.matrix.multiply %li, %li {lhs_rows = 2 : i32, lhs_columns = 2 : i32, rhs_columns = 2 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  vector.print %mi : vector<4xi32>
  return
}

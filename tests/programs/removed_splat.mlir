// REFERENCE: mlir19 -- vector.splat was removed in MLIR 22 (use vector.broadcast)
// vector.splat: broadcast an integer/index/float scalar to every element of a 1-D, 2-D or
// 3-D vector (f32, i8, index, f64, i1), and a splat of a run-time value computed in a loop.
func.func @entry() {
  %f = arith.constant -1.25 : f32
  %s0 = vector.splat %f : vector<4xf32>
  vector.print %s0 : vector<4xf32>
  %s1 = vector.splat %f : vector<2x3xf32>
  vector.print %s1 : vector<2x3xf32>
  %b = arith.constant 200 : i8
  %s2 = vector.splat %b : vector<2x1x2xi8>
  vector.print %s2 : vector<2x1x2xi8>
  %x = arith.constant 12 : index
  %s3 = vector.splat %x : vector<3xindex>
  vector.print %s3 : vector<3xindex>
  %d = arith.constant 0.1 : f64
  %s4 = vector.splat %d : vector<2xf64>
  vector.print %s4 : vector<2xf64>
  %t = arith.constant true
  %s5 = vector.splat %t : vector<3xi1>
  vector.print %s5 : vector<3xi1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant dense<0> : vector<4xi32>
  %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (vector<4xi32>) {
    %ii = arith.index_cast %i : index to i32
    %sp = vector.splat %ii : vector<4xi32>
    %n = arith.addi %a, %sp : vector<4xi32>
    scf.yield %n : vector<4xi32>
  }
  vector.print %acc : vector<4xi32>
  return
}

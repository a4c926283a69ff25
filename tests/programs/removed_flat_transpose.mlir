// REFERENCE: mlir19 -- vector.flat_transpose was removed in MLIR 22; run with mlir-cpu-runner-19 -O0 -enable-matrix -matrix-default-layout=row-major
// vector.flat_transpose: the 1-D input holds a rows x columns matrix M, flattened; the result
// is M^T (columns x rows), flattened. Layout: ROW-major (project decision; the runner is given
// -matrix-default-layout=row-major, LLVM's own default is column-major):
//   M[r, c] = x[r * columns + c], out[c * rows + r] = M[r, c]; numpy:
//   out = x.reshape(rows, columns).T.ravel()
// (column-major would be x.reshape(columns, rows).T.ravel()). Square matrices give the same
// result in both layouts (first two prints); rows = 1 or columns = 1 is the identity.
func.func @entry() {
  %sq = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : vector<9xf32>
  %t0 = vector.flat_transpose %sq {rows = 3 : i32, columns = 3 : i32} : vector<9xf32> -> vector<9xf32>
  vector.print %t0 : vector<9xf32>
  %sq2 = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %t1 = vector.flat_transpose %sq2 {rows = 2 : i32, columns = 2 : i32} : vector<4xi32> -> vector<4xi32>
  vector.print %t1 : vector<4xi32>
  %r = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : vector<6xf32>
  %t2 = vector.flat_transpose %r {rows = 2 : i32, columns = 3 : i32} : vector<6xf32> -> vector<6xf32>
  vector.print %t2 : vector<6xf32>
  %t3 = vector.flat_transpose %r {rows = 3 : i32, columns = 2 : i32} : vector<6xf32> -> vector<6xf32>
  vector.print %t3 : vector<6xf32>
  %t4 = vector.flat_transpose %t2 {rows = 3 : i32, columns = 2 : i32} : vector<6xf32> -> vector<6xf32>
  vector.print %t4 : vector<6xf32>
  %l = arith.constant dense<[10, 11, 12, 13, 14, 15, 16, 17]> : vector<8xi64>
  %t5 = vector.flat_transpose %l {rows = 1 : i32, columns = 8 : i32} : vector<8xi64> -> vector<8xi64>
  vector.print %t5 : vector<8xi64>
  %t6 = vector.flat_transpose %l {rows = 4 : i32, columns = 2 : i32} : vector<8xi64> -> vector<8xi64>
  vector.print %t6 : vector<8xi64>
  return
}

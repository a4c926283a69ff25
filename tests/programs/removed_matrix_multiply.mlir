// REFERENCE: mlir19 -- vector.matrix_multiply was removed in MLIR 22; run with mlir-cpu-runner-19 -O0 -enable-matrix -matrix-default-layout=row-major
// vector.matrix_multiply: lhs is an lhs_rows x lhs_columns matrix A, rhs an lhs_columns x
// rhs_columns matrix B, both flattened 1-D; the result is A * B flattened. Layout: ROW-major
// (project decision, = MLIR's contract -> matrix_multiply lowering; the runner is given
// -matrix-default-layout=row-major, LLVM's own default is column-major); numpy:
//   R, K, C = lhs_rows, lhs_columns, rhs_columns
//   out = (lhs.reshape(R, K) @ rhs.reshape(K, C)).ravel()
// (column-major would be (lhs.reshape(K, R).T @ rhs.reshape(C, K).T).T.ravel()). The first
// product uses A = identity so it is layout independent. Exact small integers/halves only.
func.func @entry() {
  %id = arith.constant dense<[1.0, 0.0, 0.0, 1.0]> : vector<4xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %p0 = vector.matrix_multiply %id, %b {lhs_rows = 2 : i32, lhs_columns = 2 : i32, rhs_columns = 2 : i32} : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  vector.print %p0 : vector<4xf32>
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : vector<6xf32>
  %c = arith.constant dense<[1.0, 0.5, -1.0, 2.0, 0.0, 1.0]> : vector<6xf32>
  // 2x3 times 3x2.
  %p1 = vector.matrix_multiply %a, %c {lhs_rows = 2 : i32, lhs_columns = 3 : i32, rhs_columns = 2 : i32} : (vector<6xf32>, vector<6xf32>) -> vector<4xf32>
  vector.print %p1 : vector<4xf32>
  // 3x2 times 2x3.
  %p2 = vector.matrix_multiply %a, %c {lhs_rows = 3 : i32, lhs_columns = 2 : i32, rhs_columns = 3 : i32} : (vector<6xf32>, vector<6xf32>) -> vector<9xf32>
  vector.print %p2 : vector<9xf32>
  // 1x3 times 3x1 (dot product) and 3x1 times 1x3 (outer product), i32.
  %u = arith.constant dense<[1, -2, 3]> : vector<3xi32>
  %v = arith.constant dense<[4, 5, 6]> : vector<3xi32>
  %dot = vector.matrix_multiply %u, %v {lhs_rows = 1 : i32, lhs_columns = 3 : i32, rhs_columns = 1 : i32} : (vector<3xi32>, vector<3xi32>) -> vector<1xi32>
  vector.print %dot : vector<1xi32>
  %outer = vector.matrix_multiply %u, %v {lhs_rows = 3 : i32, lhs_columns = 1 : i32, rhs_columns = 3 : i32} : (vector<3xi32>, vector<3xi32>) -> vector<9xi32>
  vector.print %outer : vector<9xi32>
  %d = arith.constant dense<[0.5, 0.25, 2.0, 4.0]> : vector<4xf64>
  %e = arith.constant dense<[2.0, 0.0, 1.0, -1.0]> : vector<4xf64>
  %p3 = vector.matrix_multiply %d, %e {lhs_rows = 2 : i32, lhs_columns = 2 : i32, rhs_columns = 2 : i32} : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>
  vector.print %p3 : vector<4xf64>
  return
}

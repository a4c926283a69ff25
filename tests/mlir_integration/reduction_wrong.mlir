// Expected classification: interp-fail (the CHECK line below is deliberately wrong:
// the sum of 1..4 is 10), so the driver's failure path is covered.
// RUN: mlir-opt %s -test-lower-to-llvm | \
// RUN: mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | \
// RUN: FileCheck %s

func.func @main() {
  %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %r = vector.reduction <add>, %v : vector<4xi32> into i32
  vector.print %r : i32
  return
}

// CHECK: 11

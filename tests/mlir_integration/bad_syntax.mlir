// Expected classification: unsupported (not valid MLIR: our frontend rejects it with a
// located error).
// RUN: mlir-opt %s -test-lower-to-llvm | \
// RUN: mlir-runner -e entry -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils | \
// RUN: FileCheck %s

func.func @entry() {
  %v = arith.constant dense<[1, 2]> : vector<2xi32>
  vector.print %v : vector<3xi32>
  return
}

// CHECK: ( 1, 2 )

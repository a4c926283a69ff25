// Expected classification: skipped (the RUN line asks for another architecture).
// RUN: mlir-opt %s -test-lower-to-llvm | \
// RUN: mlir-runner -e entry -entry-point-result=void --march=aarch64 --mattr="+sve" \
// RUN:   -shared-libs=%mlir_c_runner_utils | \
// RUN: FileCheck %s

func.func @entry() {
  %v = vector.step : vector<[4]xindex>
  vector.print %v : vector<[4]xindex>
  return
}

// CHECK: ( 0, 1, 2, 3 )

// An integration test in MLIR's style, written for eqsat's own tests of
// experiments/mlir_integration.py: RUN lines name the entry and the prefix.
// RUN: mlir-opt %s -test-lower-to-llvm | \
// RUN: mlir-runner -e entry -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils | \
// RUN: FileCheck %s --check-prefix=OUT

func.func @entry() {
  %c = arith.constant 1.5 : f32
  %b = vector.broadcast %c : f32 to vector<4xf32>
  vector.print %b : vector<4xf32>
  %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %s = vector.shuffle %v, %v [3, 2, 5, 0] : vector<4xi32>, vector<4xi32>
  vector.print %s : vector<4xi32>
  %m = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi64>
  %t = vector.transpose %m, [1, 0] : vector<2x2xi64> to vector<2x2xi64>
  vector.print %t : vector<2x2xi64>
  vector.print str "done\n"
  return
}

// OUT-LABEL: ( 1.5, 1.5, 1.5, 1.5 )
// OUT-NEXT: ( [[FOUR:[0-9]+]], 3, 2, 1 )
// OUT-NOT: ( 9
// OUT-NEXT: ( ( 1, [[THREE:[0-9]]] ),
// OUT-SAME: ( {{[0-9]}}, [[FOUR]] ) )
// OUT-NEXT: done
// CHECK: this line is for another prefix and must be ignored

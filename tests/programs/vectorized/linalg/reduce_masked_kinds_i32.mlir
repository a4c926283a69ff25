// column reductions masked to 4x16 of kinds mul, minsi, maxsi, minui, maxui, and, or, xor
func.func @kernel(%x0: memref<3x10xi32>, %x1: memref<3x10xi32>, %x2: memref<3x10xi32>, %x3: memref<3x10xi32>, %x4: memref<3x10xi32>, %x5: memref<3x10xi32>, %x6: memref<3x10xi32>, %x7: memref<3x10xi32>, %y0: memref<10xi32>, %y1: memref<10xi32>, %y2: memref<10xi32>, %y3: memref<10xi32>, %y4: memref<10xi32>, %y5: memref<10xi32>, %y6: memref<10xi32>, %y7: memref<10xi32>) {
  linalg.reduce ins(%x0 : memref<3x10xi32>) outs(%y0 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.muli %a, %b : i32
      linalg.yield %s : i32
    }
  linalg.reduce ins(%x1 : memref<3x10xi32>) outs(%y1 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.minsi %a, %b : i32
      linalg.yield %s : i32
    }
  linalg.reduce ins(%x2 : memref<3x10xi32>) outs(%y2 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.maxsi %a, %b : i32
      linalg.yield %s : i32
    }
  linalg.reduce ins(%x3 : memref<3x10xi32>) outs(%y3 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.minui %a, %b : i32
      linalg.yield %s : i32
    }
  linalg.reduce ins(%x4 : memref<3x10xi32>) outs(%y4 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.maxui %a, %b : i32
      linalg.yield %s : i32
    }
  linalg.reduce ins(%x5 : memref<3x10xi32>) outs(%y5 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.andi %a, %b : i32
      linalg.yield %s : i32
    }
  linalg.reduce ins(%x6 : memref<3x10xi32>) outs(%y6 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.ori %a, %b : i32
      linalg.yield %s : i32
    }
  linalg.reduce ins(%x7 : memref<3x10xi32>) outs(%y7 : memref<10xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.xori %a, %b : i32
      linalg.yield %s : i32
    }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [4, 16] : !transform.any_op
    transform.yield
  }
}

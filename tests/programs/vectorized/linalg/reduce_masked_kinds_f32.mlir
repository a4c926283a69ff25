// column reductions masked to 8x4 of kinds mul, minimumf, maximumf, minnumf, maxnumf
func.func @kernel(%x0: memref<5x3xf32>, %x1: memref<5x3xf32>, %x2: memref<5x3xf32>, %x3: memref<5x3xf32>, %x4: memref<5x3xf32>, %y0: memref<3xf32>, %y1: memref<3xf32>, %y2: memref<3xf32>, %y3: memref<3xf32>, %y4: memref<3xf32>) {
  linalg.reduce ins(%x0 : memref<5x3xf32>) outs(%y0 : memref<3xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%x1 : memref<5x3xf32>) outs(%y1 : memref<3xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.minimumf %a, %b : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%x2 : memref<5x3xf32>) outs(%y2 : memref<3xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.maximumf %a, %b : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%x3 : memref<5x3xf32>) outs(%y3 : memref<3xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.minnumf %a, %b : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%x4 : memref<5x3xf32>) outs(%y4 : memref<3xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.maxnumf %a, %b : f32
      linalg.yield %s : f32
    }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [8, 4] : !transform.any_op
    transform.yield
  }
}

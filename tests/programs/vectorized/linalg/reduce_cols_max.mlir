// column maxima: multi_reduction over the outer dim
func.func @kernel(%a0: memref<8x4xf32>, %a1: memref<4xf32>) {
  linalg.reduce ins(%a0 : memref<8x4xf32>) outs(%a1 : memref<4xf32>) dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.maximumf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op : !transform.any_op
    transform.yield
  }
}

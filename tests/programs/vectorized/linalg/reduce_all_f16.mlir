// f16 sum of every element into a 0-D memref
func.func @kernel(%a0: memref<4x8xf16>, %a1: memref<f16>) {
  linalg.reduce ins(%a0 : memref<4x8xf16>) outs(%a1 : memref<f16>) dimensions = [0, 1]
    (%x: f16, %y: f16) {
      %s = arith.addf %x, %y : f16
      linalg.yield %s : f16
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

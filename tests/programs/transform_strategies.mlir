// REFERENCE: mlir22
// A module carrying a transform script (how MLIR's own vector tests pick a lowering): it is
// kept verbatim, and `eqsat opt` reads its choices as forced strategies (contract by
// parallelarith, transpose by shuffle_1d, multi_reduction by innerreduction).
func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : vector<2x2xf32>
  %c = arith.constant dense<0.5> : vector<2x2xf32>
  %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %r : vector<2x2xf32>
  %t = vector.transpose %a, [1, 0] : vector<2x2xf32> to vector<2x2xf32>
  vector.print %t : vector<2x2xf32>
  %acc = arith.constant dense<[1.0, -1.0]> : vector<2xf32>
  %m = vector.multi_reduction <add>, %b, %acc [1] : vector<2x2xf32> to vector<2xf32>
  vector.print %m : vector<2xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module_op: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %module_op
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "parallelarith"
      transform.apply_patterns.vector.lower_transpose lowering_strategy = "shuffle_1d"
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.yield
  }
}

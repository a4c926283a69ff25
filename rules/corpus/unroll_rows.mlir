// Row reductions tiled to native vectors (rules/explore/unroll.egg, unroll-multi-reduction-rows).
func.func @row_sums(%m: vector<8x4xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
  %0 = vector.multi_reduction <add>, %m, %acc [1] : vector<8x4xf32> to vector<8xf32>
  return %0 : vector<8xf32>
}

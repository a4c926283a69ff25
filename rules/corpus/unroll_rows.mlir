// Row and column reductions tiled to native vectors (rules/explore/unroll.egg,
// unroll-multi-reduction-rows and unroll-multi-reduction-columns).
func.func @row_sums(%m: vector<8x4xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
  %0 = vector.multi_reduction <add>, %m, %acc [1] : vector<8x4xf32> to vector<8xf32>
  return %0 : vector<8xf32>
}

func.func @column_maxima(%m: vector<4x16xf32>, %acc: vector<16xf32>) -> vector<16xf32> {
  %0 = vector.multi_reduction <maxnumf>, %m, %acc [0] : vector<4x16xf32> to vector<16xf32>
  return %0 : vector<16xf32>
}

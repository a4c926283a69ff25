// REFERENCE: mlir22
// vector.contract with a batch dimension (b, i, j, k) and with transposed indexing maps:
// A^T x B ((k, i) x (k, j)), A x B^T ((i, k) x (j, k)), and a transposed result ((j, i)).
#batch = {
  indexing_maps = [
    affine_map<(b, i, j, k) -> (b, i, k)>,
    affine_map<(b, i, j, k) -> (b, k, j)>,
    affine_map<(b, i, j, k) -> (b, i, j)>
  ],
  iterator_types = ["parallel", "parallel", "parallel", "reduction"]
}
#atb = {
  indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
#abt = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
#ct = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (j, i)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
// Reduction iterator listed first: (k, i, j).
#kfirst = {
  indexing_maps = [affine_map<(k, i, j) -> (i, k)>, affine_map<(k, i, j) -> (k, j)>, affine_map<(k, i, j) -> (i, j)>],
  iterator_types = ["reduction", "parallel", "parallel"]
}

func.func @entry() {
  %a = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [2.0, -2.0]]]> : vector<2x2x2xf32>
  %b = arith.constant dense<[[[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]], [[4.0, -1.0, 0.0], [2.0, 2.0, 1.0]]]> : vector<2x2x3xf32>
  %c = arith.constant dense<0.0> : vector<2x2x3xf32>
  %r = vector.contract #batch %a, %b, %c : vector<2x2x2xf32>, vector<2x2x3xf32> into vector<2x2x3xf32>
  vector.print %r : vector<2x2x3xf32>

  // A is stored transposed: At is 3x2 (k x i).
  %at = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : vector<3x2xi32>
  %bm = arith.constant dense<[[1, -1, 0, 2], [0, 1, 1, -1], [2, 0, -3, 1]]> : vector<3x4xi32>
  %c24 = arith.constant dense<0> : vector<2x4xi32>
  %r1 = vector.contract #atb %at, %bm, %c24 : vector<3x2xi32>, vector<3x4xi32> into vector<2x4xi32>
  vector.print %r1 : vector<2x4xi32>

  %am = arith.constant dense<[[1, 3, 5], [2, 4, 6]]> : vector<2x3xi32>
  %bt = arith.constant dense<[[1, 0, 2], [-1, 1, 0], [0, 1, -3], [2, -1, 1]]> : vector<4x3xi32>
  %r2 = vector.contract #abt %am, %bt, %c24 : vector<2x3xi32>, vector<4x3xi32> into vector<2x4xi32>
  vector.print %r2 : vector<2x4xi32>

  %c42 = arith.constant dense<[[100, 200], [300, 400], [500, 600], [700, 800]]> : vector<4x2xi32>
  %r3 = vector.contract #ct %am, %bm, %c42 : vector<2x3xi32>, vector<3x4xi32> into vector<4x2xi32>
  vector.print %r3 : vector<4x2xi32>

  %r4 = vector.contract #kfirst %am, %bm, %c24 : vector<2x3xi32>, vector<3x4xi32> into vector<2x4xi32>
  vector.print %r4 : vector<2x4xi32>
  return
}

// A small vector kernel: a matmul whose operands arrive transposed, an element-wise
// epilogue written with transposes, and a reduction. `eqsat opt` folds the data movement
// away (the transposes are absorbed into the contraction's indexing maps) and prints what
// remains; `eqsat run` executes it with the reference interpreter.
#matmul = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                   affine_map<(i, j, k) -> (k, j)>,
                   affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}

func.func @entry() {
  %at = arith.constant dense<[[1.0, 5.0], [2.0, 6.0], [3.0, 7.0], [4.0, 8.0]]> : vector<4x2xf32>
  %b = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, 2.0], [1.0, 1.0, 0.0], [2.0, 0.0, 1.0]]> : vector<4x3xf32>
  %acc = arith.constant dense<0.5> : vector<2x3xf32>
  %a = vector.transpose %at, [1, 0] : vector<4x2xf32> to vector<2x4xf32>
  %c = vector.contract #matmul %a, %b, %acc : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
  %ct = vector.transpose %c, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
  %dt = arith.addf %ct, %ct : vector<3x2xf32>
  %d = vector.transpose %dt, [1, 0] : vector<3x2xf32> to vector<2x3xf32>
  vector.print %d : vector<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %sum = vector.multi_reduction <add>, %d, %zero [0, 1] : vector<2x3xf32> to f32
  vector.print %sum : f32
  return
}

// REFERENCE: mlir22
// vector.contract with narrower operand element types than the accumulator: i8 x i8 into i32
// (matmul), i8 x i8 into i32 (matvec), i16 x i16 into i64 (vecmat): operands are sign-extended
// to the result type before multiplying (-128 * -128 and 32767 * 32767 must not wrap), and
// f16 x f16 into f32. (Mixed-type dot products to a scalar: see contract_mixed_dot.mlir.)
#matmul = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
#matvec = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
#vecmat = {
  indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}

func.func @entry() {
  %a = arith.constant dense<[[-128, 127, 3], [100, -100, 0]]> : vector<2x3xi8>
  %b = arith.constant dense<[[-128, 1], [127, -1], [-7, 50]]> : vector<3x2xi8>
  %c = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  %r = vector.contract #matmul %a, %b, %c : vector<2x3xi8>, vector<3x2xi8> into vector<2x2xi32>
  vector.print %r : vector<2x2xi32>

  %m = arith.constant dense<[[-128, 127], [5, -6], [0, 1]]> : vector<3x2xi8>
  %v = arith.constant dense<[-128, 127]> : vector<2xi8>
  %a3 = arith.constant dense<[7, 0, -7]> : vector<3xi32>
  %mv = vector.contract #matvec %m, %v, %a3 : vector<3x2xi8>, vector<2xi8> into vector<3xi32>
  vector.print %mv : vector<3xi32>

  %x = arith.constant dense<[-32768, 32767, 1000]> : vector<3xi16>
  %w = arith.constant dense<[[-32768, 2], [32767, 3], [-1000, 4]]> : vector<3x2xi16>
  %z = arith.constant dense<[5, -5]> : vector<2xi64>
  %d = vector.contract #vecmat %x, %w, %z : vector<3xi16>, vector<3x2xi16> into vector<2xi64>
  vector.print %d : vector<2xi64>

  %h = arith.constant dense<[[0.5, 2.0], [1.5, -3.0]]> : vector<2x2xf16>
  %g = arith.constant dense<[[4.0, 1.0], [0.25, 2.0]]> : vector<2x2xf16>
  %acc = arith.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : vector<2x2xf32>
  %rf = vector.contract #matmul %h, %g, %acc : vector<2x2xf16>, vector<2x2xf16> into vector<2x2xf32>
  vector.print %rf : vector<2x2xf32>
  return
}

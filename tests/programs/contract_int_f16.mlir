// REFERENCE: mlir22
// vector.contract with same-type operands of other element types: i8 matmul into i8
// (products and sums wrap modulo 256), i64 matvec with values beyond 2^32, f16 matmul into f16
// (exact small values), an i16 dot product that wraps (60000 - 18 - 7 mod 2^16), and a
// contraction over two reduction dims (i, k, l): (i, k, l) x (k, l) -> (i).
#matmul = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
#matvec = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
#dot = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
  iterator_types = ["reduction"]
}
#tworeds = {
  indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (k, l)>, affine_map<(i, k, l) -> (i)>],
  iterator_types = ["parallel", "reduction", "reduction"]
}

func.func @entry() {
  %a = arith.constant dense<[[100, 2], [-7, 50]]> : vector<2x2xi8>
  %b = arith.constant dense<[[3, 1], [60, -3]]> : vector<2x2xi8>
  %c = arith.constant dense<[[1, 0], [0, 1]]> : vector<2x2xi8>
  %r = vector.contract #matmul %a, %b, %c : vector<2x2xi8>, vector<2x2xi8> into vector<2x2xi8>
  vector.print %r : vector<2x2xi8>

  %m = arith.constant dense<[[4294967296, 1], [-3, 2]]> : vector<2x2xi64>
  %x = arith.constant dense<[3, 1000000000000]> : vector<2xi64>
  %y = arith.constant dense<[7, -7]> : vector<2xi64>
  %mv = vector.contract #matvec %m, %x, %y : vector<2x2xi64>, vector<2xi64> into vector<2xi64>
  vector.print %mv : vector<2xi64>

  %h = arith.constant dense<[[0.5, 2.0, -1.0], [1.5, 0.25, 4.0]]> : vector<2x3xf16>
  %g = arith.constant dense<[[2.0, 1.0], [4.0, -2.0], [0.5, 0.5]]> : vector<3x2xf16>
  %hc = arith.constant dense<[[0.0, 0.5], [1.0, -1.0]]> : vector<2x2xf16>
  %hr = vector.contract #matmul %h, %g, %hc : vector<2x3xf16>, vector<3x2xf16> into vector<2x2xf16>
  vector.print %hr : vector<2x2xf16>

  %p = arith.constant dense<[300, -2, 7]> : vector<3xi16>
  %q = arith.constant dense<[200, 9, -1]> : vector<3xi16>
  %z = arith.constant 0 : i16
  %d = vector.contract #dot %p, %q, %z : vector<3xi16>, vector<3xi16> into i16
  vector.print %d : i16

  %t = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [2.0, 0.0]]]> : vector<2x2x2xf32>
  %w = arith.constant dense<[[1.0, -1.0], [2.0, 0.5]]> : vector<2x2xf32>
  %ta = arith.constant dense<[10.0, 20.0]> : vector<2xf32>
  %tr = vector.contract #tworeds %t, %w, %ta : vector<2x2x2xf32>, vector<2x2xf32> into vector<2xf32>
  vector.print %tr : vector<2xf32>
  return
}

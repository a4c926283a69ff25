// REFERENCE: mlir22
// vector.contract with non-add combining kinds on a matmul: every product a[i,k]*b[k,j] is
// folded into the accumulator with the kind, i.e. r[i,j] = kind(acc[i,j], a[i,0]*b[0,j], ...),
// NOT kind(acc, sum_k a*b). Float kinds maxnumf, minnumf, maximumf, minimumf, mul; integer
// kinds mul, maxsi, minsi, maxui, minui, and, or, xor. (matmul shape: only the outerproduct
// lowering strategy handles these.)
#matmul = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}

func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, -4.0]]> : vector<2x2xf32>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : vector<2x2xf32>
  %acc = arith.constant dense<[[0.0, 0.0], [0.0, 100.0]]> : vector<2x2xf32>
  %one = arith.constant dense<[[1.0, 2.0], [0.5, -1.0]]> : vector<2x2xf32>
  %r0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxnumf>} %a, %b, %acc : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %r0 : vector<2x2xf32>
  %r1 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<minnumf>} %a, %b, %acc : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %r1 : vector<2x2xf32>
  %r2 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maximumf>} %a, %b, %acc : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %r2 : vector<2x2xf32>
  %r3 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<minimumf>} %a, %b, %acc : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %r3 : vector<2x2xf32>
  %r4 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<mul>} %a, %b, %one : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %r4 : vector<2x2xf32>

  %ia = arith.constant dense<[[1, -2, 3], [12, 5, -1]]> : vector<2x3xi32>
  %ib = arith.constant dense<[[3, 1], [-4, 2], [6, 7]]> : vector<3x2xi32>
  %iacc = arith.constant dense<[[1, -1], [10, 0]]> : vector<2x2xi32>
  %k0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<mul>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k0 : vector<2x2xi32>
  %k1 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxsi>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k1 : vector<2x2xi32>
  %k2 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<minsi>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k2 : vector<2x2xi32>
  %k3 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxui>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k3 : vector<2x2xi32>
  %k4 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<minui>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k4 : vector<2x2xi32>
  %k5 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<and>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k5 : vector<2x2xi32>
  %k6 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<or>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k6 : vector<2x2xi32>
  %k7 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<xor>} %ia, %ib, %iacc : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %k7 : vector<2x2xi32>
  return
}

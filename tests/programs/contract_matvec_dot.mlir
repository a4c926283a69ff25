// REFERENCE: mlir22
// vector.contract in matvec form (i, j): (i, j) x (j) -> (i), vecmat form (j) x (j, i) -> (i),
// and dot products (i): (i) x (i) -> () with a scalar accumulator (f32, i32, f64).
#matvec = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
#vecmat = {
  indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
#dot = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
  iterator_types = ["reduction"]
}

func.func @entry() {
  %m = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 0.0, 2.0], [-3.0, 1.0, 1.0, 1.0]]> : vector<3x4xf32>
  %x = arith.constant dense<[2.0, -1.0, 0.5, 4.0]> : vector<4xf32>
  %acc3 = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %mv = vector.contract #matvec %m, %x, %acc3 : vector<3x4xf32>, vector<4xf32> into vector<3xf32>
  vector.print %mv : vector<3xf32>

  %y = arith.constant dense<[1.0, 0.0, -2.0]> : vector<3xf32>
  %acc4 = arith.constant dense<0.0> : vector<4xf32>
  %vm = vector.contract #vecmat %y, %m, %acc4 : vector<3xf32>, vector<3x4xf32> into vector<4xf32>
  vector.print %vm : vector<4xf32>

  %zero = arith.constant 0.0 : f32
  %ten = arith.constant 10.0 : f32
  %d0 = vector.contract #dot %x, %x, %zero : vector<4xf32>, vector<4xf32> into f32
  vector.print %d0 : f32
  %d1 = vector.contract #dot %x, %acc4, %ten : vector<4xf32>, vector<4xf32> into f32
  vector.print %d1 : f32

  %ia = arith.constant dense<[3, -2, 7, 100000, -5]> : vector<5xi32>
  %ib = arith.constant dense<[4, 9, -1, 30000, 2]> : vector<5xi32>
  %i0 = arith.constant 1 : i32
  %di = vector.contract #dot %ia, %ib, %i0 : vector<5xi32>, vector<5xi32> into i32
  vector.print %di : i32

  %fa = arith.constant dense<[0.25, 1.5]> : vector<2xf64>
  %fb = arith.constant dense<[8.0, -2.0]> : vector<2xf64>
  %f0 = arith.constant 0.5 : f64
  %df = vector.contract #dot %fa, %fb, %f0 : vector<2xf64>, vector<2xf64> into f64
  vector.print %df : f64
  return
}

// transpose-compose, transpose-identity, broadcast-compose, broadcast-identity,
// splat-as-broadcast, shape-cast-*, elementwise commuting with transpose and broadcast.
func.func @transposes(%a: vector<2x3x4xf32>, %b: vector<4x8xf32>, %c: vector<4x8xf32>) -> (vector<3x4x2xf32>, vector<4x8xf32>) {
  %0 = vector.transpose %a, [1, 0, 2] : vector<2x3x4xf32> to vector<3x2x4xf32>
  %1 = vector.transpose %0, [0, 2, 1] : vector<3x2x4xf32> to vector<3x4x2xf32>
  %2 = vector.transpose %b, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  %3 = vector.transpose %c, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  %4 = arith.addf %2, %3 : vector<8x4xf32>
  %5 = arith.mulf %2, %3 : vector<8x4xf32>
  %6 = arith.subf %4, %5 : vector<8x4xf32>
  %7 = arith.divf %6, %3 : vector<8x4xf32>
  %8 = arith.maximumf %7, %2 : vector<8x4xf32>
  %9 = arith.minimumf %8, %3 : vector<8x4xf32>
  %10 = vector.transpose %9, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
  return %1, %10 : vector<3x4x2xf32>, vector<4x8xf32>
}

func.func @int_transposes(%a: vector<4x8xi32>, %b: vector<4x8xi32>) -> vector<8x4xi32> {
  %0 = vector.transpose %a, [1, 0] : vector<4x8xi32> to vector<8x4xi32>
  %1 = vector.transpose %b, [1, 0] : vector<4x8xi32> to vector<8x4xi32>
  %2 = arith.addi %0, %1 : vector<8x4xi32>
  %3 = arith.muli %2, %1 : vector<8x4xi32>
  %4 = arith.subi %3, %0 : vector<8x4xi32>
  return %4 : vector<8x4xi32>
}

func.func @broadcasts(%s: f32, %t: f32, %v: vector<4xf32>, %w: vector<4xf32>, %i: i32, %j: i32) -> (vector<2x4xf32>, vector<4xf32>, vector<2x4xf32>, vector<8xf32>, vector<8xi32>) {
  %0 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %1 = vector.broadcast %0 : vector<2x4xf32> to vector<3x2x4xf32>
  %2 = vector.extract %1[1] : vector<2x4xf32> from vector<3x2x4xf32>
  %3 = vector.broadcast %v : vector<4xf32> to vector<4xf32>
  %4 = vector.broadcast %w : vector<4xf32> to vector<2x4xf32>
  %5 = arith.addf %0, %4 : vector<2x4xf32>
  %6 = arith.mulf %0, %4 : vector<2x4xf32>
  %7 = arith.subf %5, %6 : vector<2x4xf32>
  %8 = arith.divf %7, %4 : vector<2x4xf32>
  %9 = arith.maximumf %8, %0 : vector<2x4xf32>
  %10 = arith.minimumf %9, %4 : vector<2x4xf32>
  %11 = vector.broadcast %s : f32 to vector<8xf32>
  %12 = vector.broadcast %t : f32 to vector<8xf32>
  %13 = arith.addf %11, %12 : vector<8xf32>
  %14 = vector.shape_cast %11 : vector<8xf32> to vector<2x4xf32>
  %15 = arith.addf %14, %10 : vector<2x4xf32>
  %16 = vector.broadcast %i : i32 to vector<8xi32>
  %17 = vector.broadcast %j : i32 to vector<8xi32>
  %18 = arith.addi %16, %17 : vector<8xi32>
  %19 = arith.muli %18, %17 : vector<8xi32>
  %20 = arith.subi %19, %16 : vector<8xi32>
  %21 = arith.addi %16, %17 : vector<8xi32>
  %22 = arith.muli %16, %17 : vector<8xi32>
  %23 = arith.subi %16, %17 : vector<8xi32>
  %24 = arith.addi %21, %22 : vector<8xi32>
  %25 = arith.addi %24, %23 : vector<8xi32>
  %26 = arith.addi %25, %20 : vector<8xi32>
  return %2, %3, %15, %13, %26 : vector<2x4xf32>, vector<4xf32>, vector<2x4xf32>, vector<8xf32>, vector<8xi32>
}

func.func @shape_casts(%a: vector<2x3x4xf32>, %s: f32) -> (vector<24xf32>, vector<2x3x4xf32>, vector<6x4xf32>) {
  %0 = vector.shape_cast %a : vector<2x3x4xf32> to vector<6x4xf32>
  %1 = vector.shape_cast %0 : vector<6x4xf32> to vector<24xf32>
  %2 = vector.shape_cast %1 : vector<24xf32> to vector<2x3x4xf32>
  %3 = vector.broadcast %s : f32 to vector<24xf32>
  %4 = vector.shape_cast %3 : vector<24xf32> to vector<6x4xf32>
  return %1, %2, %4 : vector<24xf32>, vector<2x3x4xf32>, vector<6x4xf32>
}

// Direct left-hand sides for the element-wise commuting rules and the identity transpose.
func.func @direct(%a: vector<4x8xf32>, %b: vector<4x8xf32>, %i: vector<4x8xi32>, %j: vector<4x8xi32>, %s: f32, %t: f32) -> (vector<8x4xf32>, vector<8x4xf32>, vector<8x4xf32>, vector<8x4xf32>, vector<8x4xi32>, vector<8x4xi32>, vector<4x8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %ta = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  %tb = vector.transpose %b, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  %ti = vector.transpose %i, [1, 0] : vector<4x8xi32> to vector<8x4xi32>
  %tj = vector.transpose %j, [1, 0] : vector<4x8xi32> to vector<8x4xi32>
  %0 = arith.subf %ta, %tb : vector<8x4xf32>
  %1 = arith.divf %ta, %tb : vector<8x4xf32>
  %2 = arith.maximumf %ta, %tb : vector<8x4xf32>
  %3 = arith.minimumf %ta, %tb : vector<8x4xf32>
  %4 = arith.subi %ti, %tj : vector<8x4xi32>
  %5 = arith.muli %ti, %tj : vector<8x4xi32>
  %6 = vector.transpose %ta, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
  %bs = vector.broadcast %s : f32 to vector<8xf32>
  %bt = vector.broadcast %t : f32 to vector<8xf32>
  %7 = arith.subf %bs, %bt : vector<8xf32>
  %8 = arith.divf %bs, %bt : vector<8xf32>
  %9 = arith.maximumf %bs, %bt : vector<8xf32>
  %10 = arith.minimumf %bs, %bt : vector<8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : vector<8x4xf32>, vector<8x4xf32>, vector<8x4xf32>, vector<8x4xf32>, vector<8x4xi32>, vector<8x4xi32>, vector<4x8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

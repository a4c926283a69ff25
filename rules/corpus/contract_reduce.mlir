// contract-absorb-*, fma rules, reduction-fold rules.
#mm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
#rowdot = {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
#mv = {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @contracts(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %acc: vector<4x4xf32>, %at: vector<8x4xf32>, %bt: vector<4x8xf32>) -> (vector<4x4xf32>, vector<4x4xf32>) {
  %0 = vector.transpose %at, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
  %1 = vector.contract #mm %0, %b, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  %2 = vector.transpose %bt, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  %3 = vector.contract #mm %a, %2, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  return %1, %3 : vector<4x4xf32>, vector<4x4xf32>
}

func.func @contract_broadcast(%x: vector<8xf32>, %m: vector<4x8xf32>, %acc: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %0 = vector.broadcast %x : vector<8xf32> to vector<4x8xf32>
  %1 = vector.contract #rowdot %0, %m, %acc : vector<4x8xf32>, vector<4x8xf32> into vector<4xf32>
  %2 = vector.contract #rowdot %m, %0, %acc : vector<4x8xf32>, vector<4x8xf32> into vector<4xf32>
  return %1, %2 : vector<4xf32>, vector<4xf32>
}

func.func @fmas(%a: vector<8xf32>, %b: vector<8xf32>, %c: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %0 = arith.mulf %a, %b fastmath<contract> : vector<8xf32>
  %1 = arith.addf %0, %c fastmath<contract> : vector<8xf32>
  %2 = arith.mulf %a, %c fastmath<fast> : vector<8xf32>
  %3 = arith.addf %2, %b fastmath<fast> : vector<8xf32>
  %4 = arith.addf %b, %2 fastmath<fast> : vector<8xf32>
  %5 = math.fma %a, %b, %c : vector<8xf32>
  return %1, %3, %4, %5 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

func.func @reductions(%s: f32, %acc: f32, %i: i32, %j: i32, %v: vector<8xf32>, %w: vector<8xf32>) -> (f32, f32, f32, i32, vector<8xf32>) {
  %0 = vector.broadcast %s : f32 to vector<4x8xf32>
  %1 = vector.multi_reduction <maxnumf>, %0, %acc [0, 1] : vector<4x8xf32> to f32
  %2 = vector.multi_reduction <minnumf>, %0, %acc [0, 1] : vector<4x8xf32> to f32
  %3 = vector.broadcast %s : f32 to vector<8xf32>
  %4 = vector.reduction <maxnumf>, %3 : vector<8xf32> into f32
  %5 = vector.broadcast %i : i32 to vector<8xi32>
  %6 = vector.reduction <maxsi>, %5, %j : vector<8xi32> into i32
  %7 = vector.multi_reduction <add>, %v, %w [] : vector<8xf32> to vector<8xf32>
  return %1, %2, %4, %6, %7 : f32, f32, f32, i32, vector<8xf32>
}

// contract-batch-*-per-entry: a batch dim leading every map; lhs transposed (b, k, i) in the
// second, integers in the third
#bmm = {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
#bmmt = {indexing_maps = [affine_map<(b, i, j, k) -> (b, k, i)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, j, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
func.func @batched(%a: vector<2x3x4xf32>, %b: vector<2x4x5xf32>, %acc: vector<2x3x5xf32>, %at: vector<4x4x3xf64>, %bt: vector<4x4x2xf64>, %acct: vector<4x2x3xf64>, %ai: vector<2x2x3xi32>, %bi: vector<2x3x2xi32>, %acci: vector<2x2x2xi32>) -> (vector<2x3x5xf32>, vector<4x2x3xf64>, vector<2x2x2xi32>) {
  %0 = vector.contract #bmm %a, %b, %acc : vector<2x3x4xf32>, vector<2x4x5xf32> into vector<2x3x5xf32>
  %1 = vector.contract #bmmt %at, %bt, %acct : vector<4x4x3xf64>, vector<4x4x2xf64> into vector<4x2x3xf64>
  %2 = vector.contract #bmm %ai, %bi, %acci : vector<2x2x3xi32>, vector<2x3x2xi32> into vector<2x2x2xi32>
  return %0, %1, %2 : vector<2x3x5xf32>, vector<4x2x3xf64>, vector<2x2x2xi32>
}

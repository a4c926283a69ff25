// fuzz: input_seed=238 stage=compiled-fast-math-hwv-avx2 mismatch: a reassociated product of a constant near the float range overflows in another order (the fast-math comparison now leaves such programs out)
module {
  func.func @f(%arg0: vector<8x4xf32>) -> (f32, vector<8x2xf32>, vector<8x2xf32>, vector<8x4xf32>) {
    %0 = math.tan %arg0 : vector<8x4xf32>
    %1 = math.roundeven %arg0 : vector<8x4xf32>
    %2:2 = vector.deinterleave %0 : vector<8x4xf32> -> vector<8x2xf32>
    %3 = vector.extract %0[0] : vector<4xf32> from vector<8x4xf32>
    %4 = arith.constant 6 : index
    %5 = arith.constant 3 : index
    %6 = vector.create_mask %4, %5 : vector<8x4xi1>
    %7 = arith.constant -2.000000e+00 : f32
    %8 = vector.mask %6 { %9 = vector.multi_reduction <mul>, %arg0, %7 [0, 1] : vector<8x4xf32> to f32 } : vector<8x4xi1> -> f32
    %10 = math.cos %2#1 : vector<8x2xf32>
    %11 = vector.shuffle %2#0, %2#0 [7, 12, 3, 3, 2, 13, 9, 11] : vector<8x2xf32>, vector<8x2xf32>
    %12 = arith.constant dense<[[-0.000000e+00, -1.1754942106924411e-38, -1.1754942106924411e-38, -3.4028234663852886e+38], [-1.401298e-45, 1.1754942106924411e-38, 1.1754943508222875e-38, -2.000000e+00], [0x7FC00000, 5.000000e-01, -1.1754942106924411e-38, 1.1754943508222875e-38], [-1.1754943508222875e-38, 1.000000e+00, -1.1754943508222875e-38, 5.000000e-01]]> : vector<4x4xf32>
    %13 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<mul>} %arg0, %12, %arg0 : vector<8x4xf32>, vector<4x4xf32> into vector<8x4xf32>
    return %8, %10, %11, %13 : f32, vector<8x2xf32>, vector<8x2xf32>, vector<8x4xf32>
  }
}

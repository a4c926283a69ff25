// fuzz: input_seed=916272 stage=compiled-x86-64-v2 mismatch: the campaign's second program of the same finding (one constant of %7 changed): a minnumf reduction of a constant holding a signalling NaN lost its -0.0 at O3 (eqsat/codegen/nans.py)
module {
  func.func @f(%arg0: vector<4x8xf64>) -> (f64, vector<3xf64>, vector<1x4xf64>, vector<3xi8>) {
    %0 = vector.extract %arg0[0] : vector<8xf64> from vector<4x8xf64>
    %1 = vector.transpose %arg0, [1, 0] : vector<4x8xf64> to vector<8x4xf64>
    %2 = arith.constant dense<[true, false, true, false, true, false, true, false]> : vector<8xi1>
    %3 = arith.constant 4.940656e-324 : f64
    %4 = vector.mask %2 { %5 = vector.reduction <minimumf>, %0, %3 : vector<8xf64> into f64 } : vector<8xi1> -> f64
    %6 = arith.cmpf ole, %0, %0 : vector<8xf64>
    %7 = arith.constant dense<[[0x7FF8000000000000, -4.940656e-324, 5.000000e-01, 0x7FF0000000000001, -2.000000e+00, 2.225073858507201e-308, -1.000000e+00, 0x7FF0000000000001]]> : vector<1x8xf64>
    %8 = arith.constant dense<[[-0.000000e+00], [0xFFF0000000000001], [0xFFF8000000000000], [1.7976931348623157e+308]]> : vector<4x1xf64>
    %9 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %arg0, %7, %8 : vector<4x8xf64>, vector<1x8xf64> into vector<4x1xf64>
    %10 = vector.multi_reduction <minnumf>, %8, %4 [0, 1] : vector<4x1xf64> to f64
    %11 = arith.constant dense<[2.2250738585072014e-308, 0.000000e+00, -2.000000e+00, 0x7FF0000000000001, 4.940656e-324, -1.000000e+00, -1.000000e+00, 0.000000e+00, 0xFFF8000000000000, 3.000000e+00, -2.2250738585072014e-308, -2.000000e+00, -2.225073858507201e-308, 2.225073858507201e-308, -2.225073858507201e-308, 0x7FF0000000000001, 3.000000e+00, -2.225073858507201e-308, 0.000000e+00, 0xFFF8000000000000, 0xFFF8000000000000, 1.7976931348623157e+308, -0.000000e+00, -2.2250738585072014e-308]> : vector<24xf64>
    %12 = vector.matrix_multiply %0, %11 {lhs_columns = 8 : i32, lhs_rows = 1 : i32, rhs_columns = 3 : i32} : (vector<8xf64>, vector<24xf64>) -> vector<3xf64>
    %13 = vector.transpose %8, [1, 0] : vector<4x1xf64> to vector<1x4xf64>
    %14 = vector.step : vector<3xindex>
    %15 = arith.index_cast %14 : vector<3xindex> to vector<3xi8>
    return %10, %12, %13, %15 : f64, vector<3xf64>, vector<1x4xf64>, vector<3xi8>
  }
}

// fuzz: input_seed=288 stage=compiled-avx2 mismatch: pow(1, y) of a vector.scan <maximumf> over a quiet and a signalling NaN: the interpreter's maximum kept the quiet one (1.0), LLVM's the signalling one (NaN); libm now sees every NaN quiet on both sides
module {
  func.func @f(%arg0: vector<16x16xf64>, %arg1: memref<1xi1>, %arg2: memref<16xi8>) -> (vector<16xf64>, vector<16x16xf64>, i1, vector<6xi8>) {
    %0 = arith.constant dense<[5.000000e-01, 0x7FF0000000000001, 0.000000e+00, -2.225073858507201e-308, 4.940656e-324, 2.2250738585072014e-308, 2.2250738585072014e-308, 0xFFF0000000000000, 2.2250738585072014e-308, 3.000000e+00, 0.000000e+00, 2.225073858507201e-308, 0.000000e+00, -1.000000e+00, 2.225073858507201e-308, 4.940656e-324]> : vector<16xf64>
    %1:2 = vector.scan <maximumf>, %arg0, %0 {inclusive = true, reduction_dim = 0} : vector<16x16xf64>, vector<16xf64>
    %2 = math.exp %0 : vector<16xf64>
    %3 = arith.constant 1 : index
    %4 = arith.constant 0 : index
    %5 = arith.constant dense<[3, 11, 12, 2, 7, 14]> : vector<6xi32>
    %6 = vector.constant_mask [3] : vector<6xi1>
    %7 = arith.constant dense<[2, -5, 127, 0, 1, -5]> : vector<6xi8>
    vector.scatter %arg2[%4] [%5], %6, %7 : memref<16xi8>, vector<6xi32>, vector<6xi1>, vector<6xi8>
    %8 = math.acosh %0 : vector<16xf64>
    %9 = math.powf %arg0, %1#0 : vector<16x16xf64>
    %10 = vector.reduction <mul>, %6 : vector<6xi1> into i1
    %11 = arith.constant 2 : i8
    %12 = vector.insert %11, %7[1] : i8 into vector<6xi8>
    %13 = vector.insert %11, %12[1] : i8 into vector<6xi8>
    return %8, %9, %10, %13 : vector<16xf64>, vector<16x16xf64>, i1, vector<6xi8>
  }
}

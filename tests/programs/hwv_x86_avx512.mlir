// REFERENCE: mlir22
// REQUIRES: avx512f
// AVX-512 compress: the selected lanes packed low, the rest from src, constant_src or zero.
func.func @entry() {
  %k = arith.constant dense<[true, false, true, true, false, false, false, true, true, false, false, false, false, false, false, true]> : vector<16xi1>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]> : vector<16xf32>
  %s = arith.constant dense<-1.0> : vector<16xf32>
  %r = x86vector.avx512.mask.compress %k, %c, %s : vector<16xf32>, vector<16xf32>
  vector.print %r : vector<16xf32>
  %r2 = x86vector.avx512.mask.compress %k, %c : vector<16xf32>
  vector.print %r2 : vector<16xf32>
  %r3 = x86vector.avx512.mask.compress %k, %c {constant_src = dense<7.5> : vector<16xf32>} : vector<16xf32>
  vector.print %r3 : vector<16xf32>
  %k8 = arith.constant dense<[false, true, false, true, true, false, false, false]> : vector<8xi1>
  %i = arith.constant dense<[10, 20, 30, 40, 50, 60, 70, 80]> : vector<8xi64>
  %si = arith.constant dense<-9> : vector<8xi64>
  %ri = x86vector.avx512.mask.compress %k8, %i, %si : vector<8xi64>, vector<8xi64>
  vector.print %ri : vector<8xi64>
  %none = arith.constant dense<false> : vector<16xi1>
  %r4 = x86vector.avx512.mask.compress %none, %c, %s : vector<16xf32>, vector<16xf32>
  vector.print %r4 : vector<16xf32>
  return
}

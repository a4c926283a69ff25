// REFERENCE: mlir22
// REQUIRES: avx
// x86 HWV ops: horizontal adds (SSE3 hadd.ps/pd, AVX hadd.ps.256/pd.256 per 128-bit block)
// and the AVX dot product x86vector.avx.intr.dot (vdpps 0xff: per half, (p0+p1)+(p2+p3)).
func.func @entry() {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : vector<8xf32>
  %b = arith.constant dense<[0.5, 1.0, 1.5, 2.0, -1.0, 0.25, 2.0, 3.0]> : vector<8xf32>
  %h = llvm.call_intrinsic "llvm.x86.avx.hadd.ps.256"(%a, %b) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  vector.print %h : vector<8xf32>
  %a4 = arith.constant dense<[1.0, 2.0, -3.0, 4.5]> : vector<4xf32>
  %b4 = arith.constant dense<[1.0e8, 1.0, -0.0, -0.0]> : vector<4xf32>
  %h4 = llvm.call_intrinsic "llvm.x86.sse3.hadd.ps"(%a4, %b4) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  vector.print %h4 : vector<4xf32>
  %ad = arith.constant dense<[1.5, 2.0]> : vector<2xf64>
  %bd = arith.constant dense<[-4.0, 0.25]> : vector<2xf64>
  %hd = llvm.call_intrinsic "llvm.x86.sse3.hadd.pd"(%ad, %bd) : (vector<2xf64>, vector<2xf64>) -> vector<2xf64>
  vector.print %hd : vector<2xf64>
  %ad4 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf64>
  %bd4 = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf64>
  %hd4 = llvm.call_intrinsic "llvm.x86.avx.hadd.pd.256"(%ad4, %bd4) : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>
  vector.print %hd4 : vector<4xf64>
  %d = x86vector.avx.intr.dot %a, %b : vector<8xf32>
  vector.print %d : vector<8xf32>
  // The tree order shows: (1e8 + 1) + (-1e8 + 1) is 0 in f32; a sequential sum gives 1.
  %p = arith.constant dense<[1.0e8, 1.0, -1.0e8, 1.0, 1.0, 1.0e8, 1.0, -1.0e8]> : vector<8xf32>
  %one = arith.constant dense<1.0> : vector<8xf32>
  %d2 = x86vector.avx.intr.dot %p, %one : vector<8xf32>
  vector.print %d2 : vector<8xf32>
  return
}

// REFERENCE: mlir22 -- printMemref* of libmlir_runner_utils; base@ addresses differ per run
// Unranked memrefs handed to the runner's printMemref functions: f32 2-D, a strided subview
// (same base, offset 7), 0-D, 3-D, i32, i64, f64 and index.
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefInd(memref<*xindex>)
func.func @entry() {
  %c0 = arith.constant 0 : index
  %A = memref.alloc() : memref<4x6xf32>
  %va = arith.constant dense<[[0.5, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [18.0, 19.0, 20.0, 21.0, 22.0, 1.0e+20]]> : vector<4x6xf32>
  vector.transfer_write %va, %A[%c0, %c0] : vector<4x6xf32>, memref<4x6xf32>
  %u = memref.cast %A : memref<4x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %s = memref.subview %A[1, 1][2, 3][1, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 2], offset: 7>>
  %us = memref.cast %s : memref<2x3xf32, strided<[6, 2], offset: 7>> to memref<*xf32>
  call @printMemrefF32(%us) : (memref<*xf32>) -> ()
  %D = memref.alloc() : memref<f32>
  %f = arith.constant -2.25 : f32
  memref.store %f, %D[] : memref<f32>
  %ud = memref.cast %D : memref<f32> to memref<*xf32>
  call @printMemrefF32(%ud) : (memref<*xf32>) -> ()
  %E = memref.alloc() : memref<2x2x3xi32>
  %ve = arith.constant dense<[[[1, 2, 3], [4, 5, 6]], [[-7, 8, 9], [10, 11, 12]]]> : vector<2x2x3xi32>
  vector.transfer_write %ve, %E[%c0, %c0, %c0] : vector<2x2x3xi32>, memref<2x2x3xi32>
  %ue = memref.cast %E : memref<2x2x3xi32> to memref<*xi32>
  call @printMemrefI32(%ue) : (memref<*xi32>) -> ()
  %L = memref.alloc() : memref<1x3xi64>
  %vl = arith.constant dense<[[-9000000000, 0, 1]]> : vector<1x3xi64>
  vector.transfer_write %vl, %L[%c0, %c0] : vector<1x3xi64>, memref<1x3xi64>
  %ul = memref.cast %L : memref<1x3xi64> to memref<*xi64>
  call @printMemrefI64(%ul) : (memref<*xi64>) -> ()
  %F = memref.alloc() : memref<3xf64>
  %vf = arith.constant dense<[0.1, -0.0, 123456789.0]> : vector<3xf64>
  vector.transfer_write %vf, %F[%c0] : vector<3xf64>, memref<3xf64>
  %uf = memref.cast %F : memref<3xf64> to memref<*xf64>
  call @printMemrefF64(%uf) : (memref<*xf64>) -> ()
  %I = memref.alloc() : memref<2xindex>
  %vi = arith.constant dense<[7, 42]> : vector<2xindex>
  vector.transfer_write %vi, %I[%c0] : vector<2xindex>, memref<2xindex>
  %ui = memref.cast %I : memref<2xindex> to memref<*xindex>
  call @printMemrefInd(%ui) : (memref<*xindex>) -> ()
  return
}

// REFERENCE: mlir22
// memref views alias one buffer: reinterpret_cast (static and dynamic), expand_shape,
// collapse_shape, transpose, extract_strided_metadata, assume_alignment, realloc; a write
// through one view is read through the others, with vector.load/transfer_read/gather.
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  %pad = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<24xf32>
  %init = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0]> : vector<24xf32>
  vector.store %init, %A[%c0] : memref<24xf32>, vector<24xf32>
  %al = memref.assume_alignment %A, 16 : memref<24xf32>
  // 4x6 row-major view, then a dynamic 2x3 window at offset 7 with strides [6, 1]
  %R = memref.reinterpret_cast %al to offset: [0], sizes: [4, 6], strides: [6, 1] : memref<24xf32> to memref<4x6xf32>
  %row = vector.load %R[%c2, %c0] : memref<4x6xf32>, vector<6xf32>
  vector.print %row : vector<6xf32>
  %W = memref.reinterpret_cast %al to offset: [%c6], sizes: [%c2, %c3], strides: [%c6, %c1] : memref<24xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %w = vector.transfer_read %W[%c0, %c0], %pad : memref<?x?xf32, strided<[?, ?], offset: ?>>, vector<2x4xf32>
  vector.print %w : vector<2x4xf32>
  // every other column: strides [6, 2]
  %S = memref.reinterpret_cast %al to offset: [1], sizes: [4, 3], strides: [6, 2] : memref<24xf32> to memref<4x3xf32, strided<[6, 2], offset: 1>>
  %s = vector.transfer_read %S[%c1, %c0], %pad {in_bounds = [true, true]} : memref<4x3xf32, strided<[6, 2], offset: 1>>, vector<2x3xf32>
  vector.print %s : vector<2x3xf32>
  %x = memref.load %S[%c3, %c2] : memref<4x3xf32, strided<[6, 2], offset: 1>>
  vector.print %x : f32
  %E = memref.expand_shape %A [[0, 1, 2]] output_shape [2, 3, 4] : memref<24xf32> into memref<2x3x4xf32>
  %e = vector.transfer_read %E[%c1, %c1, %c0], %pad {in_bounds = [true, true]} : memref<2x3x4xf32>, vector<2x4xf32>
  vector.print %e : vector<2x4xf32>
  %C = memref.collapse_shape %E [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
  %cv = vector.load %C[%c4, %c0] : memref<6x4xf32>, vector<4xf32>
  vector.print %cv : vector<4xf32>
  %T = memref.transpose %R (i, j) -> (j, i) : memref<4x6xf32> to memref<6x4xf32, strided<[1, 6]>>
  %t = vector.transfer_read %T[%c1, %c0], %pad {in_bounds = [true, true]} : memref<6x4xf32, strided<[1, 6]>>, vector<2x4xf32>
  vector.print %t : vector<2x4xf32>
  %t1 = memref.load %T[%c5, %c3] : memref<6x4xf32, strided<[1, 6]>>
  vector.print %t1 : f32
  // write through the transposed view; read back through the flat buffer
  %v9 = arith.constant dense<[90.0, 91.0]> : vector<2xf32>
  vector.transfer_write %v9, %T[%c0, %c1] {in_bounds = [true]} : vector<2xf32>, memref<6x4xf32, strided<[1, 6]>>
  %back = vector.load %A[%c6] : memref<24xf32>, vector<6xf32>
  vector.print %back : vector<6xf32>
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %S : memref<4x3xf32, strided<[6, 2], offset: 1>> -> memref<f32>, index, index, index, index, index
  vector.print %off : index
  vector.print %sz#0 : index
  vector.print %sz#1 : index
  vector.print %st#0 : index
  vector.print %st#1 : index
  %b0 = memref.load %base[] : memref<f32>
  vector.print %b0 : f32
  // gather and scatter through a strided view (MLIR lowers them only for a unit minor stride)
  %G = memref.reinterpret_cast %al to offset: [7], sizes: [3, 4], strides: [6, 1] : memref<24xf32> to memref<3x4xf32, strided<[6, 1], offset: 7>>
  %idx = arith.constant dense<[2, 0, 1]> : vector<3xi32>
  %m = arith.constant dense<[true, true, false]> : vector<3xi1>
  %pt = arith.constant dense<-7.0> : vector<3xf32>
  %g = vector.gather %G[%c2, %c0] [%idx], %m, %pt : memref<3x4xf32, strided<[6, 1], offset: 7>>, vector<3xi32>, vector<3xi1>, vector<3xf32> into vector<3xf32>
  vector.print %g : vector<3xf32>
  %sv = arith.constant dense<[-1.0, -2.0, -3.0]> : vector<3xf32>
  vector.scatter %G[%c1, %c1] [%idx], %m, %sv : memref<3x4xf32, strided<[6, 1], offset: 7>>, vector<3xi32>, vector<3xi1>, vector<3xf32>
  %last = vector.load %A[%c12] : memref<24xf32>, vector<6xf32>
  vector.print %last : vector<6xf32>
  // realloc: a new buffer with the old elements first
  %small = memref.alloc() : memref<3xf32>
  %three = arith.constant dense<[1.5, 2.5, 3.5]> : vector<3xf32>
  vector.store %three, %small[%c0] : memref<3xf32>, vector<3xf32>
  %big = memref.realloc %small : memref<3xf32> to memref<5xf32>
  %z = arith.constant 9.5 : f32
  memref.store %z, %big[%c4] : memref<5xf32>
  memref.store %z, %big[%c3] : memref<5xf32>
  %bv = vector.load %big[%c0] : memref<5xf32>, vector<5xf32>
  vector.print %bv : vector<5xf32>
  %shr = memref.realloc %big(%c2) : memref<5xf32> to memref<?xf32>
  %sh = vector.transfer_read %shr[%c0], %pad : memref<?xf32>, vector<3xf32>
  vector.print %sh : vector<3xf32>
  memref.dealloc %shr : memref<?xf32>
  memref.dealloc %A : memref<24xf32>
  return
}

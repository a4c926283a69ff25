// REFERENCE: mlir22
// vector.transfer_read out of bounds and masked: lanes past the end of a dim (in_bounds
// false, the default) read the padding value; a mask operand (shape = vector shape before
// the permutation) sends masked-off lanes to the padding; OOB along a permuted dim; an
// all-false mask; dynamic-size memref where the bound is only known at run time; i8 padding.
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant -7.5 : f32
  %m = memref.alloc() : memref<3x4xf32>
  %v = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0], [20.0, 21.0, 22.0, 23.0]]> : vector<3x4xf32>
  vector.transfer_write %v, %m[%c0, %c0] : vector<3x4xf32>, memref<3x4xf32>

  // Minor dim out of bounds: lanes 2..5 -> padding.
  %r0 = vector.transfer_read %m[%c1, %c2], %pad : memref<3x4xf32>, vector<6xf32>
  vector.print %r0 : vector<6xf32>
  // Both dims out of bounds.
  %r1 = vector.transfer_read %m[%c2, %c1], %pad : memref<3x4xf32>, vector<3x4xf32>
  vector.print %r1 : vector<3x4xf32>
  // Leading dim in bounds, minor out of bounds.
  %r2 = vector.transfer_read %m[%c1, %c3], %pad {in_bounds = [true, false]} : memref<3x4xf32>, vector<2x3xf32>
  vector.print %r2 : vector<2x3xf32>
  // Transposed read running off the end of dim 0: v[a, b] = m[1 + b, 2 + a].
  %r3 = vector.transfer_read %m[%c1, %c2], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<3x4xf32>, vector<3x3xf32>
  vector.print %r3 : vector<3x3xf32>

  // Masked 1-D read.
  %mk = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %r4 = vector.transfer_read %m[%c2, %c0], %pad, %mk : memref<3x4xf32>, vector<4xf32>
  vector.print %r4 : vector<4xf32>
  // Masked and out of bounds: both send lanes to the padding.
  %mk2 = vector.create_mask %c3 : vector<5xi1>
  %r5 = vector.transfer_read %m[%c0, %c1], %pad, %mk2 : memref<3x4xf32>, vector<5xf32>
  vector.print %r5 : vector<5xf32>
  // 2-D mask.
  %mk3 = vector.constant_mask [2, 3] : vector<3x4xi1>
  %r6 = vector.transfer_read %m[%c0, %c0], %pad, %mk3 : memref<3x4xf32>, vector<3x4xf32>
  vector.print %r6 : vector<3x4xf32>
  // Mask with a transposing map: the mask is indexed in memref order (rows x cols = 2x3).
  %mk4 = arith.constant dense<[[true, true, false], [false, true, true]]> : vector<2x3xi1>
  %r7 = vector.transfer_read %m[%c0, %c0], %pad, %mk4 {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<3x4xf32>, vector<3x2xf32>
  vector.print %r7 : vector<3x2xf32>
  // All-false mask.
  %none = vector.constant_mask [0] : vector<3xi1>
  %r8 = vector.transfer_read %m[%c0, %c0], %pad, %none : memref<3x4xf32>, vector<3xf32>
  vector.print %r8 : vector<3xf32>

  // Dynamic-size memref: bound known only at run time.
  %n = arith.constant 5 : index
  %d = memref.alloc(%n) : memref<?xi8>
  %dv = arith.constant dense<[1, 2, 3, 4, 5]> : vector<5xi8>
  vector.transfer_write %dv, %d[%c0] : vector<5xi8>, memref<?xi8>
  %ipad = arith.constant -128 : i8
  %r9 = vector.transfer_read %d[%c2], %ipad : memref<?xi8>, vector<8xi8>
  vector.print %r9 : vector<8xi8>
  memref.dealloc %d : memref<?xi8>
  memref.dealloc %m : memref<3x4xf32>
  return
}

// REFERENCE: mlir22 -- hand check of ../extract_insert_dynamic_leading.mlir: each dynamic n-D extract/insert done through a memref (transfer_write, memref.load/store, vector.load, transfer_read)
func.func @dyn(%v: vector<3x4xi32>, %w: vector<2x2x3xf32>, %i: index, %j: index, %k: index)
    -> (vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0 : i32
  %zf = arith.constant 0.0 : f32
  %mv = memref.alloca() : memref<3x4xi32>
  vector.transfer_write %v, %mv[%c0, %c0] : vector<3x4xi32>, memref<3x4xi32>
  %row = vector.load %mv[%i, %c0] : memref<3x4xi32>, vector<4xi32>
  %a = memref.load %mv[%i, %c2] : memref<3x4xi32>
  %b = memref.load %mv[%i, %j] : memref<3x4xi32>
  %nr = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
  vector.store %nr, %mv[%i, %c0] : memref<3x4xi32>, vector<4xi32>
  %c = vector.transfer_read %mv[%c0, %c0], %z : memref<3x4xi32>, vector<3x4xi32>
  vector.transfer_write %v, %mv[%c0, %c0] : vector<3x4xi32>, memref<3x4xi32>
  %x = arith.constant 99 : i32
  memref.store %x, %mv[%i, %j] : memref<3x4xi32>
  %d = vector.transfer_read %mv[%c0, %c0], %z : memref<3x4xi32>, vector<3x4xi32>
  %mw = memref.alloca() : memref<2x2x3xf32>
  vector.transfer_write %w, %mw[%c0, %c0, %c0] : vector<2x2x3xf32>, memref<2x2x3xf32>
  %e = memref.load %mw[%k, %c1, %i] : memref<2x2x3xf32>
  %y = arith.constant -0.5 : f32
  memref.store %y, %mw[%k, %c0, %i] : memref<2x2x3xf32>
  %f = vector.transfer_read %mw[%c0, %c0, %c0], %zf : memref<2x2x3xf32>, vector<2x2x3xf32>
  return %row, %a, %b, %c, %d, %e, %f : vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>
}
func.func @entry() {
  %v = arith.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : vector<3x4xi32>
  %w = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]> : vector<2x2x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r:7 = func.call @dyn(%v, %w, %c1, %c3, %c1) : (vector<3x4xi32>, vector<2x2x3xf32>, index, index, index) -> (vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>)
  vector.print %r#0 : vector<4xi32>
  vector.print %r#1 : i32
  vector.print %r#2 : i32
  vector.print %r#3 : vector<3x4xi32>
  vector.print %r#4 : vector<3x4xi32>
  vector.print %r#5 : f32
  vector.print %r#6 : vector<2x2x3xf32>
  %s:7 = func.call @dyn(%v, %w, %c2, %c0, %c0) : (vector<3x4xi32>, vector<2x2x3xf32>, index, index, index) -> (vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>)
  vector.print %s#0 : vector<4xi32>
  vector.print %s#1 : i32
  vector.print %s#2 : i32
  vector.print %s#3 : vector<3x4xi32>
  vector.print %s#4 : vector<3x4xi32>
  vector.print %s#5 : f32
  vector.print %s#6 : vector<2x2x3xf32>
  return
}

// REFERENCE: mlir22
// 0-D vectors (vector<f32>, vector<i32>, ...): constants, arith on 0-D, broadcast scalar ->
// 0-D and 0-D -> n-D, extract [] to a scalar, insert [] from a scalar, shape_cast 0-D <->
// vector<1xT>, 0-D transfer_read/transfer_write on a 0-D memref and on a 1-D memref (map
// () -> ()), 0-D vector.load/store, 0-D reduction via multi_reduction of a 1-D vector into a
// scalar; vector.print of a 0-D vector prints "( x )".
func.func @entry() {
  %a = arith.constant dense<1.5> : vector<f32>
  %b = arith.constant dense<-4.0> : vector<f32>
  %s = arith.addf %a, %b : vector<f32>
  vector.print %s : vector<f32>
  %m = arith.mulf %a, %b : vector<f32>
  vector.print %m : vector<f32>
  %i = arith.constant dense<7> : vector<i32>
  %j = arith.constant dense<-3> : vector<i32>
  %k = arith.muli %i, %j : vector<i32>
  vector.print %k : vector<i32>
  %cmp = arith.cmpi slt, %i, %j : vector<i32>
  vector.print %cmp : vector<i1>
  %sel = arith.select %cmp, %i, %j : vector<i1>, vector<i32>
  vector.print %sel : vector<i32>

  %x = arith.constant 2.75 : f32
  %bx = vector.broadcast %x : f32 to vector<f32>
  vector.print %bx : vector<f32>
  %e = vector.extract %s[] : f32 from vector<f32>
  vector.print %e : f32
  %ins = vector.insert %x, %a[] : f32 into vector<f32>
  vector.print %ins : vector<f32>
  %sc = vector.shape_cast %a : vector<f32> to vector<1xf32>
  vector.print %sc : vector<1xf32>
  %back = vector.shape_cast %sc : vector<1xf32> to vector<f32>
  vector.print %back : vector<f32>
  %bc = vector.broadcast %b : vector<f32> to vector<3xf32>
  vector.print %bc : vector<3xf32>

  %mem0 = memref.alloca() : memref<f32>
  vector.transfer_write %m, %mem0[] : vector<f32>, memref<f32>
  %pad = arith.constant 0.0 : f32
  %r0 = vector.transfer_read %mem0[], %pad : memref<f32>, vector<f32>
  vector.print %r0 : vector<f32>
  %sv = memref.load %mem0[] : memref<f32>
  vector.print %sv : f32

  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %mem1 = memref.alloca() : memref<4xf32>
  %init = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
  vector.store %init, %mem1[%c0] : memref<4xf32>, vector<4xf32>
  %r1 = vector.transfer_read %mem1[%c2], %pad {permutation_map = affine_map<(d0) -> ()>} : memref<4xf32>, vector<f32>
  vector.print %r1 : vector<f32>
  vector.transfer_write %a, %mem1[%c0] {permutation_map = affine_map<(d0) -> ()>} : vector<f32>, memref<4xf32>
  %l = vector.load %mem1[%c0] : memref<4xf32>, vector<4xf32>
  vector.print %l : vector<4xf32>
  vector.store %b, %mem1[%c2] : memref<4xf32>, vector<f32>
  %l1 = vector.load %mem1[%c0] : memref<4xf32>, vector<4xf32>
  vector.print %l1 : vector<4xf32>
  %acc = arith.constant 0.5 : f32
  %red = vector.multi_reduction <add>, %l1, %acc [0] : vector<4xf32> to f32
  vector.print %red : f32
  return
}

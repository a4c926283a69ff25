// REFERENCE: mlir22
// The masked memory intrinsics through pointers, as convert-vector-to-llvm emits them: a
// memref's aligned pointer, inttoptr, getelementptr (dynamic and constant index, inbounds),
// then llvm.intr.masked.load/store/expandload/compressstore.
func.func @entry() {
  %m = memref.alloc() : memref<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<16xf32>
  }
  %base = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
  %b64 = arith.index_cast %base : index to i64
  %p = llvm.inttoptr %b64 : i64 to !llvm.ptr
  %c3 = arith.constant 3 : i64
  %q = llvm.getelementptr inbounds %p[%c3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %mask = arith.constant dense<[true, false, true, true, false, false, true, false]> : vector<8xi1>
  %pt = arith.constant dense<-1.0> : vector<8xf32>
  // lanes 0, 2, 3, 6 read m[3 + lane]; the others keep -1
  %v = llvm.intr.masked.load %q, %mask, %pt {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %v : vector<8xf32>
  // set lanes read consecutive elements m[3], m[4], m[5], m[6]
  %e = "llvm.intr.masked.expandload"(%q, %mask, %pt) : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %e : vector<8xf32>
  // write lanes 0, 2, 3, 6 of 100..107 to m[8 + lane]
  %w = arith.constant dense<[100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0]> : vector<8xf32>
  %r = llvm.getelementptr %p[8] : (!llvm.ptr) -> !llvm.ptr, f32
  llvm.intr.masked.store %w, %r, %mask {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
  %all = vector.load %m[%c0] : memref<16xf32>, vector<16xf32>
  vector.print %all : vector<16xf32>
  // the set lanes of -1..-8, packed, to m[0], m[1], ...
  %n = arith.constant dense<[-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0]> : vector<8xf32>
  "llvm.intr.masked.compressstore"(%n, %p, %mask) : (vector<8xf32>, !llvm.ptr, vector<8xi1>) -> ()
  %all2 = vector.load %m[%c0] : memref<16xf32>, vector<16xf32>
  vector.print %all2 : vector<16xf32>
  memref.dealloc %m : memref<16xf32>
  return
}

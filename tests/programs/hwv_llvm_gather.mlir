// REFERENCE: mlir22
// llvm.intr.masked.gather/scatter through a vector of pointers: getelementptr of a memref's
// aligned pointer with a vector of indices gives one address per lane.
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
  %q = llvm.getelementptr %p[2] : (!llvm.ptr) -> !llvm.ptr, f32
  %idx = arith.constant dense<[13, 0, 5, 5, 1, 100, 7, 2]> : vector<8xi64>
  %ps = llvm.getelementptr %q[%idx] : (!llvm.ptr, vector<8xi64>) -> vector<8x!llvm.ptr>, f32
  %mask = arith.constant dense<[true, true, true, true, false, false, true, true]> : vector<8xi1>
  %pt = arith.constant dense<-1.0> : vector<8xf32>
  // lane j reads m[2 + idx[j]] where set; lane 5 (index 100) is masked off
  %g = llvm.intr.masked.gather %ps, %mask, %pt {alignment = 4 : i32} : (vector<8x!llvm.ptr>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %g : vector<8xf32>
  %w = arith.constant dense<[100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0]> : vector<8xf32>
  %sm = arith.constant dense<[true, true, false, true, false, false, true, true]> : vector<8xi1>
  llvm.intr.masked.scatter %w, %ps, %sm {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into vector<8x!llvm.ptr>
  %all = vector.load %m[%c0] : memref<16xf32>, vector<16xf32>
  vector.print %all : vector<16xf32>
  memref.dealloc %m : memref<16xf32>
  return
}

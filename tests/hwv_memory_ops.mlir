// The pointer and masked-memory HWV ops, in the syntax mlir-opt-22 prints (tests/test_hwv_ops.py).
func.func @f(%m: memref<16xf32>, %p: !llvm.ptr, %i: i64, %mask: vector<8xi1>, %pt: vector<8xf32>) -> (vector<8xf32>, !llvm.ptr) {
  %q = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %q2 = llvm.getelementptr %p[3] : (!llvm.ptr) -> !llvm.ptr, f32
  %v = llvm.intr.masked.load %q, %mask, %pt {alignment = 4 : i32, nontemporal} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  %w = llvm.intr.masked.load %q2, %mask, %v {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  llvm.intr.masked.store %w, %q, %mask {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
  %e = "llvm.intr.masked.expandload"(%q, %mask, %w) : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  "llvm.intr.masked.compressstore"(%e, %q2, %mask) : (vector<8xf32>, !llvm.ptr, vector<8xi1>) -> ()
  %iv = arith.constant dense<[3, 1, 4, 1, 5, 9, 2, 6]> : vector<8xi64>
  %ps = llvm.getelementptr %p[%iv] : (!llvm.ptr, vector<8xi64>) -> vector<8x!llvm.ptr>, f32
  %g = llvm.intr.masked.gather %ps, %mask, %pt {alignment = 4 : i32} : (vector<8x!llvm.ptr>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  llvm.intr.masked.scatter %g, %ps, %mask {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into vector<8x!llvm.ptr>
  %base = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
  %b = arith.index_cast %base : index to i64
  %r = llvm.inttoptr %b : i64 to !llvm.ptr
  return %e, %r : vector<8xf32>, !llvm.ptr
}

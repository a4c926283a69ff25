// REFERENCE: mlir22 -- hand check of ../mask_passthru.mlir: vector.mask %mk, %pt { transfer_read } == arith.select %mk, (transfer_read with mask operand %mk), %pt
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %pad = arith.constant -1.0 : f32
  %m = memref.alloc() : memref<8xf32>
  %v = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xf32>
  vector.store %v, %m[%c0] : memref<8xf32>, vector<8xf32>
  %mk = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %pt = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
  %x0 = vector.transfer_read %m[%c1], %pad, %mk : memref<8xf32>, vector<4xf32>
  %r0 = arith.select %mk, %x0, %pt : vector<4xi1>, vector<4xf32>
  vector.print %r0 : vector<4xf32>
  %mk1 = arith.constant dense<[false, true, true, false]> : vector<4xi1>
  %x1 = vector.transfer_read %m[%c6], %pad, %mk1 : memref<8xf32>, vector<4xf32>
  %r1 = arith.select %mk1, %x1, %pt : vector<4xi1>, vector<4xf32>
  vector.print %r1 : vector<4xf32>
  memref.dealloc %m : memref<8xf32>

  %t = memref.alloca() : memref<2x3xi32>
  %tv = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  vector.transfer_write %tv, %t[%c0, %c0] : vector<2x3xi32>, memref<2x3xi32>
  %ipad = arith.constant 0 : i32
  %tm = vector.constant_mask [1, 2] : vector<2x3xi1>
  %tp = arith.constant dense<[[-1, -2, -3], [-4, -5, -6]]> : vector<2x3xi32>
  %x2 = vector.transfer_read %t[%c0, %c0], %ipad, %tm : memref<2x3xi32>, vector<2x3xi32>
  %r2 = arith.select %tm, %x2, %tp : vector<2x3xi1>, vector<2x3xi32>
  vector.print %r2 : vector<2x3xi32>
  return
}

// REFERENCE: mlir22
// vector.mask regions (no passthru) around every maskable op MLIR 22 lowers:
//   reduction (masked-off lanes do not participate: add/mul/maxsi/minnumf, with and without
//   acc), multi_reduction (same, per reduced row), outerproduct with acc (masked-off lanes keep
//   acc), contract (masked-off (i, j, k) iterations do not contribute; mask over the iteration
//   space), transfer_read (masked-off lanes read the padding) and transfer_write (masked-off
//   lanes not written). Masks come from constants, create_mask and constant_mask; one region
//   is written out with an explicit vector.yield.
// (vector.mask with a passthru operand: see mask_passthru.mlir.)
#matmul = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : vector<8xi32>
  %m = arith.constant dense<[true, false, true, false, true, false, true, false]> : vector<8xi1>
  %r0 = vector.mask %m { vector.reduction <add>, %v : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %r0 : i32
  %acc = arith.constant 100 : i32
  %r1 = vector.mask %m { vector.reduction <mul>, %v, %acc : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %r1 : i32
  // Explicit region form with vector.yield.
  %r1b = vector.mask %m {
    %red = vector.reduction <add>, %v, %acc : vector<8xi32> into i32
    vector.yield %red : i32
  } : vector<8xi1> -> i32
  vector.print %r1b : i32
  %m3 = vector.create_mask %c3 : vector<8xi1>
  %r2 = vector.mask %m3 { vector.reduction <maxsi>, %v : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %r2 : i32
  %f = arith.constant dense<[4.0, -2.0, 8.0, 0.5]> : vector<4xf32>
  %fm = arith.constant dense<[true, false, false, true]> : vector<4xi1>
  %r3 = vector.mask %fm { vector.reduction <minnumf>, %f : vector<4xf32> into f32 } : vector<4xi1> -> f32
  vector.print %r3 : f32
  %facc = arith.constant 1.5 : f32
  %r4 = vector.mask %fm { vector.reduction <add>, %f, %facc : vector<4xf32> into f32 } : vector<4xi1> -> f32
  vector.print %r4 : f32

  %src = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %mm = arith.constant dense<[[true, false, true], [true, true, false]]> : vector<2x3xi1>
  %a2 = arith.constant dense<[0.5, 0.25]> : vector<2xf32>
  %r5 = vector.mask %mm { vector.multi_reduction <add>, %src, %a2 [1] : vector<2x3xf32> to vector<2xf32> } : vector<2x3xi1> -> vector<2xf32>
  vector.print %r5 : vector<2xf32>
  %a3 = arith.constant dense<[1.0, 1.0, 1.0]> : vector<3xf32>
  %r6 = vector.mask %mm { vector.multi_reduction <mul>, %src, %a3 [0] : vector<2x3xf32> to vector<3xf32> } : vector<2x3xi1> -> vector<3xf32>
  vector.print %r6 : vector<3xf32>

  %l = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %rr = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
  %oa = arith.constant dense<[[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]> : vector<2x3xf32>
  %r7 = vector.mask %mm { vector.outerproduct %l, %rr, %oa : vector<2xf32>, vector<3xf32> } : vector<2x3xi1> -> vector<2x3xf32>
  vector.print %r7 : vector<2x3xf32>

  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : vector<2x2xf32>
  %c = arith.constant dense<[[100.0, 200.0], [300.0, 400.0]]> : vector<2x2xf32>
  %cm = arith.constant dense<[[[true, false], [true, true]], [[false, false], [true, true]]]> : vector<2x2x2xi1>
  %r8 = vector.mask %cm { vector.contract #matmul %a, %b, %c : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32> } : vector<2x2x2xi1> -> vector<2x2xf32>
  vector.print %r8 : vector<2x2xf32>

  %pad = arith.constant -1.0 : f32
  %mem = memref.alloc() : memref<8xf32>
  %init = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xf32>
  vector.store %init, %mem[%c0] : memref<8xf32>, vector<8xf32>
  %tm = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %r9 = vector.mask %tm { vector.transfer_read %mem[%c1], %pad : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %r9 : vector<4xf32>
  %w = arith.constant dense<[-1.0, -2.0, -3.0, -4.0]> : vector<4xf32>
  vector.mask %tm { vector.transfer_write %w, %mem[%c3] : vector<4xf32>, memref<8xf32> } : vector<4xi1>
  %all = vector.load %mem[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %all : vector<8xf32>
  // 2-D masked transfer_read.
  %mem2 = memref.alloca() : memref<2x3xi32>
  %iv = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  vector.transfer_write %iv, %mem2[%c0, %c0] : vector<2x3xi32>, memref<2x3xi32>
  %cmask = vector.constant_mask [2, 2] : vector<2x3xi1>
  %ipad = arith.constant 0 : i32
  %r10 = vector.mask %cmask { vector.transfer_read %mem2[%c0, %c0], %ipad : memref<2x3xi32>, vector<2x3xi32> } : vector<2x3xi1> -> vector<2x3xi32>
  vector.print %r10 : vector<2x3xi32>
  memref.dealloc %mem : memref<8xf32>
  return
}

// REFERENCE: mlir22
// A small kernel in the style the optimizer targets: C (5x8) = A (5x5) * B (5x8) + C0 on
// memrefs, tiled 2x4 over (i, j) with a K loop carrying the 2x4 accumulator tile as an
// iter_arg: vector.transfer_read of A columns (2x1) and B rows (1x4), vector.contract on
// 2x1 x 1x4 tiles, vector.transfer_write of the tile. M = 5 is not a multiple of the tile:
// the last row tile reads row 5 of A and C out of bounds (padding 0) and its write of row 5 is
// dropped. Compared against a scalar triple loop; prints C, the max abs difference and the
// row sums (multi_reduction). All values are small integers (exact).
#mm = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}

func.func @init(%a: memref<5x5xf32>, %b: memref<5x8xf32>, %c: memref<5x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %k = %c0 to %c5 step %c1 {
      %s = arith.addi %i, %k : index
      %m = arith.remui %s, %c3 : index
      %v = arith.subi %m, %c1 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %a[%i, %k] : memref<5x5xf32>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %p = arith.muli %i, %j : index
      %m = arith.remui %p, %c7 : index
      %vi = arith.index_cast %m : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %c[%i, %j] : memref<5x8xf32>
    }
  }
  scf.for %k = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %s = arith.muli %k, %c3 : index
      %t = arith.addi %s, %j : index
      %m = arith.remui %t, %c5 : index
      %v = arith.subi %m, %c1 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %b[%k, %j] : memref<5x8xf32>
    }
  }
  return
}

func.func @matmul_tiled(%a: memref<5x5xf32>, %b: memref<5x8xf32>, %c: memref<5x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c5 step %c2 {
    scf.for %j = %c0 to %c8 step %c4 {
      %acc0 = vector.transfer_read %c[%i, %j], %pad : memref<5x8xf32>, vector<2x4xf32>
      %acc = scf.for %k = %c0 to %c5 step %c1 iter_args(%t = %acc0) -> (vector<2x4xf32>) {
        %ak = vector.transfer_read %a[%i, %k], %pad {in_bounds = [false, true]} : memref<5x5xf32>, vector<2x1xf32>
        %bk = vector.transfer_read %b[%k, %j], %pad {in_bounds = [true, true]} : memref<5x8xf32>, vector<1x4xf32>
        %r = vector.contract #mm %ak, %bk, %t : vector<2x1xf32>, vector<1x4xf32> into vector<2x4xf32>
        scf.yield %r : vector<2x4xf32>
      }
      vector.transfer_write %acc, %c[%i, %j] : vector<2x4xf32>, memref<5x8xf32>
    }
  }
  return
}

func.func @matmul_ref(%a: memref<5x5xf32>, %b: memref<5x8xf32>, %c: memref<5x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %init = memref.load %c[%i, %j] : memref<5x8xf32>
      %s = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<5x5xf32>
        %y = memref.load %b[%k, %j] : memref<5x8xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %s, %c[%i, %j] : memref<5x8xf32>
    }
  }
  return
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<5x5xf32>
  %b = memref.alloc() : memref<5x8xf32>
  %c = memref.alloc() : memref<5x8xf32>
  %a2 = memref.alloc() : memref<5x5xf32>
  %b2 = memref.alloc() : memref<5x8xf32>
  %c2 = memref.alloc() : memref<5x8xf32>
  call @init(%a, %b, %c) : (memref<5x5xf32>, memref<5x8xf32>, memref<5x8xf32>) -> ()
  call @init(%a2, %b2, %c2) : (memref<5x5xf32>, memref<5x8xf32>, memref<5x8xf32>) -> ()
  call @matmul_tiled(%a, %b, %c) : (memref<5x5xf32>, memref<5x8xf32>, memref<5x8xf32>) -> ()
  call @matmul_ref(%a2, %b2, %c2) : (memref<5x5xf32>, memref<5x8xf32>, memref<5x8xf32>) -> ()
  %r = vector.transfer_read %c[%c0, %c0], %pad : memref<5x8xf32>, vector<5x8xf32>
  %r2 = vector.transfer_read %c2[%c0, %c0], %pad : memref<5x8xf32>, vector<5x8xf32>
  vector.print %r : vector<5x8xf32>
  %d = arith.subf %r, %r2 : vector<5x8xf32>
  %ad = math.absf %d : vector<5x8xf32>
  %z = arith.constant 0.0 : f32
  %mx = vector.multi_reduction <maximumf>, %ad, %z [0, 1] : vector<5x8xf32> to f32
  vector.print %mx : f32
  %rows = arith.constant dense<0.0> : vector<5xf32>
  %sum = vector.multi_reduction <add>, %r, %rows [1] : vector<5x8xf32> to vector<5xf32>
  vector.print %sum : vector<5xf32>
  memref.dealloc %a : memref<5x5xf32>
  memref.dealloc %b : memref<5x8xf32>
  memref.dealloc %c : memref<5x8xf32>
  memref.dealloc %a2 : memref<5x5xf32>
  memref.dealloc %b2 : memref<5x8xf32>
  memref.dealloc %c2 : memref<5x8xf32>
  return
}

// REFERENCE: mlir22
// memref dialect around vectors: memref.global (mutable and constant, 1-D and 2-D),
// get_global, alloc / alloca / dealloc (static and dynamic sizes), load / store of scalars,
// 0-D memrefs, memref.cast (static <-> dynamic), memref.subview (offsets, sizes, strides,
// rank-reducing) and memref.dim, with vector.transfer_read/write on the views; a helper
// function taking a dynamic memref.
memref.global "private" @counter : memref<i32> = dense<0>
memref.global "private" constant @lut : memref<6xf32> = dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5]>
memref.global "private" @grid : memref<3x3xi16> = dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]>

func.func @bump() -> i32 {
  %g = memref.get_global @counter : memref<i32>
  %v = memref.load %g[] : memref<i32>
  %one = arith.constant 1 : i32
  %n = arith.addi %v, %one : i32
  memref.store %n, %g[] : memref<i32>
  return %n : i32
}

func.func @sum(%m: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %a = arith.addf %acc, %x : f32
    scf.yield %a : f32
  }
  return %s : f32
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b0 = func.call @bump() : () -> i32
  %b1 = func.call @bump() : () -> i32
  %b2 = func.call @bump() : () -> i32
  vector.print %b2 : i32

  %lut = memref.get_global @lut : memref<6xf32>
  %ld = memref.cast %lut : memref<6xf32> to memref<?xf32>
  %s = func.call @sum(%ld) : (memref<?xf32>) -> f32
  vector.print %s : f32
  %pad = arith.constant 0.0 : f32
  %lv = vector.transfer_read %lut[%c2], %pad : memref<6xf32>, vector<4xf32>
  vector.print %lv : vector<4xf32>

  %grid = memref.get_global @grid : memref<3x3xi16>
  %v = arith.constant dense<[-1, -2]> : vector<2xi16>
  vector.transfer_write %v, %grid[%c1, %c1] : vector<2xi16>, memref<3x3xi16>
  %ipad = arith.constant 0 : i16
  %gv = vector.transfer_read %grid[%c0, %c0], %ipad : memref<3x3xi16>, vector<3x3xi16>
  vector.print %gv : vector<3x3xi16>
  // Rank-reducing subview: column 2 as a 1-D strided view.
  %col = memref.subview %grid[0, 2] [3, 1] [1, 1] : memref<3x3xi16> to memref<3xi16, strided<[3], offset: 2>>
  %cv = vector.transfer_read %col[%c0], %ipad : memref<3xi16, strided<[3], offset: 2>>, vector<3xi16>
  vector.print %cv : vector<3xi16>
  %x = memref.load %col[%c2] : memref<3xi16, strided<[3], offset: 2>>
  vector.print %x : i16
  %seven = arith.constant 77 : i16
  memref.store %seven, %col[%c0] : memref<3xi16, strided<[3], offset: 2>>
  %gv2 = vector.transfer_read %grid[%c0, %c0], %ipad : memref<3x3xi16>, vector<3x3xi16>
  vector.print %gv2 : vector<3x3xi16>

  // Dynamic alloc, subview with stride 2, dim.
  %n = arith.constant 10 : index
  %buf = memref.alloc(%n) : memref<?xf32>
  %step = vector.step : vector<10xindex>
  %si = arith.index_cast %step : vector<10xindex> to vector<10xi32>
  %sf = arith.sitofp %si : vector<10xi32> to vector<10xf32>
  vector.transfer_write %sf, %buf[%c0] : vector<10xf32>, memref<?xf32>
  %ev = memref.subview %buf[1] [4] [2] : memref<?xf32> to memref<4xf32, strided<[2], offset: 1>>
  %evv = vector.transfer_read %ev[%c0], %pad : memref<4xf32, strided<[2], offset: 1>>, vector<4xf32>
  vector.print %evv : vector<4xf32>
  %dn = memref.dim %buf, %c0 : memref<?xf32>
  vector.print %dn : index
  %tot = func.call @sum(%buf) : (memref<?xf32>) -> f32
  vector.print %tot : f32
  memref.dealloc %buf : memref<?xf32>

  // 2-D dynamic alloc and cast back to static.
  %r = arith.constant 2 : index
  %c = arith.constant 3 : index
  %m2 = memref.alloc(%r, %c) : memref<?x?xf64>
  %d0 = memref.dim %m2, %c0 : memref<?x?xf64>
  %d1 = memref.dim %m2, %c1 : memref<?x?xf64>
  vector.print %d0 : index
  vector.print %d1 : index
  %st = memref.cast %m2 : memref<?x?xf64> to memref<2x3xf64>
  %fill = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf64>
  vector.transfer_write %fill, %st[%c0, %c0] : vector<2x3xf64>, memref<2x3xf64>
  %e = memref.load %m2[%c1, %c2] : memref<?x?xf64>
  vector.print %e : f64
  memref.dealloc %m2 : memref<?x?xf64>
  return
}

// REFERENCE: mlir22
// ub.poison as MLIR 22's vectorizer uses it: the padding of transfer_reads (masked-off and
// out-of-bounds lanes, never printed), the base of insert chains that overwrite every lane,
// scalar and i1/index poison; affine.apply/min/max as tiling leaves them (partial tiles
// `min(-d0 + N, T)`), with symbols, and floordiv/ceildiv/mod of negative values (MLIR's
// -lower-affine formulas: floor, ceiling, non-negative remainder).
#tile = affine_map<(d0) -> (-d0 + 10, 4)>
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %m = memref.alloc() : memref<10xf32>
  scf.for %i = %c0 to %c10 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<10xf32>
  }
  // partial tiles: sizes 4, 4, 2; masked reads padded with poison, masked reductions
  scf.for %t = %c0 to %c10 step %c4 {
    %n = affine.min #tile(%t)
    %last = affine.apply affine_map<(d0)[s0] -> (d0 + s0 - 1)>(%t)[%n]
    %pad = ub.poison : f32
    %mask = vector.create_mask %n : vector<4xi1>
    %v = vector.mask %mask { vector.transfer_read %m[%t], %pad {in_bounds = [true]} : memref<10xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
    %s = vector.mask %mask { vector.reduction <add>, %v : vector<4xf32> into f32 } : vector<4xi1> -> f32
    %w = arith.mulf %v, %v : vector<4xf32>
    %mx = vector.mask %mask { vector.reduction <maxnumf>, %w : vector<4xf32> into f32 } : vector<4xi1> -> f32
    vector.print %n : index
    vector.print %last : index
    vector.print %s : f32
    vector.print %mx : f32
  }
  // an out-of-bounds read padded with poison: only the in-bounds lanes are stored
  %c8 = arith.constant 8 : index
  %pad2 = ub.poison : f32
  %oob = vector.transfer_read %m[%c8], %pad2 : memref<10xf32>, vector<4xf32>
  %two = vector.extract_strided_slice %oob {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
  vector.print %two : vector<2xf32>
  // insert chains over a poison base that overwrite every lane
  %p = ub.poison : vector<2x3xi32>
  %r0 = arith.constant dense<[1, 2, 3]> : vector<3xi32>
  %r1 = arith.constant dense<[4, 5, 6]> : vector<3xi32>
  %a = vector.insert %r0, %p[0] : vector<3xi32> into vector<2x3xi32>
  %b = vector.insert %r1, %a[1] : vector<3xi32> into vector<2x3xi32>
  %bb = arith.addi %b, %b : vector<2x3xi32>
  vector.print %bb : vector<2x3xi32>
  %pi = ub.poison : vector<2xindex>
  %x0 = vector.insert %c3, %pi[0] : index into vector<2xindex>
  %x1 = vector.insert %c10, %x0[1] : index into vector<2xindex>
  vector.print %x1 : vector<2xindex>
  %pb = ub.poison : vector<3xi1>
  %true = arith.constant true
  %false = arith.constant false
  %y0 = vector.insert %true, %pb[0] : i1 into vector<3xi1>
  %y1 = vector.insert %false, %y0[1] : i1 into vector<3xi1>
  %y2 = vector.insert %true, %y1[2] : i1 into vector<3xi1>
  vector.print %y2 : vector<3xi1>
  // a poison scalar that is selected away
  %ps = ub.poison : f32
  %one = arith.constant 1.5 : f32
  %sel = arith.select %true, %one, %ps : f32
  vector.print %sel : f32
  // affine maps over negative values: floordiv rounds down, ceildiv up, mod is >= 0
  %cm7 = arith.constant -7 : index
  scf.for %k = %c0 to %c3 step %c1 {
    %q = affine.apply affine_map<(d0)[s0] -> ((d0 * 5 + s0) floordiv 3)>(%k)[%cm7]
    %r = affine.apply affine_map<(d0)[s0] -> ((d0 * 5 + s0) ceildiv 3)>(%k)[%cm7]
    %md = affine.apply affine_map<(d0)[s0] -> ((d0 * 5 + s0) mod 3)>(%k)[%cm7]
    %lo = affine.max affine_map<(d0)[s0] -> (d0 * 5 + s0, -d0 - 4, 0)>(%k)[%cm7]
    %hi = affine.min affine_map<(d0) -> (d0 * 4, 5, d0 + 3)>(%k)
    %qi = arith.index_cast %q : index to i64
    %ri = arith.index_cast %r : index to i64
    %li = arith.index_cast %lo : index to i64
    vector.print %qi : i64
    vector.print %ri : i64
    vector.print %md : index
    vector.print %li : i64
    vector.print %hi : index
  }
  memref.dealloc %m : memref<10xf32>
  return
}

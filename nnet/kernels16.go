package nnet

// This file holds the portable int16 arithmetic of the perspective net
// (PerspectiveNet): the feature transformer's rows added to and subtracted
// from the accumulators, and the clipped ReLU's dot product with the output
// weights. Where the processor allows, the same operations run as vector
// code (kernels16_amd64.s), sixteen lanes to a register, with the same
// results bit for bit (TestKernels16Match): int16 additions wrap in both,
// and the int32 sums of the dot product are exact in any order (wrapping
// included), so no order of operations needs pinning.

// addSub16 sets dst = src + p - m element-wise, wrapping on overflow; the
// slices have dst's length.
func addSub16(dst, src, p, m []int16) { addSubRows(addSub16Vector, dst, src, p, m) }

// add16 sets dst = src + p element-wise, wrapping on overflow; the slices
// have dst's length.
func add16(dst, src, p []int16) { addRows(add16Vector, dst, src, p) }

// sub16 sets dst = src - m element-wise, wrapping on overflow; the slices
// have dst's length.
func sub16(dst, src, m []int16) { subRows(sub16Vector, dst, src, m) }

// creluDot16 returns the sum over i of min(max(acc[i], 0), clip) * w[i]
// in int32, wrapping on overflow (which PerspectiveNet.Quantize rules
// out); w has acc's length, and clip >= 0.
func creluDot16(acc, w []int16, clip int16) int32 {
	w = w[:len(acc)]
	n, s := creluDot16Vector(acc, w, clip)
	return s + creluDot16Generic(acc[n:], w[n:], clip)
}

// creluDot16Generic is creluDot16 in portable Go.
func creluDot16Generic(acc, w []int16, clip int16) int32 {
	w = w[:len(acc)]
	var s int32
	for i, a := range acc {
		s += int32(min(max(a, 0), clip)) * int32(w[i])
	}
	return s
}

// kernels16 are the int16 row operations, for applyColumns.
func kernels16() rowKernels[int16] { return rowKernels[int16]{addSub16, add16, sub16} }

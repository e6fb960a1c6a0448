//go:build !amd64 || purego

package nnet

// Without the AVX2 kernels (see kernels_amd64.go) everything runs as
// portable Go.

// useAVX2 is false: there are no vector kernels in this build.
const useAVX2 = false

// affineVector reports false: affine runs as portable Go.
func affineVector(out, w, b, x []float64) bool { return false }

// tanhVector returns 0: tanhAll runs as portable Go.
func tanhVector(z []float64) int { return 0 }

// addSub sets dst = src + p - m element-wise; the slices have dst's length.
func addSub(dst, src, p, m []float64) { addSubGeneric(dst, src, p, m) }

// add sets dst = src + p element-wise; the slices have dst's length.
func add(dst, src, p []float64) { addGeneric(dst, src, p) }

// sub sets dst = src - m element-wise; the slices have dst's length.
func sub(dst, src, m []float64) { subGeneric(dst, src, m) }

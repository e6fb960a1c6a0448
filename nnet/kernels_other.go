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

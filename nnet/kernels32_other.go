//go:build !amd64 || purego

package nnet

// Without the AVX2 kernels (see kernels32_amd64.go) the evaluators'
// arithmetic runs as portable Go: every vector function does nothing.

func tanh32Vector(z []float32) int                                     { return 0 }
func activateVector(dst []float32, acc []int32, unit, b []float32) int { return 0 }
func affine32Vector(out, w, b, x []float32) bool                       { return false }
func addSubColsVector(dst, src, p, m []int32) int                      { return 0 }
func addColsVector(dst, src, p []int32) int                            { return 0 }
func subColsVector(dst, src, m []int32) int                            { return 0 }

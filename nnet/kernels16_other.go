//go:build !amd64 || purego

package nnet

// Without the AVX2 kernels (see kernels16_amd64.go) the perspective net's
// arithmetic runs as portable Go: every vector function does nothing.

func addSub16Vector(dst, src, p, m []int16) int                { return 0 }
func add16Vector(dst, src, p []int16) int                      { return 0 }
func sub16Vector(dst, src, m []int16) int                      { return 0 }
func creluDot16Vector(acc, w []int16, clip int16) (int, int32) { return 0, 0 }

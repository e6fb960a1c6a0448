//go:build amd64 && !purego

package nnet

// This file and kernels16_amd64.s hold the AVX2 versions of the perspective
// net's int16 kernels (see kernels16.go): sixteen lanes to a register, on
// the first n &^ 15 elements, the portable code doing the rest. useAVX2 is
// declared in kernels_amd64.go.

// addSub16AVX2 sets dst[i] = src[i] + p[i] - m[i] for i < n, n a positive
// multiple of 16 (rows_amd64.h).
//
//go:noescape
func addSub16AVX2(dst, src, p, m *int16, n int)

// add16AVX2 sets dst[i] = src[i] + r[i] for i < n, n a positive multiple
// of 16.
//
//go:noescape
func add16AVX2(dst, src, r *int16, n int)

// sub16AVX2 sets dst[i] = src[i] - r[i] for i < n, n a positive multiple
// of 16.
//
//go:noescape
func sub16AVX2(dst, src, r *int16, n int)

// creluDot16AVX2 returns creluDot16 of the first n elements, n a positive
// multiple of 16.
//
//go:noescape
func creluDot16AVX2(acc, w *int16, n, clip int) int32

// addSub16Vector does the first len(dst) &^ 15 elements of addSub16 with
// AVX2 and returns how many it did: 0 without AVX2.
func addSub16Vector(dst, src, p, m []int16) int {
	n := len(dst) &^ 15
	if !useAVX2 || n == 0 {
		return 0
	}
	_, _, _ = src[n-1], p[n-1], m[n-1]
	addSub16AVX2(&dst[0], &src[0], &p[0], &m[0], n)
	return n
}

// add16Vector does the first len(dst) &^ 15 elements of add16 with AVX2
// and returns how many it did: 0 without AVX2.
func add16Vector(dst, src, p []int16) int {
	n := len(dst) &^ 15
	if !useAVX2 || n == 0 {
		return 0
	}
	_, _ = src[n-1], p[n-1]
	add16AVX2(&dst[0], &src[0], &p[0], n)
	return n
}

// sub16Vector does the first len(dst) &^ 15 elements of sub16 with AVX2
// and returns how many it did: 0 without AVX2.
func sub16Vector(dst, src, m []int16) int {
	n := len(dst) &^ 15
	if !useAVX2 || n == 0 {
		return 0
	}
	_, _ = src[n-1], m[n-1]
	sub16AVX2(&dst[0], &src[0], &m[0], n)
	return n
}

// creluDot16Vector computes creluDot16 of the first len(acc) &^ 15
// elements with AVX2 and returns how many it did and their sum: 0, 0
// without AVX2. w is at least as long as acc.
func creluDot16Vector(acc, w []int16, clip int16) (int, int32) {
	n := len(acc) &^ 15
	if !useAVX2 || n == 0 {
		return 0, 0
	}
	_ = w[n-1]
	return n, creluDot16AVX2(&acc[0], &w[0], n, int(clip))
}

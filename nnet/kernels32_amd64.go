//go:build amd64 && !purego

package nnet

// This file and kernels32_amd64.s hold the AVX2 versions of the evaluators'
// float32 and int32 kernels (see kernels32.go): eight lanes to a register,
// the same operations as the portable code in the same order (no fused
// multiply-add), so that the results are the same bits
// (TestKernels32Match). useAVX2 is declared in kernels_amd64.go (and false in kernels_other.go).

// tanh32MinVector is the least length tanh32Vector takes: below it the
// portable loop is faster than a masked group of eight. Measured with a
// scratch benchmark of tanh32Generic against the vector code: 1 element
// 5.5 against 22 ns, 2 elements 8.5 against 23, 8 elements 30 against 20;
// the break-even lies between, and 5 is taken.
const tanh32MinVector = 5

// tanh32AVX2 applies tanh32 to z[0:n], n > 0, in place.
//
//go:noescape
func tanh32AVX2(z *float32, n int)

// activateAVX2 sets dst[h] = tanh32(float32(acc[h])*unit[h] + b[h]) for
// h < n, n > 0.
//
//go:noescape
func activateAVX2(dst *float32, acc *int32, unit, b *float32, n int)

// affine32AVX2 is affine32 on raw pointers: rows > 0 rows of n > 0
// weights each.
//
//go:noescape
func affine32AVX2(out, w, b, x *float32, rows, n int)

// addSubColsAVX2 sets dst[i] = src[i] + p[i] - m[i] for i < n, n a
// positive multiple of 8 (rows_amd64.h).
//
//go:noescape
func addSubColsAVX2(dst, src, p, m *int32, n int)

// addColsAVX2 sets dst[i] = src[i] + r[i] for i < n, n a positive multiple
// of 8.
//
//go:noescape
func addColsAVX2(dst, src, r *int32, n int)

// subColsAVX2 sets dst[i] = src[i] - r[i] for i < n, n a positive multiple
// of 8.
//
//go:noescape
func subColsAVX2(dst, src, r *int32, n int)

// tanh32Vector applies tanh32 to all of z with AVX2 and returns len(z), or
// returns 0 without AVX2 or for fewer than tanh32MinVector elements, which
// the portable code does faster (a net's output node is one).
func tanh32Vector(z []float32) int {
	if !useAVX2 || len(z) < tanh32MinVector {
		return 0
	}
	tanh32AVX2(&z[0], len(z))
	return len(z)
}

// activateVector does all of activate with AVX2 and returns len(dst), or
// returns 0 without AVX2. The other slices are at least as long as dst.
func activateVector(dst []float32, acc []int32, unit, b []float32) int {
	n := len(dst)
	if !useAVX2 || n == 0 {
		return 0
	}
	_, _, _ = acc[n-1], unit[n-1], b[n-1]
	activateAVX2(&dst[0], &acc[0], &unit[0], &b[0], n)
	return n
}

// affine32Vector computes affine32 with AVX2 and reports true, or reports
// false if it cannot. w holds at least len(out)*len(x) weights and b at
// least len(out) biases.
func affine32Vector(out, w, b, x []float32) bool {
	if !useAVX2 || len(x) == 0 || len(out) == 0 {
		return false
	}
	_, _ = w[len(out)*len(x)-1], b[len(out)-1]
	affine32AVX2(&out[0], &w[0], &b[0], &x[0], len(out), len(x))
	return true
}

// addSubColsVector does the first len(dst) &^ 7 elements of addSubCols
// with AVX2 and returns how many it did: 0 without AVX2.
func addSubColsVector(dst, src, p, m []int32) int {
	n := len(dst) &^ 7
	if !useAVX2 || n == 0 {
		return 0
	}
	_, _, _ = src[n-1], p[n-1], m[n-1]
	addSubColsAVX2(&dst[0], &src[0], &p[0], &m[0], n)
	return n
}

// addColsVector does the first len(dst) &^ 7 elements of addCols with
// AVX2 and returns how many it did: 0 without AVX2.
func addColsVector(dst, src, p []int32) int {
	n := len(dst) &^ 7
	if !useAVX2 || n == 0 {
		return 0
	}
	_, _ = src[n-1], p[n-1]
	addColsAVX2(&dst[0], &src[0], &p[0], n)
	return n
}

// subColsVector does the first len(dst) &^ 7 elements of subCols with
// AVX2 and returns how many it did: 0 without AVX2.
func subColsVector(dst, src, m []int32) int {
	n := len(dst) &^ 7
	if !useAVX2 || n == 0 {
		return 0
	}
	_, _ = src[n-1], m[n-1]
	subColsAVX2(&dst[0], &src[0], &m[0], n)
	return n
}

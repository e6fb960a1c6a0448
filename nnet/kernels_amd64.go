//go:build amd64 && !purego

package nnet

import "golang.org/x/sys/cpu"

// This file and kernels_amd64.s hold AVX2 versions of the arithmetic
// float64 kernels of Net.Forward: affine and tanhAll, which perform
// exactly the operations of the portable code, lane by lane and in the
// same order (no fused multiply-add), so that results are bit-identical
// whichever runs (TestKernelsMatch checks it). Build with -tags purego to
// leave them out.

// useAVX2 reports whether the processor and the operating system support
// AVX2 (golang.org/x/sys/cpu checks both CPUID and the saving of the YMM
// registers). It is set once at initialisation and never written again.
var useAVX2 = cpu.X86.HasAVX2

// affineAVX2 is affine on raw pointers: rows rows of n weights each.
//
//go:noescape
func affineAVX2(out, w, b, x *float64, rows, n int)

// tanhAVX2 is tanhAll on n elements, n a positive multiple of 4.
//
//go:noescape
func tanhAVX2(z *float64, n int)

// affineVector computes affine with AVX2 and reports true, or reports
// false if it cannot. The slices have been checked by affine.
func affineVector(out, w, b, x []float64) bool {
	if !useAVX2 || len(x) == 0 {
		return false
	}
	affineAVX2(&out[0], &w[0], &b[0], &x[0], len(out), len(x))
	return true
}

// tanhVector applies Tanh with AVX2 to z, or to all of it but a last
// single element, and returns how many elements it did (0 without AVX2).
// A tail of two or three elements goes through a zero-padded group of four.
func tanhVector(z []float64) int {
	if !useAVX2 || len(z) < 2 {
		return 0
	}
	n := len(z) &^ 3
	if n > 0 {
		tanhAVX2(&z[0], n)
	}
	if rest := z[n:]; len(rest) >= 2 {
		var group [4]float64
		copy(group[:], rest)
		tanhAVX2(&group[0], 4)
		copy(rest, group[:])
		n = len(z)
	}
	return n
}

package nnet

import (
	"math"
	"testing"
)

// TestKernelsMatch checks that affine and tanhAll give the same bits as
// their portable versions (with AVX2 they run as vector code), for every
// shape from 1 to 13 rows and inputs and for special values.
func TestKernelsMatch(t *testing.T) {
	t.Logf("AVX2 kernels: %v", useAVX2)
	rng := newRNG(111)
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		tanhClamp, -tanhClamp, math.Nextafter(tanhClamp, 0), 1e300, -1e-300, 5e-324}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for trial := range 300 {
		rows, n := 1+trial%13, 1+trial/13%13
		w, b, x := make([]float64, rows*n), make([]float64, rows), make([]float64, n)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		for i := range x {
			x[i] = rng.NormFloat64() * 4
			if trial%5 == 0 {
				x[i] = special[rng.IntN(len(special))]
			}
		}
		got, want := make([]float64, rows), make([]float64, rows)
		affine(got, w, b, x)
		affineGeneric(want, w, b, x)
		for i := range got {
			if !same(got[i], want[i]) {
				t.Fatalf("%dx%d: affine row %d = %v, portable %v", rows, n, i, got[i], want[i])
			}
		}
		z1, z2 := append([]float64(nil), x...), append([]float64(nil), x...)
		tanhAll(z1)
		tanhGeneric(z2)
		for i := range z1 {
			if !same(z1[i], z2[i]) {
				t.Fatalf("Tanh(%v) = %v, portable %v", x[i], z1[i], z2[i])
			}
		}
	}
}

// BenchmarkKernels times the two kernels on Blondie24's second layer.
func BenchmarkKernels(b *testing.B) {
	rng := newRNG(112)
	w, bias, x, out := make([]float64, 400), make([]float64, 10), make([]float64, 40), make([]float64, 10)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	for i := range x {
		x[i] = rng.NormFloat64() * 2
	}
	z := make([]float64, 40)
	b.Run("affine10x40", func(b *testing.B) {
		for b.Loop() {
			affine(out, w, bias, x)
		}
	})
	b.Run("affine10x40/portable", func(b *testing.B) {
		for b.Loop() {
			affineGeneric(out, w, bias, x)
		}
	})
	b.Run("tanh40", func(b *testing.B) {
		for b.Loop() {
			copy(z, x)
			tanhAll(z)
		}
	})
	b.Run("tanh40/portable", func(b *testing.B) {
		for b.Loop() {
			copy(z, x)
			tanhGeneric(z)
		}
	})
}

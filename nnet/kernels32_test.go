package nnet

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// special32 are the float32 inputs that test the edges of the kernels:
// signed zeros, infinities, NaN, tanh32's clamp and linear bounds and their
// neighbours, tiny (one denormal) and huge values.
var special32 = func() []float32 {
	s := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 1e-30, -1e-30, 1e-40, -1e-40, 1e38, -1e38, 1, -1}
	for _, c := range []float32{tanh32Clamp, tanh32Linear} {
		for _, v := range []float32{c, math.Nextafter32(c, 0), math.Nextafter32(c, 100)} {
			s = append(s, v, -v)
		}
	}
	return s
}()

// same32 reports whether a and b are the same float32 bits, or both NaN.
func same32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

// value32 returns a random input of the given kind: 0 normal, 1 normal
// times 4, 2 half normal and half special32, 3 around tanh32Linear.
func value32(rng *rand.Rand, kind int) float32 {
	switch {
	case kind == 1:
		return float32(rng.NormFloat64() * 4)
	case kind == 2 && rng.IntN(2) == 0:
		return special32[rng.IntN(len(special32))]
	case kind == 3:
		return float32(rng.NormFloat64() * float64(tanh32Linear))
	}
	return float32(rng.NormFloat64())
}

// intValue returns a random T: anywhere, small, or within 1000 of its
// least or greatest value.
func intValue[T int16 | int32](rng *rand.Rand) T {
	top := T(1)<<(8*unsafe.Sizeof(T(0))-1) - 1 // the shift wraps to the least value
	switch rng.IntN(4) {
	case 0:
		return T(rng.Uint32())
	case 1:
		return T(rng.IntN(2001) - 1000)
	case 2:
		return top - T(rng.IntN(1000))
	}
	return -top - 1 + T(rng.IntN(1000))
}

// guarded returns a slice of length n inside a larger one filled with
// sentinel values, and a function that fails the test if any of the
// sentinels has changed (a write beyond the slice).
func guarded[T float32 | int32 | int16](t *testing.T, n int, sentinel T) ([]T, func()) {
	t.Helper()
	buf := make([]T, n+19)
	for i := range buf {
		buf[i] = sentinel
	}
	s := buf[3 : 3+n]
	return s, func() {
		t.Helper()
		for i, v := range buf {
			if (i < 3 || i >= 3+n) && v != sentinel {
				t.Fatalf("length %d: element %d beyond the slice written: %v", n, i-3, v)
			}
		}
	}
}

// TestKernels32Match checks that affine32, tanhAll32, activate, addSubCols,
// addCols and subCols give the same bits as their portable definitions
// (with AVX2 they run as vector code), for every shape of 1 to 13 rows and
// 1 to 50 inputs (lengths up to 70 for the others, 100 for the row
// operations: checkRowKernels), random, scaled and special values, and a
// dense sweep of tanh32's domain. The outputs lie inside sentinels, which
// must not change.
func TestKernels32Match(t *testing.T) {
	t.Logf("AVX2 kernels: %v", useAVX2)
	rng := newRNG(321)
	for rows := 1; rows <= 13; rows++ {
		for n := 1; n <= 50; n++ {
			for kind := range 4 {
				w, b, x := make([]float32, rows*n), make([]float32, rows), make([]float32, n)
				for i := range w {
					w[i] = value32(rng, kind%3)
				}
				for i := range b {
					b[i] = value32(rng, kind%3)
				}
				for i := range x {
					x[i] = value32(rng, kind%3)
				}
				got, check := guarded[float32](t, rows, 0.5)
				want := make([]float32, rows)
				affine32(got, w, b, x)
				affine32Generic(want, w, b, x)
				check()
				for i := range got {
					if !same32(got[i], want[i]) {
						t.Fatalf("%dx%d kind %d: affine32 row %d = %v, portable %v", rows, n, kind, i, got[i], want[i])
					}
				}
			}
		}
	}
	for n := 1; n <= 70; n++ {
		for kind := range 4 {
			z, check := guarded[float32](t, n, 0.5)
			x := make([]float32, n)
			for i := range x {
				x[i] = value32(rng, kind)
			}
			copy(z, x)
			tanhAll32(z)
			check()
			want := append([]float32(nil), x...)
			tanh32Generic(want)
			for i := range z {
				if !same32(z[i], want[i]) {
					t.Fatalf("length %d: tanhAll32(%v) = %v, portable %v", n, x[i], z[i], want[i])
				}
			}

			acc, unit, b := make([]int32, n), make([]float32, n), make([]float32, n)
			for i := range acc {
				acc[i] = intValue[int32](rng)
				if kind < 3 {
					acc[i] >>= 18 + rng.IntN(14)
				}
				unit[i] = float32(math.Ldexp(1, -rng.IntN(30)))
				if kind == 2 && rng.IntN(4) == 0 {
					unit[i] = value32(rng, 2)
				}
				b[i] = value32(rng, kind)
			}
			dst, check := guarded[float32](t, n, 0.5)
			activate(dst, acc, unit, b)
			check()
			for h := range dst {
				want := tanh32(float32(float32(acc[h])*unit[h]) + b[h])
				if !same32(dst[h], want) {
					t.Fatalf("length %d: activate(%d, %v, %v) = %v, want %v", n, acc[h], unit[h], b[h], dst[h], want)
				}
			}
		}
	}
	// A dense sweep of tanh32's domain, where a constant one bit off shows.
	var sweep []float32
	for u := math.Float32bits(1e-4); u < math.Float32bits(12); u += 257 {
		sweep = append(sweep, math.Float32frombits(u), -math.Float32frombits(u))
	}
	got, want := append([]float32(nil), sweep...), append([]float32(nil), sweep...)
	tanhAll32(got)
	tanh32Generic(want)
	for i := range got {
		if !same32(got[i], want[i]) {
			t.Fatalf("tanhAll32(%v) = %v, portable %v", sweep[i], got[i], want[i])
		}
	}
	checkRowKernels(t, rng, kernels32(), [3]string{"addSubCols", "addCols", "subCols"})
}

// checkRowKernels checks the row operations k (addSubCols, addCols and
// subCols, or addSub16, add16 and sub16, named by names) against their
// element-wise definitions in wrapping arithmetic, out of place inside
// sentinels and in place, as the accumulators may call them, on random,
// small and extreme values of every length up to 100.
func checkRowKernels[T int16 | int32](t *testing.T, rng *rand.Rand, k rowKernels[T], names [3]string) {
	t.Helper()
	for n := range 101 {
		src, p, m := make([]T, n), make([]T, n), make([]T, n)
		for i := range src {
			src[i], p[i], m[i] = intValue[T](rng), intValue[T](rng), intValue[T](rng)
		}
		for op, name := range names {
			dst, check := guarded[T](t, n, 12345)
			inPlace := append([]T(nil), src...)
			switch op {
			case 0:
				k.addSub(dst, src, p, m)
				k.addSub(inPlace, inPlace, p, m)
			case 1:
				k.add(dst, src, p)
				k.add(inPlace, inPlace, p)
			case 2:
				k.sub(dst, src, m)
				k.sub(inPlace, inPlace, m)
			}
			check()
			for i := range dst {
				want := src[i]
				if op != 2 {
					want += p[i]
				}
				if op != 1 {
					want -= m[i]
				}
				if dst[i] != want || inPlace[i] != want {
					t.Fatalf("length %d: %s element %d = %d (in place %d), want %d", n, name, i, dst[i], inPlace[i], want)
				}
			}
		}
	}
}

// TestTanh32 checks tanh32 against math.Tanh on a dense grid over [-12, 12],
// on random points and on special32: the error, the oddness (bit for bit),
// the bound |tanh32(x)| < 1, the infinities and NaN, and monotonicity,
// which holds only up to a few units in the last place: where tanh x is
// near 1 its float32 rounding errors are larger than its increase between
// neighbouring points.
func TestTanh32(t *testing.T) {
	const (
		maxAbs   = 3.7e-7 // measured 3.576e-7, at |x| >= tanh32Clamp
		maxRel   = 3.5e-7 // below the clamp; measured 3.35e-7
		maxDrop  = 8      // ulps between neighbours; measured 7
		monotone = 3.5    // no drop below this |x|; the first is at 3.7154
	)
	var xs []float32
	for i := -120_000; i <= 120_000; i++ {
		xs = append(xs, float32(float64(i)*1e-4))
	}
	grid := len(xs)
	rng := newRNG(322)
	for range 200_000 {
		xs = append(xs, float32(rng.NormFloat64()*3), float32(math.Ldexp(rng.Float64(), -rng.IntN(40))))
	}
	xs = append(xs, special32...)
	ys := append([]float32(nil), xs...)
	tanhAll32(ys)
	neg := make([]float32, len(xs))
	for i, x := range xs {
		neg[i] = -x
	}
	tanhAll32(neg)

	bound := tanh32(tanh32Clamp)
	worstAbs, worstRel := 0.0, 0.0
	var absX, relX float32
	for i, x := range xs {
		y := ys[i]
		if !same32(y, tanh32(x)) {
			t.Fatalf("tanhAll32(%v) = %v, tanh32 gives %v", x, y, tanh32(x))
		}
		if x != x {
			if y == y {
				t.Errorf("tanh32(NaN) = %v, want NaN", y)
			}
			continue
		}
		if math.Float32bits(neg[i]) != math.Float32bits(-y) {
			t.Fatalf("tanh32(%v) = %v, want -tanh32(%v) = %v", -x, neg[i], x, -y)
		}
		if !(y > -1 && y < 1) {
			t.Fatalf("tanh32(%v) = %v, want inside (-1, 1)", x, y)
		}
		if math.IsInf(float64(x), 0) {
			if want := float32(math.Copysign(float64(bound), float64(x))); y != want {
				t.Errorf("tanh32(%v) = %v, want ±tanh32(clamp) = %v", x, y, want)
			}
			continue
		}
		exact := math.Tanh(float64(x))
		d := math.Abs(float64(y) - exact)
		if d > worstAbs {
			worstAbs, absX = d, x
		}
		if x != 0 && x < tanh32Clamp && x > -tanh32Clamp {
			if r := d / math.Abs(exact); r > worstRel {
				worstRel, relX = r, x
			}
		}
	}
	t.Logf("max error against math.Tanh: %.4g absolute (at %v), %.4g relative below the clamp (at %v); tanh32(clamp) = %v",
		worstAbs, absX, worstRel, relX, bound)
	if worstAbs > maxAbs || worstRel > maxRel {
		t.Errorf("error %.4g at %v, %.4g relative at %v: want at most %g, %g", worstAbs, absX, worstRel, relX, maxAbs, maxRel)
	}

	drops, worstDrop, dropX := 0, 0, float32(0)
	for i := 1; i < grid; i++ {
		if ys[i] >= ys[i-1] {
			continue
		}
		drops++
		ulps := int(math.Float32bits(ys[i-1])) - int(math.Float32bits(ys[i]))
		if ys[i] < 0 {
			ulps = int(math.Float32bits(ys[i])) - int(math.Float32bits(ys[i-1]))
		}
		if ulps > worstDrop {
			worstDrop, dropX = ulps, xs[i]
		}
		if ulps > maxDrop || xs[i] > -monotone && xs[i] < monotone {
			t.Errorf("tanh32(%v) = %v < tanh32(%v) = %v (%d ulps)", xs[i], ys[i], xs[i-1], ys[i-1], ulps)
		}
	}
	t.Logf("not monotone on the grid: %d drops, the largest %d ulps (at %v)", drops, worstDrop, dropX)
}

// BenchmarkKernels32 times the evaluators' kernels on Blondie24's second
// layer (40 nodes, then 10).
func BenchmarkKernels32(b *testing.B) {
	rng := newRNG(323)
	w, bias, x, out := make([]float32, 400), make([]float32, 40), make([]float32, 40), make([]float32, 10)
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 2)
		bias[i] = float32(rng.NormFloat64())
	}
	z := make([]float32, 40)
	acc, unit := make([]int32, 40), make([]float32, 40)
	src, p, m, dst := make([]int32, 40), make([]int32, 40), make([]int32, 40), make([]int32, 40)
	for i := range acc {
		acc[i] = int32(rng.IntN(20001) - 10000)
		unit[i] = 1.0 / 4096
		src[i], p[i], m[i] = intValue[int32](rng), intValue[int32](rng), intValue[int32](rng)
	}
	b.Run("affine10x40", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			affine32(out, w, bias[:10], x)
		}
	})
	b.Run("affine10x40/portable", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			affine32Generic(out, w, bias[:10], x)
		}
	})
	b.Run("tanh40", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(z, x)
			tanhAll32(z)
		}
	})
	b.Run("tanh40/portable", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(z, x)
			tanh32Generic(z)
		}
	})
	b.Run("activate40", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			activate(z, acc, unit, bias)
		}
	})
	b.Run("addSubCols40", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			addSubCols(dst, src, p, m)
		}
	})
}

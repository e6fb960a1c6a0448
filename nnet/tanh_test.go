package nnet

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTanhAccuracy checks Tanh against math.Tanh on a dense grid over
// [-25, 25] and on random points, and that it is odd, monotone and bounded
// strictly inside (-1, 1).
func TestTanhAccuracy(t *testing.T) {
	const maxAbs = 2.6e-8
	worst := 0.0
	check := func(x float64) float64 {
		got := Tanh(x)
		d := math.Abs(got - math.Tanh(x))
		worst = max(worst, d)
		if d > maxAbs || !(got > -1 && got < 1) {
			t.Fatalf("Tanh(%v) = %v, want %v (error %.3g)", x, got, math.Tanh(x), d)
		}
		if Tanh(-x) != -got {
			t.Fatalf("Tanh(%v) = %v, want -Tanh(%v) = %v", -x, Tanh(-x), x, -got)
		}
		return got
	}
	prev := Tanh(-25)
	for i := 0; i <= 5_000_000; i++ {
		x := -25 + float64(i)*1e-5
		if y := check(x); y < prev {
			t.Fatalf("Tanh not monotone: Tanh(%v) = %v < %v", x, y, prev)
		} else {
			prev = y
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		check(math.Ldexp(rng.Float64(), -rng.IntN(60)))
		check(rng.NormFloat64() * 3)
	}
	t.Logf("max error against math.Tanh: %.3g", worst)
	if bound := Tanh(tanhClamp); bound >= 1-2.4e-8 {
		t.Errorf("Tanh(%v) = %v, want below 1 - 2.4e-8", tanhClamp, bound)
	}
	for _, c := range []struct{ in, want float64 }{
		{0, 0}, {1e300, Tanh(tanhClamp)}, {math.Inf(-1), -Tanh(tanhClamp)},
	} {
		if got := Tanh(c.in); got != c.want {
			t.Errorf("Tanh(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if !math.IsNaN(Tanh(math.NaN())) {
		t.Errorf("Tanh(NaN) = %v, want NaN", Tanh(math.NaN()))
	}
}

// TestDetExp checks the mutation's exponential against math.Exp.
func TestDetExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1_000_000 {
		x := (rng.Float64()*2 - 1) * 30
		got, want := detExp(x), math.Exp(x)
		if d := math.Abs(got-want) / want; d > 1e-14 {
			t.Fatalf("detExp(%v) = %v, want %v (relative error %.3g)", x, got, want, d)
		}
	}
	if got := detExp(0); got != 1 {
		t.Errorf("detExp(0) = %v, want 1", got)
	}
}

// BenchmarkTanh compares Tanh with math.Tanh on arguments typical of hidden
// nodes (normal, standard deviation 2), 40 at a time like a layer's nodes:
// "math" calls math.Tanh in a loop, "Tanh" calls Tanh in a loop, "tanhAll"
// is the layer kernel (vector code where available).
func BenchmarkTanh(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := make([]float64, 40)
	for i := range xs {
		xs[i] = rng.NormFloat64() * 2
	}
	z := make([]float64, len(xs))
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.N*len(xs))/b.Elapsed().Seconds()/1e6, "Mcalls/s")
	}
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				z[i] = math.Tanh(x)
			}
		}
		report(b)
	})
	b.Run("Tanh", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				z[i] = Tanh(x)
			}
		}
		report(b)
	})
	b.Run("tanhAll", func(b *testing.B) {
		for b.Loop() {
			copy(z, xs)
			tanhAll(z)
		}
		report(b)
	})
}

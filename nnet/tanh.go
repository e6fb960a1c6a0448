package nnet

import "math"

// This file holds the activation function and the exponential that
// mutation uses. Both are written for bit-identical results on every machine:
// only +, -, *, / (correctly rounded in IEEE 754) and bit manipulation, with
// every product converted explicitly, float64(a*b)+c, because the Go spec
// lets the compiler fuse a*b+c into one fused multiply-add (it does on arm64,
// ppc64 and s390x, and on amd64 from GOAMD64=v3), which would round
// differently. math.Tanh and math.Exp give no such promise: they are pure Go
// on some architectures and assembly on others.

// Tanh is the activation function of Net.Forward, the plain float64
// definition of a net: a fast approximation of the hyperbolic tangent, the
// odd rational function x*P(x^2)/Q(x^2), P of degree 6 and Q of degree 3,
// with x clamped to [-9, 9]. The coefficients are the minimax ones of
// Eigen's generic_fast_tanh_float (Eigen/src/Core/MathFunctionsImpl.h),
// made for float32; evaluated in float64 (Estrin's scheme, for a short
// dependency chain) they stay within 2.6e-8 of tanh, the largest error
// being inside (near x = 0.32), not at the clamp. Tanh is odd, monotone,
// and bounded by 1 - 2.4e-8. TestTanhAccuracy checks all of this against
// math.Tanh on a dense grid. Unlike math.Tanh, it gives the same bits on
// every architecture (see above). The evaluators that play games compute
// the same rational function in float32 (tanh32, kernels32.go).
func Tanh(x float64) float64 {
	v := [1]float64{x}
	tanhGeneric(v[:])
	return v[0]
}

// tanhClamp is where Tanh's rational function is clamped.
const tanhClamp = 9

// tanhAll replaces every element of z by its Tanh.
func tanhAll(z []float64) { tanhGeneric(z) }

// tanhGeneric is tanhAll, and Tanh on a one-element slice.
func tanhGeneric(z []float64) {
	for i, x := range z {
		// Clamp; a NaN passes unchanged.
		if x > tanhClamp {
			x = tanhClamp
		} else if x < -tanhClamp {
			x = -tanhClamp
		}
		z[i] = tanhRational(x)
	}
}

// tanhRational is the rational function of Tanh and tanh32, x*P(x^2)/Q(x^2)
// with Eigen's coefficients, in T's precision: Estrin's scheme for a short
// dependency chain, every product converted explicitly so that no compiler
// fuses it into a multiply-add, the coefficients rounded from their
// decimals to T directly. The callers clamp x.
func tanhRational[T float32 | float64](x T) T {
	x2 := x * x
	x4 := x2 * x2
	x8 := x4 * x4
	p01 := T(4.89352455891786e-03) + T(T(6.37261928875436e-04)*x2)
	p23 := T(1.48572235717979e-05) + T(T(5.12229709037114e-08)*x2)
	p45 := T(-8.60467152213735e-11) + T(T(2.00018790482477e-13)*x2)
	p03 := p01 + T(x4*p23)
	p46 := p45 + T(x4*T(-2.76076847742355e-16))
	p := p03 + T(x8*p46)
	q01 := T(4.89352518554385e-03) + T(T(2.26843463243900e-03)*x2)
	q23 := T(1.18534705686654e-04) + T(T(1.19825839466702e-06)*x2)
	q := q01 + T(x4*q23)
	return T(x*p) / q
}

// roundMagic is 1.5*2^52: adding it to a float64 t with |t| < 2^51 rounds t
// to the nearest integer (ties to even) and leaves that integer in the low
// bits of the sum's mantissa.
const roundMagic = 0x1.8p52

// pow2Parts splits 2^t, -1022 <= t <= 1023, into s = 2^n, n the integer
// nearest t, and q = 2^(t-n) - 1, so that 2^t = s*(1+q).
func pow2Parts(t float64) (s, q float64) {
	k := t + roundMagic
	n := k - roundMagic          // t rounded to an integer
	f := t - n                   // exact, in [-1/2, 1/2]
	q = float64(f * pow2Poly(f)) // converted: the caller may add to it
	// s = 2^n from the integer left in k's low mantissa bits.
	s = math.Float64frombits(uint64(int64(math.Float64bits(k)-math.Float64bits(roundMagic))+1023) << 52)
	return s, q
}

// pow2Poly returns P(f) such that 2^f - 1 = f*P(f) for f in [-1/2, 1/2]: the
// degree-9 polynomial interpolating (2^f - 1)/f at the 10 Chebyshev nodes of
// [-1/2, 1/2], whose relative error is below 1.8e-15 there.
func pow2Poly(f float64) float64 {
	p := 7.0743318375819156e-09
	p = float64(p*f) + 1.0205919883432072e-07
	p = float64(p*f) + 1.321543679565213e-06
	p = float64(p*f) + 1.5252672813388116e-05
	p = float64(p*f) + 0.00015403530441744108
	p = float64(p*f) + 0.001333355820102259
	p = float64(p*f) + 0.009618129107618166
	p = float64(p*f) + 0.05550410866465044
	p = float64(p*f) + 0.2402265069591004
	return float64(p*f) + 0.6931471805599462
}

// detExp returns e^x, deterministically on every architecture (see the top
// of this file), for the log-normal factors of mutation. Its relative error
// is below 1e-14 for |x| <= 30; x is clamped to [-700, 700], far beyond any
// factor mutation draws.
func detExp(x float64) float64 {
	x = min(max(x, -700), 700)
	s, q := pow2Parts(float64(x * math.Log2E)) // converted: pow2Parts adds to it
	return s * (1 + q)
}

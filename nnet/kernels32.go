package nnet

// This file holds the portable arithmetic of the evaluators (DraughtsEval,
// ChessEval, XiangqiEval and their accumulators): the first layer's sums in
// int32, the rest of the net in float32. Where the processor allows, the
// same operations run as vector code (kernels32_amd64.s), eight lanes to a
// register, with the same results bit for bit (TestKernels32Match). The
// plain float64 definition of a net is Net.Forward; the evaluators differ
// from it by the int32 and float32 rounding, by at most about 3e-7 in the
// tests (evalTolerance allows 1e-6).

// tanh32Clamp is where tanh32's rational function is clamped: Eigen's
// clamp for float32. tanh32 stays below 1 in magnitude everywhere (at the
// clamp it is 1 - 6 ulp); evaluated in float32 the rational function is
// good to about 3.6e-7 and not quite monotone above |x| = 3.7, where it
// may dip by up to 7 ulp (TestTanh32), far below the resolution of the
// scores a search compares.
const tanh32Clamp float32 = 7.90531110763549805

// tanh32Linear is the magnitude below which tanh32(x) is x: there
// tanh x = x(1 - x²/3 + ...) rounds to x in float32 within half an ulp or
// so, and the rational function's powers of x would fall to denormals,
// which are slow.
const tanh32Linear float32 = 0.0004

// tanh32 is the activation function of the evaluators: Tanh's rational
// function (Eigen's generic_fast_tanh_float, the coefficients it was made
// for) in float32 (tanhRational), x itself below tanh32Linear, and x
// clamped to ±tanh32Clamp. A NaN passes unchanged.
func tanh32(x float32) float32 {
	v := [1]float32{x}
	tanh32Generic(v[:])
	return v[0]
}

// tanhAll32 replaces every element of z by its tanh32: as vector code where
// the processor allows, in portable Go otherwise and for what the vector
// code leaves.
func tanhAll32(z []float32) {
	n := tanh32Vector(z)
	tanh32Generic(z[n:])
}

// tanh32Generic is tanhAll32 in portable Go.
func tanh32Generic(z []float32) {
	for i, x := range z {
		if x > tanh32Clamp {
			x = tanh32Clamp
		} else if x < -tanh32Clamp {
			x = -tanh32Clamp
		}
		if x < tanh32Linear && x > -tanh32Linear {
			z[i] = x
			continue
		}
		z[i] = tanhRational(x)
	}
}

// activate sets dst[h] = tanh32(float32(acc[h])*unit[h] + b[h]): the first
// layer's nodes from their int32 sums, each in its own unit (a power of
// two, so the product is exact), and their biases. The slices have dst's
// length.
func activate(dst []float32, acc []int32, unit, b []float32) {
	acc, unit, b = acc[:len(dst)], unit[:len(dst)], b[:len(dst)]
	n := activateVector(dst, acc, unit, b)
	dst, acc, unit, b = dst[n:], acc[n:], unit[n:], b[n:]
	for h := range dst {
		dst[h] = float32(float32(acc[h])*unit[h]) + b[h]
	}
	tanh32Generic(dst)
}

// affine32 sets out[o] = dot(row o of w, x) + b[o] for every o, where w
// holds len(out) rows of len(x) weights. Each dot product is summed in
// eight interleaved partial sums, s_j over the elements i = j mod 8 below
// len(x) &^ 7, in order, the len(x) mod 8 last ones then going to s_0 in
// order, and combined as ((s0+s4)+(s2+s6)) + ((s1+s5)+(s3+s7)): that order
// is part of the definition (it is what an eight-lane register does), and
// every evaluation goes through this function.
func affine32(out, w, b, x []float32) {
	if len(out) == 0 {
		return
	}
	w, b = w[:len(out)*len(x)], b[:len(out)]
	if affine32Vector(out, w, b, x) {
		return
	}
	affine32Generic(out, w, b, x)
}

// affine32Generic is affine32 in portable Go.
func affine32Generic(out, w, b, x []float32) {
	n := len(x)
	w, b = w[:len(out)*n], b[:len(out)]
	for o := range out {
		out[o] = dot32(w[o*n:(o+1)*n], x) + b[o]
	}
}

// dot32 returns the dot product of w and x (len(x) >= len(w)) in
// affine32's order of operations.
func dot32(w, x []float32) float32 {
	x = x[:len(w)]
	var s [8]float32
	i := 0
	for ; i+8 <= len(w); i += 8 {
		ww, xx := (*[8]float32)(w[i:]), (*[8]float32)(x[i:])
		for j := range s {
			s[j] += float32(ww[j] * xx[j])
		}
	}
	for ; i < len(w); i++ {
		s[0] += float32(w[i] * x[i])
	}
	return ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]))
}

// addSubCols sets dst = src + p - m element-wise, wrapping on overflow;
// the slices have dst's length.
func addSubCols(dst, src, p, m []int32) { addSubRows(addSubColsVector, dst, src, p, m) }

// addCols sets dst = src + p element-wise, wrapping on overflow; the
// slices have dst's length.
func addCols(dst, src, p []int32) { addRows(addColsVector, dst, src, p) }

// subCols sets dst = src - m element-wise, wrapping on overflow; the
// slices have dst's length.
func subCols(dst, src, m []int32) { subRows(subColsVector, dst, src, m) }

// addSubRows sets dst = src + p - m element-wise, wrapping on overflow
// (the slices have dst's length): the first elements with vector, which
// returns how many it did, the rest in portable Go.
func addSubRows[A lane](vector func(dst, src, p, m []A) int, dst, src, p, m []A) {
	src, p, m = src[:len(dst)], p[:len(dst)], m[:len(dst)]
	n := vector(dst, src, p, m)
	dst, src, p, m = dst[n:], src[n:], p[n:], m[n:]
	for i := range dst {
		dst[i] = src[i] + p[i] - m[i]
	}
}

// addRows is addSubRows without m.
func addRows[A lane](vector func(dst, src, p []A) int, dst, src, p []A) {
	src, p = src[:len(dst)], p[:len(dst)]
	n := vector(dst, src, p)
	dst, src, p = dst[n:], src[n:], p[n:]
	for i := range dst {
		dst[i] = src[i] + p[i]
	}
}

// subRows is addSubRows without p.
func subRows[A lane](vector func(dst, src, m []A) int, dst, src, m []A) {
	src, m = src[:len(dst)], m[:len(dst)]
	n := vector(dst, src, m)
	dst, src, m = dst[n:], src[n:], m[n:]
	for i := range dst {
		dst[i] = src[i] - m[i]
	}
}

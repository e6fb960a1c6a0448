package nnet

// This file holds the float64 arithmetic of Net.Forward, the plain
// definition of a net, in portable Go: the evaluators that play games use
// the int32 and float32 kernels of kernels32.go, vector code where the
// processor allows.

// affine sets out[o] = dot(row o of w, x) + b[o] for every o, where w holds
// len(out) rows of len(x) weights. Each dot product is summed in four
// interleaved partial sums, s_j over the elements i = j mod 4 in order (the
// len(x) mod 4 last ones going to s_0), combined as (s0+s1)+(s2+s3): that
// order is part of Net.Forward's definition. Rows are computed two at a
// time (eight independent sums) for instruction-level parallelism, which
// does not change any row's order of operations.
func affine(out, w, b, x []float64) {
	n := len(x)
	w, b = w[:len(out)*n], b[:len(out)]
	o := 0
	for ; o+2 <= len(out); o += 2 {
		u, v := w[o*n:(o+1)*n], w[(o+1)*n:(o+2)*n]
		var a0, a1, a2, a3, c0, c1, c2, c3 float64
		i := 0
		for ; i+4 <= n; i += 4 {
			xx, uu, vv := (*[4]float64)(x[i:]), (*[4]float64)(u[i:]), (*[4]float64)(v[i:])
			a0 += float64(uu[0] * xx[0])
			c0 += float64(vv[0] * xx[0])
			a1 += float64(uu[1] * xx[1])
			c1 += float64(vv[1] * xx[1])
			a2 += float64(uu[2] * xx[2])
			c2 += float64(vv[2] * xx[2])
			a3 += float64(uu[3] * xx[3])
			c3 += float64(vv[3] * xx[3])
		}
		for ; i < n; i++ {
			a0 += float64(u[i] * x[i])
			c0 += float64(v[i] * x[i])
		}
		out[o] = ((a0 + a1) + (a2 + a3)) + b[o]
		out[o+1] = ((c0 + c1) + (c2 + c3)) + b[o+1]
	}
	if o < len(out) {
		out[o] = dot(w[o*n:(o+1)*n], x) + b[o]
	}
}

// dot returns the dot product of w and x (len(x) >= len(w)) in affine's
// order of operations.
func dot(w, x []float64) float64 {
	x = x[:len(w)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(w); i += 4 {
		ww, xx := (*[4]float64)(w[i:]), (*[4]float64)(x[i:])
		s0 += float64(ww[0] * xx[0])
		s1 += float64(ww[1] * xx[1])
		s2 += float64(ww[2] * xx[2])
		s3 += float64(ww[3] * xx[3])
	}
	for ; i < len(w); i++ {
		s0 += float64(w[i] * x[i])
	}
	return (s0 + s1) + (s2 + s3)
}

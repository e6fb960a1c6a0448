package web

import (
	"slices"
	"testing"
)

func TestBucketMeans(t *testing.T) {
	xs := []int{0, 1, 2, 3, 4, 5, 6}
	ys := []float64{1, 2, 3, 4, 5, 6, 10}
	for _, tc := range []struct {
		k     int
		wantX []int
		wantY []float64
	}{
		{1, xs, ys},
		{0, xs, ys},
		{2, []int{1, 3, 5, 6}, []float64{1.5, 3.5, 5.5, 10}},
		{3, []int{2, 5, 6}, []float64{2, 5, 10}},
		{7, []int{6}, []float64{31.0 / 7}},
	} {
		bx, by := bucketMeans(xs, ys, tc.k)
		if !slices.Equal(bx, tc.wantX) || !slices.Equal(by, tc.wantY) {
			t.Errorf("bucketMeans(k=%d) = %v %v, want %v %v", tc.k, bx, by, tc.wantX, tc.wantY)
		}
	}
}

// TestSparkPath checks sparkline paths worked out by hand: x from 0 to
// xMax over 120 units, y over the values' range in 1..23 (high values up),
// a flat or lone series in the middle.
func TestSparkPath(t *testing.T) {
	for _, c := range []struct {
		xs, ys []float64
		xMax   float64
		want   string
	}{
		{[]float64{0, 5, 10}, []float64{2, 6, 4}, 10, "M0.0 23.0L60.0 1.0L120.0 12.0"},
		{[]float64{0, 10}, []float64{3, 3}, 10, "M0.0 12.0L120.0 12.0"},
		{[]float64{4}, []float64{1500}, 8, "M60.0 12.0h2"},
		{[]float64{0}, []float64{7}, 0, "M60.0 12.0h2"},
		{nil, nil, 10, ""},
	} {
		if got := sparkPath(c.xs, c.ys, c.xMax); got != c.want {
			t.Errorf("sparkPath(%v, %v, %v) = %q, want %q", c.xs, c.ys, c.xMax, got, c.want)
		}
	}
}

// TestRatingSparkPath checks a rating sparkline by hand: the Elos' line
// and the latest rating's interval as a whisker, the y range covering it;
// a lone rating is its dash and its whole interval.
func TestRatingSparkPath(t *testing.T) {
	for _, c := range []struct {
		xs, elos []float64
		ci, xMax float64
		want     string
	}{
		// Lone: 1500 ± 50 spans 1450..1550, the dash in the middle.
		{[]float64{4}, []float64{1500}, 50, 8, "M60.0 12.0h2M60.0 1.0V23.0"},
		// 1400 then 1500 ± 50: the range 1400..1550 over 1..23.
		{[]float64{0, 10}, []float64{1400, 1500}, 50, 10, "M0.0 23.0L120.0 8.3M120.0 1.0V15.7"},
		{nil, nil, 0, 10, ""},
	} {
		if got := ratingSparkPath(c.xs, c.elos, c.ci, c.xMax); got != c.want {
			t.Errorf("ratingSparkPath(%v, %v, %v, %v) = %q, want %q", c.xs, c.elos, c.ci, c.xMax, got, c.want)
		}
	}
}

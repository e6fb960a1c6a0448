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

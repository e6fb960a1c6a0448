package plot

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func charts() []Chart {
	x := []float64{0, 1, 2, 3}
	return []Chart{
		{Title: "fitness", XLabel: "generation", YLabel: "points", Series: []Series{
			{Name: "best", X: x, Y: []float64{3, 5, 4, 8}},
			{Name: "mean", X: x, Y: []float64{1, math.NaN(), 2, 3}},
		}},
		{Title: "scores", YMin: 0, YMax: 100, Series: []Series{{Name: "vs random", X: []float64{0}, Y: []float64{80}}}},
	}
}

func TestWriteSVG(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "svg", 10*vg.Centimeter, 6*vg.Centimeter, charts()...); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{"<svg", "fitness", "best", "mean", "scores", "vs random", "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestWritePNG(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "png", 10*vg.Centimeter, 6*vg.Centimeter, charts()...); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("not a PNG: % x", b.Bytes()[:8])
	}
}

func TestWriteRejectsBadInput(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "gif", vg.Inch, vg.Inch, charts()...); !errors.Is(err, ErrFormat) {
		t.Errorf("gif: err = %v, want ErrFormat", err)
	}
	if err := WriteFile(filepath.Join(t.TempDir(), "x.jpg"), vg.Inch, vg.Inch, charts()...); !errors.Is(err, ErrFormat) {
		t.Errorf("x.jpg: err = %v, want ErrFormat", err)
	}
	bad := []Chart{{Series: []Series{{Name: "odd", X: []float64{1, 2}, Y: []float64{1}}}}}
	if err := Write(&b, "svg", vg.Inch, vg.Inch, bad...); err == nil || !strings.Contains(err.Error(), `"odd" has 2 x and 1 y`) {
		t.Errorf("mismatched series: err = %v", err)
	}
	if err := Write(&b, "svg", vg.Inch, vg.Inch); err == nil {
		t.Errorf("no chart: no error")
	}
}

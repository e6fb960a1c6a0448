package plot

import (
	"bytes"
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	gplot "gonum.org/v1/plot"
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
	if err := WriteFile(nil, filepath.Join(t.TempDir(), "x.jpg"), vg.Inch, vg.Inch, charts()...); !errors.Is(err, ErrFormat) {
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

func TestNiceTicks(t *testing.T) {
	labels := func(ticks []gplot.Tick) []string {
		var out []string
		for _, tk := range ticks {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, c := range []struct {
		min, max float64
		integer  bool
		want     string
	}{
		{0, 699, true, "0 100 200 300 400 500 600"},
		{0, 40, true, "0 5 10 15 20 25 30 35 40"},
		{0, 5, true, "0 1 2 3 4 5"}, // whole numbers only, however short the run
		{0, 1, true, "0 1"},
		{-1, 1, false, "-1.0 -0.8 -0.6 -0.4 -0.2 0.0 0.2 0.4 0.6 0.8 1.0"},
		{3, 97, false, "10 20 30 40 50 60 70 80 90"},
	} {
		got := strings.Join(labels(niceTicks{integer: c.integer}.Ticks(c.min, c.max)), " ")
		if got != c.want {
			t.Errorf("ticks of [%v, %v] (integer %v) = %q, want %q", c.min, c.max, c.integer, got, c.want)
		}
	}
}

func TestIntervalsMustMatchTheSeries(t *testing.T) {
	bad := Chart{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1, 2}, Low: []float64{0}, High: []float64{3}}}}
	if err := Write(io.Discard, "svg", 10*vg.Centimeter, 5*vg.Centimeter, bad); err == nil || !strings.Contains(err.Error(), `series "s" has 2 y values but 1 lows`) {
		t.Errorf("mismatched intervals: %v", err)
	}
	good := Chart{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1, 2}, Low: []float64{0, 1}, High: []float64{3, 2.5}}}}
	var b strings.Builder
	if err := Write(&b, "svg", 10*vg.Centimeter, 5*vg.Centimeter, good); err != nil {
		t.Fatal(err)
	}
}

// TestBandShadesTheInterval draws one series as a band and one as error
// bars: the band is a filled polygon in a light tint of the series'
// colour (opacity 56/255), which error bars never draw, and a NaN in the
// interval splits the band in two.
func TestBandShadesTheInterval(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4}
	draw := func(band bool, low []float64) string {
		var b bytes.Buffer
		ch := Chart{Title: "rating", Series: []Series{{Name: "elo", X: x, Y: []float64{5, 6, 7, 8, 9},
			Low: low, High: []float64{6, 7, 8, 9, 10}, Band: band}}}
		if err := Write(&b, "svg", 10*vg.Centimeter, 6*vg.Centimeter, ch); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	const tint = "fill-opacity:0.2196"
	low := []float64{4, 5, 6, 7, 8}
	if svg := draw(true, low); strings.Count(svg, tint) != 1 {
		t.Errorf("a band: %d tinted fills, want 1", strings.Count(svg, tint))
	}
	if svg := draw(false, low); strings.Contains(svg, tint) {
		t.Error("error bars drew a tinted fill")
	}
	if svg := draw(true, []float64{4, 5, math.NaN(), 7, 8}); strings.Count(svg, tint) != 2 {
		t.Errorf("a band with a gap: %d tinted fills, want 2", strings.Count(svg, tint))
	}
}

// TestLonePointFitsItsInterval is a rating chart with one rated champion,
// as a young run draws it: the axes must hold the point's whole interval,
// and the generation axis must not run below 0.
func TestLonePointFitsItsInterval(t *testing.T) {
	for _, band := range []bool{false, true} {
		p, _, err := build(Chart{Title: "rating", IntegerX: true, Series: []Series{
			{Name: "champion", X: []float64{0}, Y: []float64{221.7}, Low: []float64{155.7}, High: []float64{287.7}, Band: band},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if p.Y.Min > 155.7 || p.Y.Max < 287.7 {
			t.Errorf("band %v: y axis %v to %v, want the interval 155.7 to 287.7 inside", band, p.Y.Min, p.Y.Max)
		}
		if p.X.Min != 0 || p.X.Max != 1 {
			t.Errorf("band %v: x axis %v to %v, want 0 to 1", band, p.X.Min, p.X.Max)
		}
	}
	// A lone value at hour 3.5 of a curve with no interval.
	p, _, err := build(Chart{Series: []Series{{Name: "hours", X: []float64{3.5}, Y: []float64{40}}}})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 2.5 || p.X.Max != 4.5 || p.Y.Min != 36 || p.Y.Max != 44 {
		t.Errorf("lone point: axes x %v-%v y %v-%v, want 2.5-4.5 and 36-44", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
}

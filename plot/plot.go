// Package plot draws charts from series of numbers, as SVG or PNG, and
// builds the charts of evolved's runs from the database's rows: a
// population's learning curves, its champions' ratings, several runs'
// ratings side by side, a lab run's costs (run.go). It wraps
// gonum.org/v1/plot, which does the drawing, behind a small interface
// (Chart, Series, WriteFile) that knows nothing of evolved's data.
package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"evolved/outfile"
)

// Series is one named line: Y[i] at X[i]. NaN values are gaps. Low and
// High, when set (as long as Y), are the ends of an interval around each
// point, drawn as error bars, or as a shaded band when Band is set.
type Series struct {
	Name      string
	X, Y      []float64
	Low, High []float64
	Band      bool
}

// Chart is one panel: a title, axis labels and its series.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// YMin and YMax fix the y axis when YMax > YMin; otherwise it fits the data.
	YMin, YMax float64
	// IntegerX labels the x axis with whole numbers only (generations).
	IntegerX bool
}

// maxLegendWidth is the largest share of a panel's width kept right of the
// plot for its legend, which is drawn there so that it never covers data.
const maxLegendWidth = 0.35

// ErrFormat means the output format is neither SVG nor PNG.
var ErrFormat = errors.New("plot: unknown format (want .svg or .png)")

// palette holds distinguishable line colours (Okabe-Ito, readable by most
// colour-blind people).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 0, 0, 255},
}

// Write draws the charts stacked top to bottom, each panel width wide and
// panelHeight high, and writes the picture to w as format ("svg" or "png").
func Write(w io.Writer, format string, width, panelHeight vg.Length, charts ...Chart) error {
	if len(charts) == 0 {
		return errors.New("plot: no chart to draw")
	}
	height := panelHeight * vg.Length(len(charts))
	var canvas draw.Canvas
	var writeTo func(io.Writer) error
	switch strings.ToLower(format) {
	case "svg":
		c := vgsvg.New(width, height)
		canvas = draw.New(c)
		writeTo = func(w io.Writer) error { _, err := c.WriteTo(w); return err }
	case "png":
		c := vgimg.New(width, height)
		canvas = draw.New(c)
		png := vgimg.PngCanvas{Canvas: c}
		writeTo = func(w io.Writer) error { _, err := png.WriteTo(w); return err }
	default:
		return fmt.Errorf("%w: %q", ErrFormat, format)
	}
	tiles := draw.Tiles{Rows: len(charts), Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 2 * vg.Millimeter}
	// One legend column for every panel, so that their x axes line up: as
	// wide as the longest name needs, at most maxLegendWidth of the width
	// (longer names are cut at the edge).
	plots := make([]*gplot.Plot, len(charts))
	legends := make([]gplot.Legend, len(charts))
	need := vg.Length(0)
	for i, ch := range charts {
		p, legend, err := build(ch)
		if err != nil {
			return err
		}
		plots[i], legends[i] = p, legend
		for _, s := range ch.Series {
			need = max(need, legend.ThumbnailWidth+legend.TextStyle.Width(s.Name)+4*vg.Millimeter)
		}
	}
	for i := range charts {
		tile := tiles.At(canvas, 0, i)
		split := tile.Max.X - min(need, vg.Length(maxLegendWidth)*(tile.Max.X-tile.Min.X))
		plotArea, legendArea := tile, tile
		plotArea.Max.X, legendArea.Min.X = split, split+2*vg.Millimeter
		plots[i].Draw(plotArea)
		legends[i].Draw(legendArea)
	}
	if err := writeTo(w); err != nil {
		return fmt.Errorf("plot: write: %w", err)
	}
	return nil
}

// WriteFile writes the charts to path, in the format its extension names,
// through guard (nil: one that knows no database by name): a path that
// would overwrite a database is refused, and the picture is written whole.
func WriteFile(guard *outfile.Guard, path string, width, panelHeight vg.Length, charts ...Chart) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "svg" && format != "png" {
		return fmt.Errorf("%w: %s", ErrFormat, path)
	}
	if guard == nil {
		guard = outfile.NewGuard()
	}
	err := guard.Write(path, func(w io.Writer) error { return Write(w, format, width, panelHeight, charts...) })
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// build turns a chart into a gonum plot and its legend, which Write draws
// beside the plot rather than over the data.
func build(ch Chart) (*gplot.Plot, gplot.Legend, error) {
	p := gplot.New()
	p.Title.Text = ch.Title
	p.X.Label.Text = ch.XLabel
	p.Y.Label.Text = ch.YLabel
	p.X.Tick.Marker = niceTicks{integer: ch.IntegerX}
	p.Y.Tick.Marker = niceTicks{}
	p.Add(plotter.NewGrid())
	legend := gplot.NewLegend()
	legend.Top, legend.Left = true, true
	// The data's extent, intervals included, to fit the axes below.
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	extend := func(x, y float64) {
		if math.IsNaN(x) || math.IsNaN(y) {
			return
		}
		minX, maxX, minY, maxY = math.Min(minX, x), math.Max(maxX, x), math.Min(minY, y), math.Max(maxY, y)
	}
	for i, s := range ch.Series {
		if len(s.X) != len(s.Y) {
			return nil, legend, fmt.Errorf("plot: series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
		}
		if s.Low != nil && (len(s.Low) != len(s.Y) || len(s.High) != len(s.Y)) {
			return nil, legend, fmt.Errorf("plot: series %q has %d y values but %d lows and %d highs", s.Name, len(s.Y), len(s.Low), len(s.High))
		}
		colour := palette[i%len(palette)]
		// Split at NaN gaps so that missing points break the line.
		var pts plotter.XYs
		first := true
		flush := func() error {
			if len(pts) == 0 {
				return nil
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return fmt.Errorf("plot: series %q: %w", s.Name, err)
			}
			l.Color = colour
			l.Width = vg.Points(1.5)
			p.Add(l)
			if len(pts) == 1 {
				sc, _ := plotter.NewScatter(pts)
				sc.Color = l.Color
				p.Add(sc)
			}
			if first {
				legend.Add(s.Name, l)
				first = false
			}
			pts = nil
			return nil
		}
		if s.Band && s.Low != nil {
			if err := addBand(p, s, colour); err != nil {
				return nil, legend, err
			}
		}
		var bars errorPoints
		for j := range s.X {
			if math.IsNaN(s.Y[j]) || math.IsNaN(s.X[j]) {
				if err := flush(); err != nil {
					return nil, legend, err
				}
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
			extend(s.X[j], s.Y[j])
			if s.Low != nil {
				extend(s.X[j], s.Low[j])
				extend(s.X[j], s.High[j])
			}
			if s.Low != nil && !s.Band && !math.IsNaN(s.Low[j]) && !math.IsNaN(s.High[j]) {
				bars.XYs = append(bars.XYs, plotter.XY{X: s.X[j], Y: s.Y[j]})
				bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{s.Y[j] - s.Low[j], s.High[j] - s.Y[j]})
			}
		}
		if err := flush(); err != nil {
			return nil, legend, err
		}
		if len(bars.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, legend, fmt.Errorf("plot: series %q intervals: %w", s.Name, err)
			}
			eb.Color = colour
			eb.LineStyle.Width = vg.Points(0.8)
			eb.CapWidth = vg.Points(4)
			p.Add(eb)
		}
	}
	fitAxes(p, minX, maxX, minY, maxY)
	if ch.YMax > ch.YMin {
		p.Y.Min, p.Y.Max = ch.YMin, ch.YMax
	}
	return p, legend, nil
}

// fitAxes makes the axes hold the data's extent, intervals included (a
// lone point's error bar used to fall off the panel), and gives a lone x
// or y value a range around it: a unit each side, not below 0 for data
// that are not negative (generations, hours), and a tenth of the value
// each side on y.
func fitAxes(p *gplot.Plot, minX, maxX, minY, maxY float64) {
	if math.IsInf(minX, 1) {
		return // no data
	}
	if minX == maxX {
		lo, hi := minX-1, maxX+1
		if minX >= 0 {
			lo = math.Max(0, lo)
		}
		p.X.Min, p.X.Max = lo, hi
	}
	if minY == maxY {
		pad := math.Max(1, math.Abs(minY)/10)
		minY, maxY = minY-pad, maxY+pad
	}
	p.Y.Min, p.Y.Max = math.Min(p.Y.Min, minY), math.Max(p.Y.Max, maxY)
}

// addBand shades the area between a series' lows and highs, one polygon
// per stretch without gaps, in a light tint of its colour, under its line.
func addBand(p *gplot.Plot, s Series, colour color.Color) error {
	r, g, b, _ := colour.RGBA()
	tint := color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 56}
	var low, high plotter.XYs
	flush := func() error {
		if len(low) < 2 {
			low, high = nil, nil
			return nil
		}
		ring := append(plotter.XYs{}, low...)
		for i := len(high) - 1; i >= 0; i-- {
			ring = append(ring, high[i])
		}
		poly, err := plotter.NewPolygon(ring)
		if err != nil {
			return fmt.Errorf("plot: series %q band: %w", s.Name, err)
		}
		poly.Color = tint
		poly.LineStyle.Width = 0
		p.Add(poly)
		low, high = nil, nil
		return nil
	}
	for j := range s.X {
		if math.IsNaN(s.X[j]) || math.IsNaN(s.Low[j]) || math.IsNaN(s.High[j]) {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		low = append(low, plotter.XY{X: s.X[j], Y: s.Low[j]})
		high = append(high, plotter.XY{X: s.X[j], Y: s.High[j]})
	}
	return flush()
}

// errorPoints are points with asymmetric y errors, for plotter.NewYErrorBars.
type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// niceTicks labels an axis at 1, 2 or 5 times a power of ten, 5 to 11
// labels over any range, with an unlabelled tick between labels; integer
// keeps the step at 1 or more (generations).
type niceTicks struct{ integer bool }

// Ticks returns the ticks between min and max.
func (t niceTicks) Ticks(min, max float64) []gplot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return gplot.DefaultTicks{}.Ticks(min, max)
	}
	step := niceStep((max - min) / 10)
	if t.integer {
		step = math.Max(step, 1)
	}
	var ticks []gplot.Tick
	for v := math.Ceil(min/step) * step; v <= max+step*1e-9; v += step {
		ticks = append(ticks, gplot.Tick{Value: v, Label: strconvFloat(v, step)})
		if half := v + step/2; half <= max && (!t.integer || step >= 2) {
			ticks = append(ticks, gplot.Tick{Value: half})
		}
	}
	return ticks
}

// niceStep returns the smallest of 1, 2 and 5 times a power of ten that is
// at least x.
func niceStep(x float64) float64 {
	pow := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= x {
			return m * pow
		}
	}
	return 10 * pow
}

// strconvFloat writes a tick value with as many decimals as step needs.
func strconvFloat(v, step float64) string {
	decimals := max(0, int(-math.Floor(math.Log10(step))))
	if math.Abs(v) < step*1e-9 {
		v = 0
	}
	return fmt.Sprintf("%.*f", decimals, v)
}

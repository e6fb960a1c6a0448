// Package plot draws charts from series of numbers, as SVG or PNG:
// learning curves of a population, and later cost curves and histograms.
// It wraps gonum.org/v1/plot, which does the drawing, behind a small
// interface that knows nothing of evolved's data.
package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Series is one named line: Y[i] at X[i]. NaN values are gaps.
type Series struct {
	Name string
	X, Y []float64
}

// Chart is one panel: a title, axis labels and its series.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// YMin and YMax fix the y axis when YMax > YMin; otherwise it fits the data.
	YMin, YMax float64
	// LegendBottom and LegendRight move the legend from the top left corner.
	LegendBottom, LegendRight bool
}

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
	for i, ch := range charts {
		p, err := build(ch)
		if err != nil {
			return err
		}
		p.Draw(tiles.At(canvas, 0, i))
	}
	if err := writeTo(w); err != nil {
		return fmt.Errorf("plot: write: %w", err)
	}
	return nil
}

// WriteFile writes the charts to path, in the format its extension names.
func WriteFile(path string, width, panelHeight vg.Length, charts ...Chart) (err error) {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "svg" && format != "png" {
		return fmt.Errorf("%w: %s", ErrFormat, path)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("plot: %w", cerr)
		}
	}()
	return Write(f, format, width, panelHeight, charts...)
}

// build turns a chart into a gonum plot.
func build(ch Chart) (*gplot.Plot, error) {
	p := gplot.New()
	p.Title.Text = ch.Title
	p.X.Label.Text = ch.XLabel
	p.Y.Label.Text = ch.YLabel
	p.Add(plotter.NewGrid())
	p.Legend.Top = !ch.LegendBottom
	p.Legend.Left = !ch.LegendRight
	for i, s := range ch.Series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("plot: series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
		}
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
			l.Color = palette[i%len(palette)]
			l.Width = vg.Points(1.5)
			p.Add(l)
			if len(pts) == 1 {
				sc, _ := plotter.NewScatter(pts)
				sc.Color = l.Color
				p.Add(sc)
			}
			if first {
				p.Legend.Add(s.Name, l)
				first = false
			}
			pts = nil
			return nil
		}
		for j := range s.X {
			if math.IsNaN(s.Y[j]) || math.IsNaN(s.X[j]) {
				if err := flush(); err != nil {
					return nil, err
				}
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	if ch.YMax > ch.YMin {
		p.Y.Min, p.Y.Max = ch.YMin, ch.YMax
	}
	return p, nil
}

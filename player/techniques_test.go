package player

import (
	"errors"
	"strings"
	"testing"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/search"
)

func TestSpecTechniques(t *testing.T) {
	for _, c := range []struct {
		spec string
		want search.Technique
	}{
		{"material:4", search.DefaultTechniques | search.HistoryMalus},
		{"material:4#none", search.None},
		{"material:4#-lmr,-null", search.DefaultTechniques&^(search.LMR|search.NullMove) | search.HistoryMalus},
		{"material:4#-malus", search.DefaultTechniques},
		{"pst:6#pvs,lmr", search.PVS | search.LMR},
	} {
		spec, err := ParseChess(c.spec)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		ab := spec.New().(search.Searcher[chess.Move, *chess.Game]).AlphaBeta
		if got := ab.Options().Techniques; got != c.want {
			t.Errorf("%s: techniques %v, want %v", c.spec, got, c.want)
		}
		if spec.Name != c.spec {
			t.Errorf("%s: named %q", c.spec, spec.Name)
		}
	}
	d, err := ParseDraughts("material:4#-pvs")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.New().(search.Searcher[draughts.Move, *draughts.Game]).Options().Techniques; got != search.DefaultTechniques&^search.PVS {
		t.Errorf("draughts material:4#-pvs: techniques %v", got)
	}
	p, err := ParseChess("pesto:4#rfp_margin=80,-lmr")
	if err != nil {
		t.Fatal(err)
	}
	opts := p.New().(search.Searcher[chess.Move, *chess.Game]).Options()
	_, want := search.GameDefaults[chess.Move, *chess.Game]() // chess's own parameters, rfp_margin set
	want.RFPMargin = 80
	if *opts.Params != want || want == search.DefaultParams() || opts.Techniques != search.DefaultTechniques&^search.LMR|search.HistoryMalus {
		t.Errorf("pesto:4#rfp_margin=80,-lmr: techniques %v, parameters %q", opts.Techniques, opts.Params)
	}
	for spec, want := range map[string]string{
		"material:4#-lmx":          `unknown technique "lmx"`,
		"material:4#rfp_margin=1":  "out of its range",
		"material:4#lmr_base=high": "whole number",
		"mcts:100#-lmr":            "apply to alpha-beta players",
		"random#none":              "apply to alpha-beta players",
	} {
		_, err := ParseChess(spec)
		if err == nil || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want ErrSpec saying %q", spec, err, want)
		}
	}
}

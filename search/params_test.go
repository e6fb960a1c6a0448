package search

import (
	"context"
	"strings"
	"testing"

	"evolved/game/chess"
)

func TestParseSettings(t *testing.T) {
	d := DefaultParams()
	for _, c := range []struct {
		in       string
		want     Technique
		changed  string // Params.String of the result
		errorHas string
	}{
		{"-lmr", DefaultTechniques &^ LMR, "", ""},
		{"rfp_margin=80", DefaultTechniques, "rfp_margin=80", ""},
		{"lmr_divisor=250, -null ,rfp_margin=80", DefaultTechniques &^ NullMove, "rfp_margin=80,lmr_divisor=250", ""},
		{"none,NULL_BASE=2", None, "null_base=2", ""},
		{"rfp_margin=90", DefaultTechniques, "", ""}, // the default again
		{"rfp_margin=9", 0, "", "out of its range 10 to 400"},
		{"rfp_margin=8x", 0, "", "whole number"},
		{"rfp_marg=80", 0, "", `unknown parameter "rfp_marg"`},
		{"-lmx", 0, "", `unknown technique "lmx"`},
	} {
		set, p, err := ParseSettings(c.in, DefaultTechniques, d)
		switch {
		case c.errorHas != "":
			if err == nil || !strings.Contains(err.Error(), c.errorHas) {
				t.Errorf("ParseSettings(%q) error %v, want one saying %q", c.in, err, c.errorHas)
			}
		case err != nil || set != c.want || p.String() != c.changed:
			t.Errorf("ParseSettings(%q) = %v, %q, %v; want %v, %q", c.in, set, p, err, c.want, c.changed)
		}
	}
	// What String writes, ParseSettings reads back.
	p := d
	for _, tu := range Tunables() {
		if err := p.Set(tu.Name, tu.Max); err != nil {
			t.Fatal(err)
		}
	}
	if _, back, err := ParseSettings(p.String(), DefaultTechniques, d); err != nil || back != p {
		t.Errorf("ParseSettings(%q) = %+v, %v; want %+v", p.String(), back, err, p)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	p.RFPMargin = 0
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "rfp_margin = 0") {
		t.Errorf("Validate of rfp_margin 0: %v", err)
	}
}

// TestEveryParamIsRead checks that each parameter reaches the search: set
// to either end of its range, it changes the nodes of fixed searches. A
// parameter declared but not read (or read in place of another) fails.
func TestEveryParamIsRead(t *testing.T) {
	fens := []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
	}
	nodes := func(p Params) (n int64) {
		for _, fen := range fens {
			g := chess.NewGame(mustFEN(t, fen), chess.DefaultRules())
			n += NewAlphaBeta[cm, cg](noisyMaterial{}, Options{Depth: 7, Quiescence: true, Techniques: AllTechniques, Params: &p}).Search(context.Background(), g).Nodes
		}
		return n
	}
	base := nodes(DefaultParams())
	for _, tu := range Tunables() {
		read := false
		for _, v := range []int{tu.Min, tu.Max} {
			p := DefaultParams()
			if err := p.Set(tu.Name, v); err != nil {
				t.Fatal(err)
			}
			if v != tu.Default && nodes(p) != base {
				read = true
			}
		}
		if !read {
			t.Errorf("%s at %d or %d searches the same %d nodes as at its default %d", tu.Name, tu.Min, tu.Max, base, tu.Default)
		}
	}
}

// TestSetParamsMatchesOptions checks that SetParams on a search made with
// the defaults searches as one made with those parameters.
func TestSetParamsMatchesOptions(t *testing.T) {
	p := DefaultParams()
	p.LMRDivisor, p.FutilityMargin = 300, 60
	g := chess.NewGame(mustFEN(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"), chess.DefaultRules())
	want := NewAlphaBeta[cm, cg](noisyMaterial{}, Options{Depth: 7, Quiescence: true, Params: &p}).Search(context.Background(), g)
	ab := NewAlphaBeta[cm, cg](noisyMaterial{}, Options{Depth: 7, Quiescence: true})
	ab.SetParams(p)
	if got := ab.Search(context.Background(), g); got.Nodes != want.Nodes || got.Move != want.Move || got.Score != want.Score {
		t.Errorf("SetParams: %d nodes, %v scoring %d; made with them: %d nodes, %v scoring %d", got.Nodes, got.Move, got.Score, want.Nodes, want.Move, want.Score)
	}
}

// noisyMaterial is chessMaterial with a term of -20 to 20 drawn from the
// position's key: evaluations that differ by less than a pawn, so that
// every margin matters.
type noisyMaterial struct{}

func (noisyMaterial) Evaluate(g cg) int { return chessMaterial{}.Evaluate(g) + int(g.Hash()%41) - 20 }

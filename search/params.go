package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Params are the numbers of AlphaBeta's techniques: margins, depths and
// the late-move reduction formula. They are declared once, in tunables,
// with their defaults, ranges and the steps a tuner perturbs them by (as
// Stockfish's tune.h declares its parameters to SPSA); the search reads
// them as plain values. Margins are in the evaluation's units
// (centipawns; a draughts man is 100), depths in plies.
type Params struct {
	// Aspiration is the half-width of the first aspiration window.
	Aspiration int
	// RFPDepth is the deepest node reverse futility pruning cuts, and
	// RFPMargin the margin a ply by which the static value must beat beta.
	RFPDepth, RFPMargin int
	// FutilityDepth is the deepest node futility pruning skips quiet moves
	// at; FutilityMargin the margin, counted depth+1 times.
	FutilityDepth, FutilityMargin int
	// DeltaMargin is what a capture in quiescence must be able to win
	// beyond its victim to be searched (delta pruning).
	DeltaMargin int
	// NullDepth is the shallowest node that tries a null move; the null
	// move's search is reduced by NullBase plies and one more for every
	// NullDivisor plies of depth.
	NullDepth, NullBase, NullDivisor int
	// LMRDepth is the shallowest node whose late quiet moves are reduced,
	// LMRMove the first move (counted from 0) that is; the reduction of
	// the i-th move at depth d is LMRBase/100 + ln(d)·ln(i)/(LMRDivisor/100),
	// rounded down.
	LMRDepth, LMRMove, LMRBase, LMRDivisor int
	// LMPDepth is the deepest node late-move pruning acts at; it skips the
	// quiet moves after the first LMPBase + LMPScale/100·depth² of them.
	LMPDepth, LMPBase, LMPScale int
	// IIRDepth is the shallowest node that internal iterative reduction
	// reduces.
	IIRDepth int
}

// DefaultParams returns the parameters the search uses unless told
// otherwise: those of the techniques' SPRTs (docs/search.md), the
// reduction formula Ethereal's.
func DefaultParams() Params {
	var p Params
	for _, t := range tunables {
		*t.field(&p) = t.def
	}
	return p
}

// tunable declares one parameter: its name in settings lists, its field,
// default, range and step.
type tunable struct {
	name          string
	field         func(*Params) *int
	def, min, max int
	step          int
}

// tunables are the parameters in the order lists give them. A margin's or
// a formula's step is about a twentieth of its range, as Fishtest's c_end;
// a depth's is a ply.
var tunables = [...]tunable{
	{"aspiration", func(p *Params) *int { return &p.Aspiration }, 30, 5, 200, 8},
	{"rfp_depth", func(p *Params) *int { return &p.RFPDepth }, 6, 1, 12, 1},
	{"rfp_margin", func(p *Params) *int { return &p.RFPMargin }, 90, 10, 400, 20},
	{"futility_depth", func(p *Params) *int { return &p.FutilityDepth }, 3, 1, 8, 1},
	{"futility_margin", func(p *Params) *int { return &p.FutilityMargin }, 100, 10, 400, 20},
	{"delta_margin", func(p *Params) *int { return &p.DeltaMargin }, 200, 0, 1000, 40},
	{"null_depth", func(p *Params) *int { return &p.NullDepth }, 3, 1, 8, 1},
	{"null_base", func(p *Params) *int { return &p.NullBase }, 3, 1, 6, 1},
	{"null_divisor", func(p *Params) *int { return &p.NullDivisor }, 6, 2, 16, 1},
	{"lmr_depth", func(p *Params) *int { return &p.LMRDepth }, 3, 2, 8, 1},
	{"lmr_move", func(p *Params) *int { return &p.LMRMove }, 2, 1, 8, 1},
	{"lmr_base", func(p *Params) *int { return &p.LMRBase }, 75, 0, 300, 20},
	{"lmr_divisor", func(p *Params) *int { return &p.LMRDivisor }, 225, 100, 600, 25},
	{"lmp_depth", func(p *Params) *int { return &p.LMPDepth }, 3, 1, 10, 1},
	{"lmp_base", func(p *Params) *int { return &p.LMPBase }, 3, 0, 30, 1},
	{"lmp_scale", func(p *Params) *int { return &p.LMPScale }, 100, 20, 400, 20},
	{"iir_depth", func(p *Params) *int { return &p.IIRDepth }, 4, 2, 12, 1},
}

// Tunable describes a parameter to a tuner: its name, default, the range
// it must stay in, and the step by which a tuner perturbs it at the end of
// a tuning (SPSA's c at its last iteration).
type Tunable struct {
	Name              string
	Default, Min, Max int
	Step              int
}

// Tunables returns every parameter, in the order Params.String lists them.
func Tunables() []Tunable {
	out := make([]Tunable, len(tunables))
	for i, t := range tunables {
		out[i] = Tunable{Name: t.name, Default: t.def, Min: t.min, Max: t.max, Step: t.step}
	}
	return out
}

// Value returns the parameter named name.
func (p Params) Value(name string) (int, error) {
	t, err := lookupTunable(name)
	if err != nil {
		return 0, err
	}
	return *t.field(&p), nil
}

// Set gives the parameter named name the value v, which must lie in its
// range.
func (p *Params) Set(name string, v int) error {
	t, err := lookupTunable(name)
	if err != nil {
		return err
	}
	if v < t.min || v > t.max {
		return fmt.Errorf("search: %s = %d is out of its range %d to %d", name, v, t.min, t.max)
	}
	*t.field(p) = v
	return nil
}

// Validate checks that every parameter lies in its range (a Params built
// field by field rather than through Set).
func (p Params) Validate() error {
	for _, t := range tunables {
		if v := *t.field(&p); v < t.min || v > t.max {
			return fmt.Errorf("search: %s = %d is out of its range %d to %d", t.name, v, t.min, t.max)
		}
	}
	return nil
}

// String lists the parameters that differ from their defaults as
// name=value items joined by commas, in Tunables' order; "" for the
// defaults. ParseSettings reads it back.
func (p Params) String() string { return p.Diff(DefaultParams()) }

// Diff lists the parameters of p that differ from base's, as ParseSettings
// reads them from base ("rfp_margin=80,lmr_divisor=250"); "" when none
// does. Against a game's own parameters (GameDefaults) it is the list a
// player spec of that game needs.
func (p Params) Diff(base Params) string {
	var items []string
	for _, t := range tunables {
		if v := *t.field(&p); v != *t.field(&base) {
			items = append(items, t.name+"="+strconv.Itoa(v))
		}
	}
	return strings.Join(items, ",")
}

func lookupTunable(name string) (tunable, error) {
	for _, t := range tunables {
		if t.name == name {
			return t, nil
		}
	}
	names := make([]string, len(tunables))
	for i, t := range tunables {
		names[i] = t.name
	}
	return tunable{}, fmt.Errorf("search: unknown parameter %q (want %s)", name, strings.Join(names, ", "))
}

// ParseSettings reads a list of techniques and parameters, the suffix of
// a player's spec after # (pesto:6#-lmr,rfp_margin=80): items of the form
// name=value set that parameter of params (Params.Set's range applies);
// the other items are techniques, read as ParseTechniques reads them from
// base (a list of parameters alone keeps base's techniques).
func ParseSettings(s string, base Technique, params Params) (Technique, Params, error) {
	var techs []string
	for _, item := range strings.Split(s, ",") {
		name, value, isParam := strings.Cut(strings.TrimSpace(item), "=")
		if !isParam {
			techs = append(techs, item)
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil {
			return 0, params, fmt.Errorf("search: parameter %s wants a whole number, not %q", name, value)
		}
		if err := params.Set(strings.ToLower(strings.TrimSpace(name)), v); err != nil {
			return 0, params, err
		}
	}
	set := base
	if list := strings.Join(techs, ","); strings.TrimSpace(list) != "" {
		var err error
		if set, err = ParseTechniques(list, base); err != nil {
			return 0, params, err
		}
	}
	return set, params, nil
}

// lmrTable is the table of late-move reductions of a Params:
// lmrTable[d][i] is the reduction of the i-th move (from 0) at depth d.
type lmrTable [64][64]int8

// newLMRTable builds p's table.
func newLMRTable(p Params) *lmrTable {
	var t lmrTable
	base, div := float64(p.LMRBase)/100, float64(p.LMRDivisor)/100
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(min(63, base+math.Log(float64(d))*math.Log(float64(i))/div))
		}
	}
	return &t
}

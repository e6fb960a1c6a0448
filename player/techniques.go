package player

import (
	"fmt"
	"strings"

	"evolved/search"
)

// techniqueSetter is a player whose search techniques and their
// parameters can be chosen: the alpha-beta searchers (search.Searcher).
type techniqueSetter interface {
	SetTechniques(search.Technique)
	SetParams(search.Params)
}

// withTechniques reads the suffix of an alpha-beta spec that chooses its
// search techniques and their parameters, SPEC#LIST (material:6#-lmr,
// champion.json#none, pst:8#pvs,lmr, pesto:6#rfp_margin=80,lmr_divisor=250;
// LIST as search.ParseSettings reads it, starting from the game's default
// techniques and parameters), and returns the spec parse gives for SPEC
// with those. ok is false when spec has no suffix. The players of the
// spec must be alpha-beta searchers.
func withTechniques[M comparable, S search.Game[M]](spec string, parse func(string) (Spec[M, S], error)) (_ Spec[M, S], ok bool, _ error) {
	i := strings.LastIndexByte(spec, '#')
	if i < 0 {
		return Spec[M, S]{}, false, nil
	}
	base, list := spec[:i], spec[i+1:]
	set, params := search.GameDefaults[M, S]()
	if _, _, err := search.ParseSettings(list, set, params); err != nil {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: %w", ErrSpec, spec, err)
	}
	inner, err := parse(base)
	if err != nil {
		return Spec[M, S]{}, true, err
	}
	s, err := WithSettings(inner, list)
	if err != nil {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: %w", ErrSpec, spec, err)
	}
	s.Name = spec
	return s, true, nil
}

// WithSettings returns spec whose players search with the techniques and
// parameters of list (search.ParseSettings, from the defaults), spec
// itself when list is empty. spec's players must be alpha-beta searchers.
func WithSettings[M comparable, S search.Game[M]](spec Spec[M, S], list string) (Spec[M, S], error) {
	if strings.TrimSpace(list) == "" {
		return spec, nil
	}
	set, params := search.GameDefaults[M, S]()
	set, params, err := search.ParseSettings(list, set, params)
	if err != nil {
		return spec, err
	}
	if _, ok := spec.New().(techniqueSetter); !ok {
		return spec, fmt.Errorf("search techniques apply to alpha-beta players (material:, pst:, pesto:, agent files), not to %s", spec.Name)
	}
	newPlayer := spec.New
	spec.New = func() search.Player[M, S] {
		p := newPlayer()
		p.(techniqueSetter).SetTechniques(set)
		p.(techniqueSetter).SetParams(params)
		return p
	}
	return spec, nil
}

package player

import (
	"fmt"
	"strings"

	"evolved/search"
)

// techniqueSetter is a player whose search techniques can be chosen: the
// alpha-beta searchers (search.Searcher).
type techniqueSetter interface {
	SetTechniques(search.Technique)
}

// withTechniques reads the suffix of an alpha-beta spec that chooses its
// search techniques, SPEC#LIST (material:6#-lmr, champion.json#none,
// pst:8#pvs,lmr; LIST as search.ParseTechniques reads it, starting from
// the defaults), and returns the spec parse gives for SPEC with those
// techniques. ok is false when spec has no suffix. The players of the spec
// must be alpha-beta searchers.
func withTechniques[M comparable, S search.Game[M]](spec string, parse func(string) (Spec[M, S], error)) (_ Spec[M, S], ok bool, _ error) {
	i := strings.LastIndexByte(spec, '#')
	if i < 0 {
		return Spec[M, S]{}, false, nil
	}
	base, list := spec[:i], spec[i+1:]
	set, err := search.ParseTechniques(list, search.DefaultTechniques)
	if err != nil {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: %w", ErrSpec, spec, err)
	}
	inner, err := parse(base)
	if err != nil {
		return Spec[M, S]{}, true, err
	}
	if _, ok := inner.New().(techniqueSetter); !ok {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: search techniques apply to alpha-beta players (material:, pst:, agent files), not to %s", ErrSpec, spec, base)
	}
	newPlayer := inner.New
	return Spec[M, S]{Name: spec, Unit: inner.Unit, New: func() search.Player[M, S] {
		p := newPlayer()
		p.(techniqueSetter).SetTechniques(set)
		return p
	}}, true, nil
}

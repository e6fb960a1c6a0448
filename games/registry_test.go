package games_test

import (
	"errors"
	"testing"

	"evolved/games"
)

// recorder is a Visitor that records the method Visit called and the name
// of the Kind it was given.
type recorder struct{ method, kind *string }

func (r recorder) VisitDraughts(k games.DraughtsKind) error {
	*r.method, *r.kind = "VisitDraughts", k.Name
	return nil
}

func (r recorder) VisitChess(k games.ChessKind) error {
	*r.method, *r.kind = "VisitChess", k.Name
	return nil
}

func (r recorder) VisitXiangqi(k games.XiangqiKind) error {
	*r.method, *r.kind = "VisitXiangqi", k.Name
	return nil
}

// TestVisit checks that every game of Names visits its own method with
// its own Kind, and that an unknown name visits none and gives an error
// wrapping ErrUnknown.
func TestVisit(t *testing.T) {
	want := map[string]string{
		games.DraughtsName: "VisitDraughts",
		games.ChessName:    "VisitChess",
		games.XiangqiName:  "VisitXiangqi",
	}
	if len(games.Names()) != len(want) {
		t.Fatalf("Names() = %q, want the %d games this test knows", games.Names(), len(want))
	}
	for _, name := range games.Names() {
		var method, kind string
		if err := games.Visit(name, recorder{&method, &kind}); err != nil {
			t.Fatalf("Visit(%q) = %v", name, err)
		}
		if method != want[name] || kind != name {
			t.Errorf("Visit(%q) called %s with the Kind %q, want %s with %q", name, method, kind, want[name], name)
		}
	}
	for _, name := range []string{"", "Chess", "checkers", "go"} {
		var method, kind string
		err := games.Visit(name, recorder{&method, &kind})
		if !errors.Is(err, games.ErrUnknown) {
			t.Errorf("Visit(%q) = %v, want an error wrapping ErrUnknown", name, err)
		}
		if method != "" {
			t.Errorf("Visit(%q) called %s", name, method)
		}
	}
}

// TestFuncs checks that Funcs calls the func of the game visited, with its
// Kind, and returns that func's error unchanged.
func TestFuncs(t *testing.T) {
	errBody := errors.New("the body's error")
	for _, name := range games.Names() {
		called := map[string]string{}
		f := games.Funcs{
			Draughts: func(k games.DraughtsKind) error { called["draughts"] = k.Name; return errBody },
			Chess:    func(k games.ChessKind) error { called["chess"] = k.Name; return errBody },
			Xiangqi:  func(k games.XiangqiKind) error { called["xiangqi"] = k.Name; return errBody },
		}
		if err := games.Visit(name, f); err != errBody {
			t.Errorf("Visit(%q, Funcs) = %v, want the func's own error", name, err)
		}
		if len(called) != 1 || called[name] != name {
			t.Errorf("Visit(%q, Funcs) called %v, want only the %s func with its Kind", name, called, name)
		}
	}
}

// TestLookupThroughVisit checks that Lookup finds every game of Names
// under its own name and refuses an unknown one with ErrUnknown.
func TestLookupThroughVisit(t *testing.T) {
	for _, name := range games.Names() {
		info, err := games.Lookup(name)
		if err != nil || info.Name != name {
			t.Errorf("Lookup(%q) = %q, %v, want the game %q", name, info.Name, err, name)
		}
	}
	if info, err := games.Lookup("checkers"); !errors.Is(err, games.ErrUnknown) || info.Name != "" {
		t.Errorf("Lookup(checkers) = %q, %v, want no game and an error wrapping ErrUnknown", info.Name, err)
	}
}

package player

import (
	"context"
	"errors"
	"strings"
	"testing"

	"evolved/game/chess"
)

// knightTable is a learned table that plays g1f3 from the start.
const knightTable = "RNBQKBNRPPPPPPPP################################pppppppprnbqkbnr\n6 0 5 2 - 1\n"

// TestChessParserReadsStoredRunsThroughTheCommand checks that meta:RUN
// and meta:RUN@FILE ask the caller's tables for the run (the file, or ""
// for the command's default database) and play what it returns; that
// ParseChess, without tables, refuses them; and that the errors name the
// spec, its run and its file.
func TestChessParserReadsStoredRunsThroughTheCommand(t *testing.T) {
	type ask struct {
		path string
		run  int64
	}
	var asked []ask
	stored := map[ask]string{{"", 3}: knightTable, {"lab.db", 2}: knightTable, {"lab.db", 4}: "", {"lab.db", 5}: "not a table\n"}
	parse := ChessParser(func(path string, run int64) (string, error) {
		asked = append(asked, ask{path, run})
		table, ok := stored[ask{path, run}]
		if !ok {
			return "", errors.New("load meta run 9 of " + path + ": no such run")
		}
		return table, nil
	})

	for _, c := range []struct {
		spec string
		want ask
	}{{"meta:3", ask{"", 3}}, {"meta:2@lab.db", ask{"lab.db", 2}}} {
		asked = nil
		spec, err := parse(c.spec)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if len(asked) != 1 || asked[0] != c.want || spec.Name != c.spec {
			t.Errorf("%s: asked %v, named %q; want %v once, named as the spec", c.spec, asked, spec.Name, c.want)
		}
		p := spec.New()
		p.NewGame(1)
		res, err := p.Move(context.Background(), chess.NewGame(chess.Start(), chess.DefaultRules()))
		if err != nil || res.Move.From() != chess.G1 || res.Move.To() != chess.F3 {
			t.Errorf("%s plays %v-%v (%v), want the table's g1f3", c.spec, res.Move.From(), res.Move.To(), err)
		}
	}

	// The other specs parse as ParseChess parses them, asking nothing.
	asked = nil
	if spec, err := parse("material:1"); err != nil || spec.Name != "material:1" || len(asked) != 0 {
		t.Errorf("material:1 through ChessParser: %+v, %v, asked %v", spec, err, asked)
	}

	for _, c := range []struct {
		spec string
		is   error  // the error wraps it, if set
		want string // and says this
	}{
		{"meta:x", ErrSpec, "want meta:RUN"},
		{"meta:0", ErrSpec, "want meta:RUN"},
		{"meta:2@", ErrSpec, "want meta:RUN"},
		{"meta:9@lab.db", nil, "player meta:9@lab.db: load meta run 9 of lab.db: no such run"},
		{"meta:4@lab.db", nil, "player meta:4@lab.db: run 4 stored no learned table"},
		{"meta:5@lab.db", nil, "player meta:5@lab.db: run 5's table:"},
	} {
		asked = nil
		_, err := parse(c.spec)
		if err == nil || c.is != nil && !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.spec, err, c.want)
		}
		if c.is != nil && len(asked) != 0 {
			t.Errorf("%s: a malformed spec asked for %v", c.spec, asked)
		}
	}

	// Without tables a spec naming a stored run is refused, clearly, and
	// nothing is opened; a malformed one is still just malformed.
	for _, spec := range []string{"meta:3", "meta:2@lab.db"} {
		_, err := ParseChess(spec)
		if !errors.Is(err, ErrNeedsDatabase) || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), spec) {
			t.Errorf("ParseChess(%q) err = %v, want ErrNeedsDatabase and ErrSpec naming the spec", spec, err)
		}
	}
	if _, err := ParseChess("meta:x"); !errors.Is(err, ErrSpec) || errors.Is(err, ErrNeedsDatabase) {
		t.Errorf("ParseChess(meta:x) err = %v, want a malformed spec", err)
	}
}

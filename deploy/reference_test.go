package deploy

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// referenceFile is the configuration reference, from this directory.
const referenceFile = "../docs/configuration.md"

// gameSections are the sections a key written GAME.key stands for, in the
// order of a default written "draughts · chess · xiangqi".
var gameSections = []string{"draughts", "chess", "xiangqi"}

// referenceRow matches a key row of the reference: the key in backticks
// ("workers", "jobs.backup", "GAME.depth") and its default.
var referenceRow = regexp.MustCompile("^\\| `((?:GAME\\.)?[a-z][a-z0-9_.]*)` \\| ([^|]*) \\|")

// TestReferenceHasEveryKey checks docs/configuration.md against the
// example configuration, which TestExampleConfig holds to the daemon's
// keys and defaults: every key is documented with its default, and every
// key documented with a default is in the file (one documented as none,
// or — for a game, is not).
func TestReferenceHasEveryKey(t *testing.T) {
	text, err := os.ReadFile(referenceFile)
	if err != nil {
		t.Fatal(err)
	}
	documented, err := documentedDefaults(string(text))
	if err != nil {
		t.Fatalf("%s: %v", referenceFile, err)
	}
	var file map[string]any
	if _, err := toml.DecodeFile(configFile, &file); err != nil {
		t.Fatalf("%s: %v", configFile, err)
	}
	keys := flatten("", file)
	if len(keys) < 150 {
		t.Fatalf("%s holds only %d keys: did flatten miss its sections?", configFile, len(keys))
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		d, ok := documented[k]
		switch {
		case !ok:
			t.Errorf("%s does not document %s (in %s)", referenceFile, k, configFile)
		case d == nil:
			t.Errorf("%s documents %s without a default, but %s sets it to %#v", referenceFile, k, configFile, keys[k])
		case !reflect.DeepEqual(d, keys[k]):
			t.Errorf("%s: %s defaults to %#v, but %s has %#v", referenceFile, k, d, configFile, keys[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(documented)) {
		if _, ok := keys[k]; !ok && documented[k] != nil {
			t.Errorf("%s documents %s = %#v, which %s does not hold (the daemon would refuse it)", referenceFile, k, documented[k], configFile)
		}
	}
}

// flatten returns a decoded TOML table's values by dotted key ("jobs.backup").
func flatten(prefix string, table map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range table {
		if sub, ok := v.(map[string]any); ok {
			maps.Copy(out, flatten(prefix+k+".", sub))
			continue
		}
		out[prefix+k] = v
	}
	return out
}

// documentedDefaults reads the key rows of the reference's tables into
// their defaults by dotted key, decoded as TOML. A GAME.key row stands for
// the key in each game's section: one default for all, or three
// separated by " · " (draughts, chess, xiangqi), "—" for a game without
// the key (left out). A default "none" maps to nil: the key is documented
// and the file leaves it unset.
func documentedDefaults(text string) (map[string]any, error) {
	out := map[string]any{}
	for i, line := range strings.Split(text, "\n") {
		m := referenceRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		key, cell := m[1], strings.TrimSpace(m[2])
		values := strings.Split(cell, " · ")
		keys := []string{key}
		if game, ok := strings.CutPrefix(key, "GAME."); ok {
			keys = nil
			for _, s := range gameSections {
				keys = append(keys, s+"."+game)
			}
			if len(values) == 1 {
				values = slices.Repeat(values, len(keys))
			}
		}
		if len(values) != len(keys) {
			return nil, fmt.Errorf("line %d: %d defaults for %s, want %d", i+1, len(values), key, len(keys))
		}
		for j, k := range keys {
			v, err := defaultValue(values[j])
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", i+1, k, err)
			}
			if _, dup := out[k]; dup {
				return nil, fmt.Errorf("line %d: %s documented twice", i+1, k)
			}
			if values[j] != "—" {
				out[k] = v
			}
		}
	}
	return out, nil
}

// defaultValue decodes one default as written in the reference: a TOML
// value, in backticks or not; "none" and "—" decode to nil.
func defaultValue(s string) (any, error) {
	s = strings.Trim(strings.TrimSpace(s), "`")
	if s == "none" || s == "—" {
		return nil, nil
	}
	var v struct{ V any }
	if _, err := toml.Decode("V = "+s, &v); err != nil {
		return nil, fmt.Errorf("default %q: %w", s, err)
	}
	return v.V, nil
}

// TestDocumentedDefaults checks the reading of key rows: a top-level key,
// a section's, a game's with one default and with three, a game without
// the key, a key without a default, and rows that are not key rows.
func TestDocumentedDefaults(t *testing.T) {
	text := "| key | default | what it does |\n| --- | --- | --- |\n" +
		"| `seed` | 1 | the seed |\n" +
		"| `jobs.backup` | `\"@daily\"` | a copy |\n" +
		"| `GAME.elite` | 5 | survivors |\n" +
		"| `GAME.hidden` | [40, 10] · [32, 8] · — | sizes |\n" +
		"| `GAME.search` | none | how |\n" +
		"| `EVOLVED_DB` | `db` | `--db` |\n"
	got, err := documentedDefaults(text)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"seed":           int64(1),
		"jobs.backup":    "@daily",
		"draughts.elite": int64(5), "chess.elite": int64(5), "xiangqi.elite": int64(5),
		"draughts.hidden": []any{int64(40), int64(10)}, "chess.hidden": []any{int64(32), int64(8)},
		"draughts.search": nil, "chess.search": nil, "xiangqi.search": nil,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("documentedDefaults = %#v, want %#v", got, want)
	}
	for _, bad := range []string{
		"| `GAME.depth` | 4 · 3 | plies |\n",
		"| `seed` | 1 | the seed |\n| `seed` | 2 | again |\n",
		"| `seed` | one | the seed |\n",
	} {
		if _, err := documentedDefaults(bad); err == nil {
			t.Errorf("documentedDefaults(%q) accepted it", bad)
		}
	}
}

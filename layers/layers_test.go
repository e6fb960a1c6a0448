package layers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// arrow is one import: From imports To, both as paths inside the module
// ("game/chess").
type arrow struct{ From, To string }

// pending returns the imports that point up a layer today and are being
// removed, each named with the work that removes it. Each must still
// occur: check reports one that no longer does, so that the table empties
// as the work lands. Nothing else may be excepted. Issue 32 removed the
// last ones (storage -> population, player -> storage, cluster ->
// storage): nothing is pending.
func pending() []arrow { return nil }

// architecture is the file that lists the layers, from the module's root.
const architecture = "docs/ARCHITECTURE.md"

// TestImportsPointDown checks the module's real imports against the layers
// docs/ARCHITECTURE.md lists.
func TestImportsPointDown(t *testing.T) {
	root, module := moduleRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, architecture))
	if err != nil {
		t.Fatal(err)
	}
	layers, err := parseLayers(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", architecture, err)
	}
	imports := moduleImports(t, root, module)
	for _, p := range check(layers, imports, pending()) {
		t.Error(p)
	}
}

// moduleRoot returns the directory of the module's go.mod and the module's
// path.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Path}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", stderr(err))
	}
	dir, module, ok := strings.Cut(strings.TrimSpace(string(out)), " ")
	if !ok {
		t.Fatalf("go list -m: unexpected output %q", out)
	}
	return dir, module
}

// moduleImports returns every package of the module with the packages of
// the module it imports (not its tests' imports), as paths inside the
// module.
func moduleImports(t *testing.T, root, module string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps=false", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", stderr(err))
	}
	inModule := func(path string) (string, bool) {
		return strings.CutPrefix(path, module+"/")
	}
	graph := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		pkg, ok := inModule(fields[0])
		if !ok {
			t.Fatalf("go list ./...: package %s is not inside module %s", fields[0], module)
		}
		graph[pkg] = []string{}
		for _, imp := range fields[1:] {
			if rel, ok := inModule(imp); ok {
				graph[pkg] = append(graph[pkg], rel)
			}
		}
	}
	if len(graph) == 0 {
		t.Fatal("go list ./... listed no package")
	}
	return graph
}

// stderr adds a failed command's standard error to its error.
func stderr(err error) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) && len(exit.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(exit.Stderr))
	}
	return err
}

// parseLayers reads the layers from the first fenced block of the
// "## Layers" section of doc: one line per layer, bottom first, its
// packages separated by spaces, a '#' starting a comment.
func parseLayers(doc string) ([][]string, error) {
	_, section, ok := strings.Cut(doc, "\n## Layers\n")
	if !ok {
		return nil, errors.New(`no "## Layers" section`)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var layers [][]string
	inBlock, closed := false, false
	for line := range strings.Lines(section) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			if inBlock {
				closed = true
				break
			}
			inBlock = true
			continue
		}
		if !inBlock {
			continue
		}
		line, _, _ = strings.Cut(line, "#")
		if pkgs := strings.Fields(line); len(pkgs) > 0 {
			layers = append(layers, pkgs)
		}
	}
	switch {
	case !closed:
		return nil, errors.New(`the "## Layers" section has no closed fenced block`)
	case len(layers) == 0:
		return nil, errors.New(`the "## Layers" block lists no layer`)
	}
	return layers, nil
}

// check returns what is wrong with the module's imports (package -> the
// packages of the module it imports) under the layers, bottom first:
// every import that points to a package of the same or a higher layer,
// unless pending excepts it; every package in no layer; every layer entry
// that is no package or is listed twice; every pending arrow that no
// longer occurs or no longer points up. Layers are numbered from 0 at the
// bottom, as docs/ARCHITECTURE.md's table numbers them.
func check(layers [][]string, imports map[string][]string, pending []arrow) []string {
	var problems []string
	layerOf := map[string]int{}
	for i, pkgs := range layers {
		for _, p := range pkgs {
			if j, dup := layerOf[p]; dup {
				problems = append(problems, fmt.Sprintf("%s is listed twice, in layers %d and %d", p, j, i))
				continue
			}
			layerOf[p] = i
			if _, ok := imports[p]; !ok {
				problems = append(problems, fmt.Sprintf("%s (layer %d) is not a package of the module", p, i))
			}
		}
	}
	excepted := map[arrow]bool{}
	for _, a := range pending {
		excepted[a] = false
	}
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		from, ok := layerOf[pkg]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s is in no layer of %s", pkg, architecture))
			continue
		}
		for _, imp := range imports[pkg] {
			to, ok := layerOf[imp]
			if !ok || to < from {
				continue // a package in no layer is reported once, above
			}
			if _, ok := excepted[arrow{pkg, imp}]; ok {
				excepted[arrow{pkg, imp}] = true
				continue
			}
			problems = append(problems, fmt.Sprintf("%s (layer %d) imports %s (layer %d), which is not below it", pkg, from, imp, to))
		}
	}
	for _, a := range pending {
		if !excepted[a] {
			problems = append(problems, fmt.Sprintf("pending exception %s -> %s no longer points up a layer: remove it", a.From, a.To))
		}
	}
	return problems
}

// TestCheck runs check on small synthetic graphs, so that each kind of
// wrong import is shown to be caught with its exact message.
func TestCheck(t *testing.T) {
	layers := [][]string{
		{"game", "game/pgn"},
		{"game/chess"},
		{"storage"},
		{"population"},
		{"daemon"},
	}
	good := func() map[string][]string {
		return map[string][]string{
			"game":       {},
			"game/pgn":   {},
			"game/chess": {"game", "game/pgn"},
			"storage":    {},
			"population": {"game"},
			"daemon":     {"game/chess", "population", "storage"},
		}
	}
	for _, tc := range []struct {
		name    string
		layers  [][]string
		change  func(map[string][]string)
		pending []arrow
		want    []string
	}{
		{name: "the layers kept", change: func(map[string][]string) {}},
		{
			name:   "game imports daemon",
			change: func(g map[string][]string) { g["game"] = []string{"daemon"} },
			want:   []string{"game (layer 0) imports daemon (layer 4), which is not below it"},
		},
		{
			name:   "an import within a layer",
			change: func(g map[string][]string) { g["game"] = []string{"game/pgn"} },
			want:   []string{"game (layer 0) imports game/pgn (layer 0), which is not below it"},
		},
		{
			name:    "a pending arrow excepted",
			change:  func(g map[string][]string) { g["storage"] = []string{"population"} },
			pending: []arrow{{"storage", "population"}},
		},
		{
			name:    "a pending arrow is the only exception",
			change:  func(g map[string][]string) { g["storage"] = []string{"population", "daemon"} },
			pending: []arrow{{"storage", "population"}},
			want:    []string{"storage (layer 2) imports daemon (layer 4), which is not below it"},
		},
		{
			name:    "a pending arrow removed",
			change:  func(map[string][]string) {},
			pending: []arrow{{"storage", "population"}},
			want:    []string{"pending exception storage -> population no longer points up a layer: remove it"},
		},
		{
			name:   "a package in no layer",
			change: func(g map[string][]string) { g["web"] = []string{"storage"} },
			want:   []string{"web is in no layer of docs/ARCHITECTURE.md"},
		},
		{
			name:   "a layer lists what is no package, or a package twice",
			layers: append(slices.Clone(layers), []string{"cmd/evolved", "game"}),
			change: func(map[string][]string) {},
			want: []string{
				"cmd/evolved (layer 5) is not a package of the module",
				"game is listed twice, in layers 0 and 5",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := good()
			tc.change(g)
			l := layers
			if tc.layers != nil {
				l = tc.layers
			}
			if got := check(l, g, tc.pending); !slices.Equal(got, tc.want) {
				t.Errorf("check = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestParseLayers checks that the block is read line by line, comments
// and blank lines skipped, and that a missing section or block is an
// error.
func TestParseLayers(t *testing.T) {
	doc := "# T\n\n## Layers\n\nText.\n\n```text\ngame game/pgn  # the bottom\n\ngame/chess\n```\n\n## Next\n\n```\nx\n```\n"
	got, err := parseLayers(doc)
	if want := [][]string{{"game", "game/pgn"}, {"game/chess"}}; err != nil || !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("parseLayers = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{
		"# T\n\n## Packages\n\n```\ngame\n```\n",
		"# T\n\n## Layers\n\nNo block.\n\n## Next\n\n```\ngame\n```\n",
		"# T\n\n## Layers\n\n```\ngame\n",
		"# T\n\n## Layers\n\n```\n# only a comment\n```\n",
	} {
		if got, err := parseLayers(bad); err == nil {
			t.Errorf("parseLayers(%q) = %q, want an error", bad, got)
		}
	}
}

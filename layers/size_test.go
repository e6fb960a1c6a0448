package layers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Limits on one function of the packages a newcomer reads first: a
// function longer than maxLines, or with more decision points than
// maxComplexity, is one nobody follows in one reading.
const (
	maxLines      = 80
	maxComplexity = 25
)

// sizedPackages are the directories, from the module's root, whose
// functions sizeProblems measures, with their subdirectories.
var sizedPackages = []string{"daemon", "population", "cmd/evolved", "web"}

// pendingSizes lists the functions over a limit that are being cut, as
// "dir/file.go:Func". Each must still be over: TestFunctionSizes reports
// one that is not, so the list empties as the work lands. Issue 64 cut
// the last fifteen: nothing is pending.
func pendingSizes() []string { return nil }

// TestFunctionSizes checks every function of sizedPackages (tests aside)
// against maxLines and maxComplexity.
func TestFunctionSizes(t *testing.T) {
	root, _ := moduleRoot(t)
	var funcs []funcSize
	for _, dir := range sizedPackages {
		got, err := measureDir(filepath.Join(root, dir), root)
		if err != nil {
			t.Fatal(err)
		}
		funcs = append(funcs, got...)
	}
	if len(funcs) < 100 {
		t.Fatalf("measured only %d functions: the packages moved?", len(funcs))
	}
	for _, p := range sizeProblems(funcs, pendingSizes()) {
		t.Error(p)
	}
}

// funcSize is one function's measure: Name is "dir/file.go:Func" (a
// method "dir/file.go:Type.Func").
type funcSize struct {
	Name              string
	Lines, Complexity int
}

// sizeProblems returns a line for every function over a limit that
// pending does not name, and for every pending name that is no longer
// over one (or no longer exists).
func sizeProblems(funcs []funcSize, pending []string) []string {
	var problems []string
	over := map[string]bool{}
	for _, f := range funcs {
		if f.Lines <= maxLines && f.Complexity <= maxComplexity {
			continue
		}
		over[f.Name] = true
		if !slices.Contains(pending, f.Name) {
			problems = append(problems, fmt.Sprintf("%s: %d lines, cyclomatic complexity %d (limits %d and %d): cut it into functions that each do one thing",
				f.Name, f.Lines, f.Complexity, maxLines, maxComplexity))
		}
	}
	for _, p := range pending {
		if !over[p] {
			problems = append(problems, fmt.Sprintf("%s is within the limits now: take it off pendingSizes", p))
		}
	}
	return problems
}

// measureDir measures the functions of the non-test Go files under dir.
func measureDir(dir, root string) ([]funcSize, error) {
	var out []funcSize
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		got, err := measureFile(path, filepath.ToSlash(rel))
		out = append(out, got...)
		return err
	})
	return out, err
}

// measureFile measures the functions declared in one file, named after
// rel, its path from the module's root.
func measureFile(path, rel string) ([]funcSize, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", rel, err)
	}
	var out []funcSize
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		name := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) > 0 {
			name = receiverType(fn.Recv.List[0].Type) + "." + name
		}
		lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		out = append(out, funcSize{Name: rel + ":" + name, Lines: lines, Complexity: complexity(fn)})
	}
	return out, nil
}

// receiverType names a method's receiver type, without pointer or type
// parameters.
func receiverType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.IndexExpr:
		return receiverType(t.X)
	case *ast.IndexListExpr:
		return receiverType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// complexity is gocyclo's cyclomatic complexity of fn: 1, plus one for
// every if, for, range, non-default case of a switch or select, && and
// ||. The function literals inside fn count towards it, as gocyclo counts
// them, so a long closure does not hide its body.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// TestComplexityCounts pins complexity and the line count on hand-counted
// functions.
func TestComplexityCounts(t *testing.T) {
	const src = `package p

func straight() int { return 1 }

func branches(a, b int, xs []int) int {
	if a > 0 && b > 0 || a < -1 {
		return 1
	}
	for _, x := range xs {
		switch x {
		case 1, 2:
			a++
		case 3:
		default:
		}
	}
	f := func() {
		for i := 0; i < 3; i++ {
		}
	}
	f()
	return a
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"straight": {1, 1}, "branches": {8, 19}} // complexity: 1 + if + && + || + range + 2 cases + for
	for _, d := range f.Decls {
		fn := d.(*ast.FuncDecl)
		lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		if got := [2]int{complexity(fn), lines}; got != want[fn.Name.Name] {
			t.Errorf("%s: complexity, lines = %v, want %v", fn.Name.Name, got, want[fn.Name.Name])
		}
	}
	if got := sizeProblems([]funcSize{{"a.go:F", 81, 1}, {"a.go:G", 10, 26}, {"a.go:H", 80, 25}}, []string{"a.go:G", "a.go:H"}); len(got) != 2 ||
		!strings.HasPrefix(got[0], "a.go:F: 81 lines") || !strings.HasPrefix(got[1], "a.go:H is within") {
		t.Errorf("sizeProblems = %q", got)
	}
}

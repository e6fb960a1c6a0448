package chess960

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// mustParse parses a test arrangement.
func mustParse(t *testing.T, s string) Arrangement {
	t.Helper()
	a, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestChess960Fitness(t *testing.T) {
	// Worked by hand, piece by piece (files a..h = 0..7; classical R 0,7
	// N 1,6 B 2,5 Q 3 K 4):
	cases := []struct {
		in   string
		want int
	}{
		{"RNBQKBNR", 0},
		// R 0,7: 0; N 1,6: 0; B 4,5 for 2,5: 2+0; Q 3: 0; K 2 for 4: 2.
		{"RNKQBBNR", 4},
		// R 0,6: 0+1; N 1,7: 0+1; B 2,5: 0; Q 4 for 3: 1; K 3 for 4: 1.
		{"RNBKQBRN", 4},
		// Number 0. R 5,7: 5+0; N 3,4: 2+2; B 0,1: 2+4; Q 2: 1; K 6: 2.
		{"BBQNNRKR", 18},
		// Number 959. R 0,2: 0+5; N 3,4: 2+2; B 6,7: 4+2; Q 5: 2; K 1: 3.
		{"RKRNNQBB", 20},
		// Only the king and queen swapped: 1+1.
		{"RNBKQBNR", 2},
	}
	for _, c := range cases {
		if got := mustParse(t, c.in).Fitness(); got != c.want {
			t.Errorf("Fitness(%s) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestChess960Parse(t *testing.T) {
	cases := []struct {
		in    string
		valid bool
	}{
		{"RNBQKBNR", true},
		{"rnbqkbnr", true},
		{"RNBBKQNR", true},  // bishops on c and d: opposite colours
		{"RNBQKNBR", false}, // bishops on c and g: both dark
		{"RRNBQKBN", false}, // king right of both rooks
		{"KRNBQBNR", false}, // king left of both rooks
		{"RNBQKBNN", false}, // one rook, three knights
		{"RNBQKBN", false},
		{"RNBQKBNX", false},
		{"", false},
	}
	for _, c := range cases {
		a, err := Parse(c.in)
		if got := err == nil; got != c.valid {
			t.Errorf("Parse(%q) error %v, want valid %v", c.in, err, c.valid)
			continue
		}
		if err != nil && !errors.Is(err, ErrArrangement) {
			t.Errorf("Parse(%q) error %v, want one wrapping ErrArrangement", c.in, err)
		}
		if err == nil && a.String() != upper(c.in) {
			t.Errorf("Parse(%q).String() = %q", c.in, a.String())
		}
	}
}

func upper(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] &^= 0x20
	}
	return string(b)
}

func TestChess960Glyphs(t *testing.T) {
	if got, want := Classical().Glyphs(), "♖♘♗♕♔♗♘♖"; got != want {
		t.Errorf("Classical().Glyphs() = %q, want %q", got, want)
	}
}

func TestChess960Numbering(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{
		{0, "BBQNNRKR"},
		{518, "RNBQKBNR"},
		{959, "RKRNNQBB"},
	}
	for _, c := range cases {
		a, err := FromNumber(c.n)
		if err != nil || a.String() != c.want {
			t.Errorf("FromNumber(%d) = %s, %v; want %s", c.n, a, err, c.want)
		}
	}
	for _, n := range []int{-1, 960} {
		if _, err := FromNumber(n); !errors.Is(err, ErrNumber) {
			t.Errorf("FromNumber(%d) error = %v, want ErrNumber", n, err)
		}
	}
	// Every number decodes to the back rank of game/chess's start position,
	// and Number inverts FromNumber.
	if err := CheckEngine(); err != nil {
		t.Error(err)
	}
	if got := (Arrangement{}).Number(); got != -1 {
		t.Errorf("Number of an invalid arrangement = %d, want -1", got)
	}
}

func TestChess960Count(t *testing.T) {
	got := Count()
	want := Census{Permutations: 40320, ValidPermutations: 7680, Distinct: 960, Constructed: 4 * 4 * 6 * 10, ConstructedValid: 960}
	if got != want {
		t.Errorf("Count() = %+v, want %+v", got, want)
	}
}

func TestChess960All(t *testing.T) {
	all := All()
	if len(all) != 960 {
		t.Fatalf("len(All()) = %d, want 960", len(all))
	}
	seen := map[Arrangement]bool{}
	var optima []int
	for n, a := range all {
		if !a.Valid() || seen[a] {
			t.Errorf("All()[%d] = %s: invalid or repeated", n, a)
		}
		seen[a] = true
		if a.Fitness() == 0 {
			optima = append(optima, n)
		}
	}
	if !slices.Equal(optima, []int{518}) {
		t.Errorf("arrangements of fitness 0: %v, want [518]", optima)
	}
}

func TestChess960RandomValid(t *testing.T) {
	for s := range uint64(100_000) {
		a := Random(rand.New(rand.NewPCG(s, 0)))
		if !a.Valid() {
			t.Fatalf("Random(seed %d) = %s, not valid", s, a)
		}
	}
}

func TestChess960RandomHitsAll(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var hit [960]bool
	left := 960
	for draws := 0; left > 0 && draws < 1_000_000; draws++ {
		if n := Random(r).Number(); !hit[n] {
			hit[n] = true
			left--
		}
	}
	if left > 0 {
		t.Errorf("Random missed %d of the 960 arrangements in 1,000,000 draws", left)
	}
}

func TestChess960CrossoverValid(t *testing.T) {
	// Every ordered pair of parents.
	all := All()
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range all {
		for _, q := range all {
			if c := Crossover(r, p, q); !c.Valid() {
				t.Fatalf("Crossover(%s, %s) = %s, not valid", p, q, c)
			}
		}
	}
}

func TestChess960CrossoverRules(t *testing.T) {
	cases := []struct {
		first, second, want string
	}{
		// First's rooks a, h enclose second's king g: R.....KR. Bishops: first's
		// f with second's a is blocked by the rook, second's b with first's
		// c fits. Queen: second's c is taken, first's d is free.
		{"RNBQKBNR", "BBQNNRKR", "RBBQNNKR"},
		// First's rooks f, h do not enclose second's king e; second's rooks
		// a, h enclose first's king g. Bishops b and c again; queen second's d.
		{"BBQNNRKR", "RNBQKBNR", "RBBQNNKR"},
		// Neither encloses: all from the first. No mixed or second's bishop
		// pair fits, the first's (g, h) does; second's queen square c holds
		// a rook, first's f is free.
		{"RKRNNQBB", "BBQNNRKR", "RKRNNQBB"},
		// Identical parents give themselves.
		{"RNBKQBRN", "RNBKQBRN", "RNBKQBRN"},
	}
	for _, c := range cases {
		for s := range uint64(20) { // the random choices must not matter here
			got := Crossover(rand.New(rand.NewPCG(s, 0)), mustParse(t, c.first), mustParse(t, c.second))
			if got.String() != c.want {
				t.Errorf("Crossover(%s, %s) seed %d = %s, want %s", c.first, c.second, s, got, c.want)
				break
			}
		}
	}
}

func TestChess960Mutate(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, a := range All() {
		for range 20 {
			m := Mutate(r, a)
			diff := 0
			for i := range a {
				if a[i] != m[i] {
					diff++
				}
			}
			if !m.Valid() || diff != 2 {
				t.Fatalf("Mutate(%s) = %s: valid %v, %d squares changed, want valid and 2", a, m, m.Valid(), diff)
			}
		}
	}
}

func TestChess960ClassicRun(t *testing.T) {
	c := DefaultClassic()
	var gens []Generation
	var fitness [][]int
	res, err := c.Run(Rand(7, ClassicGA, 0), 0, func(g Generation) {
		gens = append(gens, g)
		fitness = append(fitness, slices.Clone(g.Fitness))
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) != c.Iterations+1 {
		t.Fatalf("observed %d generations, want %d", len(gens), c.Iterations+1)
	}
	if res.Evaluations != 510 {
		t.Errorf("evaluations = %d, want 10 + 50 x 10 = 510", res.Evaluations)
	}
	prevBest := math.MaxInt
	for i, g := range gens {
		if g.Iteration != i || g.Evaluations != 10+10*i || len(fitness[i]) != 10 {
			t.Errorf("generation %d: iteration %d, evaluations %d, size %d; want %d, %d, 10", i, g.Iteration, g.Evaluations, len(fitness[i]), i, 10+10*i)
		}
		if !slices.IsSorted(fitness[i]) {
			t.Errorf("generation %d not sorted best first: %v", i, fitness[i])
		}
		// Elitism keeps the best parents, so the best never gets worse.
		if fitness[i][0] > prevBest {
			t.Errorf("generation %d best %d, worse than %d before", i, fitness[i][0], prevBest)
		}
		prevBest = fitness[i][0]
	}
	if res.Fitness != prevBest {
		t.Errorf("result fitness %d, last generation's best %d", res.Fitness, prevBest)
	}

	// A budget cuts the run at exactly that many evaluations.
	res, _ = c.Run(Rand(7, ClassicGA, 1), 55, nil)
	if res.Evaluations != 55 {
		t.Errorf("budget 55: %d evaluations", res.Evaluations)
	}
	if _, err := (Classic{Population: 1}).Run(Rand(7, ClassicGA, 1), 0, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("population 1: error %v, want ErrConfig", err)
	}
}

func TestChess960Determinism(t *testing.T) {
	runs := func() []Result {
		var out []Result
		for i := range 20 {
			a, _ := DefaultClassic().Run(Rand(9, ClassicGA, i), 0, nil)
			b, _ := DefaultImproved().Run(Rand(9, ImprovedGA, i), 500)
			out = append(out, a, b, RandomRun(Rand(9, RandomSearch, i), 500))
		}
		return out
	}
	if a, b := runs(), runs(); !slices.Equal(a, b) {
		t.Errorf("same seeds, different results:\n%v\n%v", a, b)
	}

	bench := func(workers int) []Summary {
		b := DefaultBench()
		b.Runs, b.Workers = 300, workers
		s, err := b.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	one, three := bench(1), bench(3)
	for i := range one {
		if !slices.Equal(one[i].Results, three[i].Results) || one[i].Successes != three[i].Successes {
			t.Errorf("%s: results differ between 1 and 3 workers", one[i].Method)
		}
	}
}

func TestChess960BenchImproved(t *testing.T) {
	if testing.Short() {
		t.Skip("1000 runs")
	}
	b := DefaultBench()
	b.Runs, b.Workers = 1000, 2
	sums, err := b.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sums {
		for _, r := range s.Results {
			if r.Evaluations > b.Budget || (r.FoundAt > 0) != (r.Fitness == 0) {
				t.Fatalf("%s: result %+v breaks the budget %d or the found/fitness link", s.Method, r, b.Budget)
			}
		}
	}
	if got := sums[1].Rate(); sums[1].Method != ImprovedGA || got < 0.99 {
		t.Errorf("%s success rate %.3f, want at least 0.99", sums[1].Method, got)
	}
}

func TestChess960Wilson(t *testing.T) {
	cases := []struct {
		k, n      int
		low, high float64
	}{
		{50, 100, 0.40383, 0.59617},
		{0, 10, 0, 0.27753},
		{10, 10, 0.72247, 1},
	}
	for _, c := range cases {
		low, high := Wilson(c.k, c.n, 1.959963984540054)
		if math.Abs(low-c.low) > 1e-4 || math.Abs(high-c.high) > 1e-4 {
			t.Errorf("Wilson(%d, %d) = [%.5f, %.5f], want [%.5f, %.5f]", c.k, c.n, low, high, c.low, c.high)
		}
	}
}

// TestChess960ImprovedTrace checks the observer against the result: it
// sees every evaluation, numbered from 1, the running best never rising,
// and the last evaluation's best is the result's fitness; Trace and Run
// give the same result from the same seed.
func TestChess960ImprovedTrace(t *testing.T) {
	c := DefaultImproved()
	var seen []Evaluation
	res, err := c.Trace(Rand(7, ImprovedGA, 0), 500, func(e Evaluation) { seen = append(seen, e) })
	if err != nil {
		t.Fatal(err)
	}
	plain, err := c.Run(Rand(7, ImprovedGA, 0), 500)
	if err != nil || plain != res {
		t.Fatalf("Run = %+v, %v; Trace = %+v", plain, err, res)
	}
	if len(seen) != res.Evaluations {
		t.Fatalf("observer saw %d evaluations, result counts %d", len(seen), res.Evaluations)
	}
	for i, e := range seen {
		if e.N != i+1 || e.Fitness != e.Arrangement.Fitness() || (i > 0 && e.Best > seen[i-1].Best) || e.Best > e.Fitness {
			t.Fatalf("evaluation %d: %+v (before: %+v)", i, e, seen[max(i-1, 0)])
		}
	}
	if last := seen[len(seen)-1]; last.Best != res.Fitness || res.FoundAt > 0 && seen[res.FoundAt-1].Fitness != 0 {
		t.Errorf("last evaluation %+v, result %+v", last, res)
	}
}

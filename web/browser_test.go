package web_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"evolved/chess960"
	"evolved/lab"
	"evolved/web"
)

// ArtifactsEnv names the directory the browser tests save their
// screenshots in (default: a directory under the system's temporary one,
// logged).
const ArtifactsEnv = "EVOLVED_TEST_ARTIFACTS"

// DocsPicturesEnv names the directory (docs/) where the browser tests
// also write the screenshots the documentation shows, under the names
// docsPictures gives them: `EVOLVED_DOCS_PICTURES=$PWD/docs go test
// ./web -run Browser` makes every picture of the docs anew from the site
// as it is, so none stays behind it.
const DocsPicturesEnv = "EVOLVED_DOCS_PICTURES"

// docsPictures maps the screenshots the documentation shows to their
// files in docs/ (TestDocsPicturesHaveTheirScreenshots checks that every
// picture the docs show is one of them).
var docsPictures = map[string]string{
	"overview":         "web-overview.png",
	"play-draughts":    "web-play.png",
	"lab-form":         "web-lab-form.png",
	"lab-run":          "web-lab-run.png",
	"lab-chess960-tab": "web-lab-chess960.png",
}

// chromium finds a Chromium to drive, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on $PATH (apt-get install chromium; .ci/run installs it): the browser tests need one")
	return ""
}

// browserTab is a headless Chromium tab that records console errors,
// warnings and uncaught exceptions.
type browserTab struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// newTab starts Chromium (before any test clock starts) and opens a tab.
func newTab(t *testing.T) *browserTab {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	b := &browserTab{ctx: ctx}
	messages := chromedp.Console(ctx) // starts the browser and the tab
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning || m.IsException() {
				b.mu.Lock()
				b.errors = append(b.errors, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line))
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// run runs steps with a generous deadline: the machine may be loaded.
func (b *browserTab) run(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// value runs an action that reads something, with the same deadline.
func value[T any](t *testing.T, b *browserTab, what string, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 90*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// clean fails the test with the console errors seen so far.
func (b *browserTab) clean(t *testing.T, page string) {
	t.Helper()
	time.Sleep(100 * time.Millisecond) // let the last messages arrive
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		t.Errorf("%s: %s", page, e)
	}
	b.errors = nil
}

// expected takes the console errors that contain what off the record, as
// a test that provokes them expects them, and fails the test when there
// is none.
func (b *browserTab) expected(t *testing.T, what string) {
	t.Helper()
	time.Sleep(100 * time.Millisecond) // let the messages arrive
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.errors[:0]
	for _, e := range b.errors {
		if !strings.Contains(e, what) {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(b.errors) {
		t.Errorf("no console error with %q", what)
	}
	b.errors = kept
}

// screenshot saves the tab's page as name.png among the artifacts: the
// whole page, or only the element sel when one is given (the pictures
// docs/ shows).
func (b *browserTab) screenshot(t *testing.T, name string, element ...string) {
	t.Helper()
	sel := strings.Join(element, "")
	dir := os.Getenv(ArtifactsEnv)
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "evolved-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var png []byte
	if sel == "" {
		png = value(t, b, "screenshot "+name, chromedp.FullScreenshot(100))
	} else {
		png = value(t, b, "screenshot "+name, chromedp.Screenshot(sel))
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if docs, file := os.Getenv(DocsPicturesEnv), docsPictures[name]; docs != "" && file != "" {
		if err := os.WriteFile(filepath.Join(docs, file), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("docs picture: %s", filepath.Join(docs, file))
	}
}

// TestDocsPicturesHaveTheirScreenshots checks that every picture of the
// site that README.md and docs/ show (docs/web-*.png) is made by a
// browser test's screenshot (docsPictures), and that each exists.
func TestDocsPicturesHaveTheirScreenshots(t *testing.T) {
	made := map[string]bool{}
	for _, file := range docsPictures {
		made[file] = true
		if _, err := os.Stat(filepath.Join("..", "docs", file)); err != nil {
			t.Errorf("docs/%s, made by the browser tests, is missing: %v", file, err)
		}
	}
	shown := regexp.MustCompile(`\((?:docs/)?(web-[a-z0-9-]+\.png)\)`)
	docs, _ := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	for _, doc := range append(docs, filepath.Join("..", "README.md")) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range shown.FindAllStringSubmatch(string(text), -1) {
			if !made[m[1]] {
				t.Errorf("%s shows %s, which no browser test makes (docsPictures): it would go stale", doc, m[1])
			}
		}
	}
}

// TestBrowserPagesLoadCleanly opens every page in Chromium, waits for what
// its scripts draw, and fails on any console error.
func TestBrowserPagesLoadCleanly(t *testing.T) {
	b := newTab(t)
	_, ts := newServer(t, web.Options{})
	for _, tc := range []struct {
		name, path, ready string
		check             func(t *testing.T)
	}{
		{"overview", "/", `#runs table tbody tr:nth-child(3)`, func(t *testing.T) {
			// A fitness sparkline for each run, a rating one for chess.
			fitness := value(t, b, "overview: sparklines", chromedp.Evaluate[int](`document.querySelectorAll("#runs svg.spark path").length`))
			if fitness != 4 {
				t.Errorf("%d sparklines on the overview, want 4 (three runs' fitness, chess's ratings)", fitness)
			}
		}},
		{"population", "/games/chess", `.charts[data-drawn="3"] [data-chart="rating"] circle`, func(t *testing.T) {
			// Every chart names its y axis; baseline scores carry
			// their intervals.
			titles := value(t, b, "population: y titles", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".charts text.ytitle")).map(e => e.textContent)`))
			if len(titles) != 4 || titles[2] != "score (%), 95% interval" {
				t.Errorf("y axis titles %q, want one per chart", titles)
			}
			// Every score has one: from its Elo interval, or by
			// Wilson's for a score of 0 or 1 (whose Elo is infinite;
			// TestAPIAnswersWhatTheDatabaseHolds: the fixture has both
			// kinds) or of draws only.
			whiskers := value(t, b, "population: baseline intervals", chromedp.Evaluate[int](`document.querySelectorAll('[data-chart="baselines"] line.whisker').length`))
			dots := value(t, b, "population: baseline scores", chromedp.Evaluate[int](`document.querySelectorAll('[data-chart="baselines"] circle.dot').length`))
			if dots == 0 || whiskers != dots {
				t.Errorf("%d baseline scores, %d with an interval; want every one", dots, whiskers)
			}
			// Drawn, the charts leave their loading state.
			if left := value(t, b, "population: loading state", chromedp.Evaluate[int](`document.querySelectorAll(".chart-loading").length + document.querySelectorAll(".charts[aria-busy]").length`)); left != 0 {
				t.Errorf("%d loading placeholders or busy sections left after drawing", left)
			}
			// Charts whose curves cannot be loaded say so instead of
			// loading forever.
			value(t, b, "population: a chart that fails", chromedp.Evaluate[bool](`(() => {
				const s = document.createElement("section");
				s.className = "charts"; s.id = "broken"; s.dataset.src = "/api/games/nogame/curves"; s.setAttribute("aria-busy", "true");
				s.innerHTML = '<div class="chart" data-chart="fitness"><p class="chart-loading">Loading the curves…</p></div>';
				document.body.append(s);
				document.dispatchEvent(new CustomEvent("evolved:update", { detail: { game: "chess" } }));
				return true;
			})()`))
			b.run(t, "population: failed charts", chromedp.WaitVisible(`#broken:not([aria-busy]) .chart-loading.chart-error`))
			if msg := value(t, b, "population: failure text", chromedp.Text(`#broken .chart-error`)); !strings.HasPrefix(msg, "The curves could not be loaded: ") || !strings.Contains(msg, "nogame") {
				t.Errorf("a chart that failed to load says %q", msg)
			}
			b.expected(t, "/api/games/nogame/curves")
			value(t, b, "population: the failed chart goes", chromedp.Evaluate[bool](`(() => { document.getElementById("broken").remove(); return true; })()`))
		}},
		{"generation", "/games/xiangqi/generations/2", `#games tbody tr`, nil},
		{"replay-draughts", "/games/draughts/generations/2/games/tournament/0", `#moves li`, nil},
		{"replay-chess", "/games/chess/generations/2/games/baseline/0", `#moves li`, func(t *testing.T) {
			b.run(t, "replay: last", chromedp.Click(`#last`))
			ply := value(t, b, "replay: ply", chromedp.Text(`#ply`))
			moves := value(t, b, "replay: count", chromedp.Evaluate[int](`document.querySelectorAll("#moves li").length`))
			if want := fmt.Sprintf("move %d of %d", moves, moves); ply != want {
				t.Errorf("after last: %q, want %q", ply, want)
			}
		}},
		{"replay-xiangqi", "/games/xiangqi/generations/1/games/tournament/3", `#moves li`, nil},
		{"play", "/play?game=chess", `select[name="opponent"] option[value="champion:latest"]`, nil},
	} {
		b.run(t, tc.name, chromedp.Navigate(ts.URL+tc.path), chromedp.WaitReady(tc.ready))
		if tc.check != nil {
			tc.check(t)
		}
		b.screenshot(t, tc.name)
		b.clean(t, tc.name)
	}
}

// TestBrowserLiveUpdate opens a population's page and evolves its run
// further: the page's tables and charts follow without a reload.
func TestBrowserLiveUpdate(t *testing.T) {
	b := newTab(t)
	path := copyFixture(t)
	_, ts := newServer(t, web.Options{DB: path, Poll: 100 * time.Millisecond})
	b.run(t, "open", chromedp.Navigate(ts.URL+"/games/draughts"),
		chromedp.WaitVisible(`.charts[data-drawn="3"]`),
		chromedp.WaitVisible(`#live-state.on`))
	if err := evolve(context.Background(), smallConfig(path, 5)); err != nil {
		t.Fatal(err)
	}
	b.run(t, "live update", chromedp.WaitVisible(`#champions a[href="/games/draughts/generations/4"]`),
		chromedp.WaitVisible(`.charts[data-drawn="5"]`))
	b.clean(t, "live update")
}

// TestBrowserPlaysAGameOnEachBoard plays a whole game of each kind by
// clicking cells, the move chosen from the legal moves the server lists,
// until the game is over (the site draws games after a few moves).
func TestBrowserPlaysAGameOnEachBoard(t *testing.T) {
	b := newTab(t)
	_, ts := newServer(t, web.Options{PlayMaxMoves: 6, WriteRate: 1000})
	for _, game := range []string{"draughts", "chess", "xiangqi"} {
		b.run(t, game+": new game", chromedp.Navigate(ts.URL+"/play?game="+game),
			chromedp.WaitReady(`select[name="opponent"] option[value="random"]`),
			chromedp.SetValue(`select[name="opponent"]`, "random"),
			chromedp.Click(`#new-game button[type="submit"]`),
			chromedp.WaitVisible(`#play[data-status="your-move"]`))
		for plies := 0; ; plies++ {
			remembered := value(t, b, game+": session", chromedp.Evaluate[string](`sessionStorage.getItem("evolved.play.id") || ""`))
			_, id, _ := strings.Cut(remembered, ":")
			var a struct {
				State struct {
					Over  bool `json:"over"`
					Legal []struct {
						From, To int
						Text     string
					} `json:"legal"`
				} `json:"state"`
			}
			getJSON(t, ts.URL+"/api/play/"+id, &a)
			if a.State.Over {
				break
			}
			if plies > 20 || len(a.State.Legal) == 0 {
				t.Fatalf("%s: not over after %d moves", game, plies)
			}
			m := a.State.Legal[plies%len(a.State.Legal)]
			cell := func(i int) string { return fmt.Sprintf(`[data-cell="%d"]`, i) }
			b.run(t, fmt.Sprintf("%s: play %s", game, m.Text), chromedp.Click(cell(m.From)),
				chromedp.Click(cell(m.To)))
			choices := value(t, b, game+": chooser", chromedp.Evaluate[int](`document.querySelectorAll("button.choice[data-text]").length`))
			if choices > 0 {
				sel := fmt.Sprintf(`button.choice[data-text=%q]`, m.Text)
				b.run(t, game+": choose", chromedp.Click(sel))
			}
			b.run(t, game+": reply", chromedp.WaitVisible(`#play[data-status="your-move"], #play[data-status="over"]`))
			played := value(t, b, game+": moves", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#moves li")).map(li => li.textContent)`))
			if !strings.Contains(strings.Join(played, " "), m.Text) {
				t.Fatalf("%s: the move list %q lacks %s", game, played, m.Text)
			}
		}
		b.run(t, game+": over", chromedp.WaitVisible(`#play[data-status="over"]`))
		status := value(t, b, game+": status", chromedp.Text(`#status`))
		if !strings.Contains(status, "Draw") && !strings.Contains(status, "win") && !strings.Contains(status, "lose") {
			t.Errorf("%s: status at the end %q", game, status)
		}
		b.screenshot(t, "play-"+game)
		b.clean(t, "play "+game)
	}
}

// TestBrowserLab works the lab page as a person would: a run started from
// the form, its live panel advancing, stopped, reopened from the list and
// its learnt game stepped to its end; a Chess960 run drawn; and a site
// without the token's permission refusing to start anything.
func TestBrowserLab(t *testing.T) {
	b := newTab(t)
	labDB := filepath.Join(t.TempDir(), "lab.db")
	_, ts := newServer(t, web.Options{LabDB: labDB, AllowLabOnLoopback: true})
	b.run(t, "open the lab", chromedp.Navigate(ts.URL+"/lab"), chromedp.WaitReady(`body[data-lab-ready="true"]`))
	b.screenshot(t, "lab")
	// The form's defaults are the CLI's, from /api/lab/options: 20 turns
	// (lab.DefaultSettings), the classic weights, and each Chess960
	// method's own (the improved GA mutates with 0.5, the classic 0.1).
	defaults := value(t, b, "defaults", chromedp.Evaluate[[]string](`(() => {
		const m = document.getElementById("meta-form").elements, c = document.getElementById("c960-form").elements;
		const got = ["turns", "iterations", "seed", "ants", "w-q", "w-k"].map(n => m.namedItem(n).value)
			.concat(["population", "mutation", "iterations"].map(n => c.namedItem(n).value));
		c.namedItem("method").value = "improved";
		c.namedItem("method").dispatchEvent(new Event("change"));
		got.push(c.namedItem("mutation").value, c.namedItem("tournament").value);
		c.namedItem("method").value = "classic";
		c.namedItem("method").dispatchEvent(new Event("change"));
		return got;
	})()`))
	d, c, imp := lab.DefaultSettings(), chess960.DefaultClassic(), chess960.DefaultImproved()
	want := []string{fmt.Sprint(d.Turns), fmt.Sprint(d.Iterations), fmt.Sprint(d.Seed), fmt.Sprint(d.Ants), "10", "1000",
		fmt.Sprint(c.Population), fmt.Sprint(c.MutationRate), fmt.Sprint(c.Iterations), fmt.Sprint(imp.MutationRate), fmt.Sprint(imp.Tournament)}
	if strings.Join(defaults, "|") != strings.Join(want, "|") || defaults[0] != "20" {
		t.Errorf("the lab form's defaults: %q, want %q (the CLI's)", defaults, want)
	}
	// Simulated annealing for long enough to watch it, then stop it.
	b.run(t, "start a run", chromedp.Click(`#tab-sa`),
		chromedp.SetValue(`select[name="opponent-kind"]`, "material"),
		chromedp.SetValue(`input[name="iterations"]`, "100000"),
		chromedp.SetValue(`input[name="turns"]`, "8"),
		chromedp.SetValue(`textarea[name="from"]`, "1. e4 e5 2. Nf3"),
		chromedp.Click(`#start`),
		chromedp.WaitVisible(`#run-panel[data-state="running"]`))
	first := value(t, b, "iteration", chromedp.Evaluate[int](`Number(document.getElementById("run-panel").dataset.iteration)`))
	value(t, b, "the panel advances", chromedp.Poll[bool](fmt.Sprintf(`Number(document.getElementById("run-panel").dataset.iteration) > %d + 2`, first)))
	eta := value(t, b, "eta", chromedp.Text(`#run-eta`))
	if eta == "—" || eta == "" {
		t.Errorf("a running run shows no ETA")
	}
	b.screenshot(t, "lab-running")
	b.screenshot(t, "lab-form", "#meta-tab")
	b.run(t, "stop", chromedp.Click(`#stop`), chromedp.WaitVisible(`#run-panel[data-state="stopped"]`))
	// Reopen it from the list, as a fresh visit would.
	b.run(t, "reopen", chromedp.Navigate(ts.URL+"/lab"), chromedp.WaitReady(`#runs tr[data-run="1"][data-store="lab"] a`),
		chromedp.Click(`#runs tr[data-run="1"][data-store="lab"] a`),
		chromedp.WaitVisible(`#run-panel[data-state="stopped"] #moves li`))
	total := value(t, b, "moves", chromedp.Evaluate[int](`document.querySelectorAll("#moves li").length`))
	for range total {
		b.run(t, "next", chromedp.Click(`#next`))
	}
	if ply := value(t, b, "ply", chromedp.Text(`#ply`)); ply != fmt.Sprintf("move %d of %d", total, total) || total < 3 {
		t.Errorf("stepped to %q of a game of %d moves", ply, total)
	}
	if next := value(t, b, "next disabled", chromedp.Evaluate[bool](`document.getElementById("next").disabled`)); !next {
		t.Errorf("Next is still enabled at the game's end")
	}
	// The settings by the form's labels, not their keys, and not the
	// method and opponent the title shows.
	if settings := value(t, b, "settings", chromedp.Text(`#run-settings`)); !strings.Contains(settings, "Move history e2e4 e7e5 g1f3") ||
		!strings.Contains(settings, "Initial temperature 0.8") || strings.Contains(settings, "t0 ") || strings.Contains(settings, "memo_opponent") ||
		!strings.Contains(settings, "Piece weights of the cost p=1") || strings.Contains(settings, "method ") || strings.Contains(settings, "material:1") {
		t.Errorf("the run's settings read %q", settings)
	}
	// Its settings fill the form again, to run it again or vary it.
	b.run(t, "reuse", chromedp.Click(`#reuse`))
	form := value(t, b, "reused form", chromedp.Evaluate[[]string](`["opponent", "iterations", "turns", "from", "t0"].map(n => document.getElementById("meta-form").elements.namedItem(n).value).concat([document.body.dataset.tab])`))
	if want := []string{"material:1", "100000", "8", "e2e4 e7e5 g1f3", "0.8", "sa"}; strings.Join(form, "|") != strings.Join(want, "|") {
		t.Errorf("the form after Use these settings: %q, want %q", form, want)
	}
	b.screenshot(t, "lab-stopped")
	b.screenshot(t, "lab-run", "#run-panel")
	// Chess960: the classic GA's curve and its best arrangement.
	b.run(t, "chess960", chromedp.Click(`#tab-chess960`), chromedp.Click(`#c960-run`),
		chromedp.WaitVisible(`#c960-chart[data-drawn="51"] svg path.series`), chromedp.WaitVisible(`#c960-board svg`))
	if best := value(t, b, "chess960 best", chromedp.Text(`#c960-best`)); !strings.Contains(best, "fitness") {
		t.Errorf("chess960 result %q", best)
	}
	b.screenshot(t, "lab-chess960")
	b.screenshot(t, "lab-chess960-tab", "#chess960-tab")
	b.clean(t, "lab")

	// A site whose owner did not allow the lab: the page says why and
	// starts nothing.
	refused := filepath.Join(t.TempDir(), "refused.db")
	_, ts2 := newServer(t, web.Options{LabDB: refused})
	b.run(t, "refused", chromedp.Navigate(ts2.URL+"/lab"), chromedp.WaitVisible(`#lab-notice`))
	if notice := value(t, b, "notice", chromedp.Text(`#lab-notice`)); !strings.Contains(notice, "token") {
		t.Errorf("notice %q", notice)
	}
	if disabled := value(t, b, "start disabled", chromedp.Evaluate[bool](`document.getElementById("start").disabled`)); !disabled {
		t.Errorf("Start is enabled on a site that refuses lab work")
	}
	if _, err := os.Stat(refused); err == nil {
		t.Errorf("the refusing site created its lab database")
	}
	b.clean(t, "lab refused")
}

package web_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evolved/web"
)

func TestCheckListen(t *testing.T) {
	for _, tc := range []struct {
		listen, token string
		ok            bool
	}{
		{"127.0.0.1:8080", "", true},
		{"localhost:8080", "", true},
		{"[::1]:0", "", true},
		{":8080", "", false}, // every interface
		{"0.0.0.0:8080", "", false},
		{"192.168.1.5:8080", "", false},
		{"0.0.0.0:8080", "correct-horse-battery", true},
		{"0.0.0.0:8080", "0123456789abcdef", true}, // 16 characters
		{"0.0.0.0:8080", "s3cret", false},          // too short
		{"127.0.0.1:8080", " ", false},             // short even on loopback
		{"0.0.0.0:8080", "correct horse battery", false},
		{"8080", "", false},                                                // no host:port
		{"0.0.0.0:8080", strings.Repeat("é", 8), false},                    // 16 bytes, 8 characters
		{"0.0.0.0:8080", strings.Repeat("é", 16), true},                    // 16 characters
		{"0.0.0.0:8080", "ключ-доступа-к-сайту", true},                     // any printable UTF-8
		{"0.0.0.0:8080", "0123456789abcdef\x00", false},                    // NUL
		{"0.0.0.0:8080", "0123456789abcdef\x1b", false},                    // escape
		{"0.0.0.0:8080", "0123456789abcdef\x7f", false},                    // DEL
		{"0.0.0.0:8080", "0123456789abcdef\n", false},                      // a newline pasted with it
		{"0.0.0.0:8080", strings.Repeat("\xff", 16), false},                // not UTF-8
		{"0.0.0.0:8080", "0123456789abcdef" + string([]byte{0xc3}), false}, // cut in a character
	} {
		err := web.CheckListen(tc.listen, tc.token)
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, web.ErrConfig) {
			t.Errorf("CheckListen(%q, %q) = %v, want ok %v", tc.listen, tc.token, err, tc.ok)
		}
	}
	if err := web.CheckListen("0.0.0.0:8080", ""); err == nil || !strings.Contains(err.Error(), web.TokenEnv) {
		t.Errorf("the refusal should say how to set a token: %v", err)
	}
}

// TestCheckListenSaysWhatIsWrongWithTheToken checks each refusal of a
// token: it names the fault, counts characters rather than bytes, and
// never holds the token itself, which would end up in a log.
func TestCheckListenSaysWhatIsWrongWithTheToken(t *testing.T) {
	const hint = ": generate one, for example with `openssl rand -hex 16`"
	for _, tc := range []struct{ token, want string }{
		{strings.Repeat("é", 8), "web: bad settings: the access token has 8 characters, fewer than the 16 required" + hint},
		{"s3cret", "web: bad settings: the access token has 6 characters, fewer than the 16 required" + hint},
		{"0123456789abcdef\x00", "web: bad settings: the access token holds a control character (U+0000, character 17)" + hint},
		{"0123456789abcdef\r\n", "web: bad settings: the access token holds a control character (U+000D, character 17)" + hint},
		{"01234567\u00a089abcdef", "web: bad settings: the access token holds a space (U+00A0, character 9)" + hint},
		{"01234567 89abcdef", "web: bad settings: the access token holds a space (U+0020, character 9)" + hint},
		{"0123456789abcdef\xff", "web: bad settings: the access token is not valid UTF-8" + hint},
	} {
		err := web.CheckListen("0.0.0.0:8080", tc.token)
		if err == nil || err.Error() != tc.want {
			t.Errorf("CheckListen(%q) = %v, want %s", tc.token, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), strings.TrimRight(tc.token, "\x00\r\n\xff")) {
			t.Errorf("CheckListen(%q) repeats the token: %v", tc.token, err)
		}
		// web.New refuses the same tokens: a token set there without
		// CheckListen is no weaker.
		if _, err := web.New(context.Background(), web.Options{DB: fixtureDB(t), Token: tc.token}); err == nil || err.Error() != tc.want {
			t.Errorf("New with token %q: %v, want %s", tc.token, err, tc.want)
		}
	}
}

// TestTokenCookieKeepsAnyToken opens the site with ?token= for tokens
// whose characters a cookie value cannot hold as they are: the cookie the
// site sets lets the browser in.
func TestTokenCookieKeepsAnyToken(t *testing.T) {
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, token := range []string{"0123456789abcdef", "ключ-доступа-к-сайту", `a"b;c\d,e%41+f~ghi`} {
		_, ts := newServer(t, web.Options{Token: token})
		code, _, h := get(t, noRedirect, ts.URL+"/api/status?token="+url.QueryEscape(token))
		if code != http.StatusSeeOther {
			t.Fatalf("token %q: ?token=: %d", token, code)
		}
		cookie := strings.Split(h.Get("Set-Cookie"), ";")[0]
		if code, body, _ := get(t, noRedirect, ts.URL+"/api/status", "Cookie", cookie); code != http.StatusOK {
			t.Errorf("token %q: with its cookie %s: %d %s", token, cookie, code, body)
		}
	}
}

// TestBearerSchemeIsCaseInsensitive sends the token under each spelling
// of the scheme: RFC 7235 section 2.1 makes the auth-scheme
// case-insensitive. Wrong tokens under any spelling count as guesses.
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	const token = "correct-horse-battery"
	_, ts := newServer(t, web.Options{Token: token})
	for _, tc := range []struct {
		auth string
		code int
	}{
		{"Bearer " + token, http.StatusOK},
		{"bearer " + token, http.StatusOK},
		{"BEARER " + token, http.StatusOK},
		{"bEaReR " + token, http.StatusOK},
		{"Bearer  " + token, http.StatusOK}, // more than one space
		{"Bearer" + token, http.StatusUnauthorized},
		{"Basic " + token, http.StatusUnauthorized},
		{"Bearers " + token, http.StatusUnauthorized},
		{"bearer wrong-" + token, http.StatusUnauthorized},
		{"bearer " + strings.ToUpper(token), http.StatusUnauthorized}, // the token itself is not
	} {
		if code, body, _ := get(t, nil, ts.URL+"/api/status", "Authorization", tc.auth); code != tc.code {
			t.Errorf("Authorization: %s: %d %s, want %d", tc.auth, code, body, tc.code)
		}
	}
	for i := range 30 {
		code, _, _ := get(t, nil, ts.URL+"/api/status", "Authorization", fmt.Sprintf("bearer guess-%d", i))
		if code == http.StatusTooManyRequests {
			return
		}
	}
	t.Error("30 wrong tokens under \"bearer\" were never limited: they are guesses too")
}

// TestWrongGuessesLockOutOnlyTheGuesser guesses from one host until it
// is refused: that host is refused even with the right token (or it would
// learn which guess was right) from any of its ports, and an IPv6 guesser
// from any address of its /64, while the owner, elsewhere, is let in and
// keeps a budget of its own.
func TestWrongGuessesLockOutOnlyTheGuesser(t *testing.T) {
	const token = "correct-horse-battery"
	s, _ := newServer(t, web.Options{Token: token})
	send := func(addr, auth string) int {
		req := httptest.NewRequest(http.MethodGet, "/api/status", nil)
		req.RemoteAddr = addr
		req.Header.Set("Authorization", auth)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code
	}
	for _, guesser := range []string{"203.0.113.7:40000", "[2001:db8:1:2::7]:40000"} {
		for i := range 10 {
			if code := send(guesser, fmt.Sprintf("Bearer guess-%d", i)); code != http.StatusUnauthorized {
				t.Fatalf("wrong guess %d from %s: %d, want 401", i+1, guesser, code)
			}
		}
	}
	for _, tc := range []struct {
		addr, auth, why string
		code            int
	}{
		{"203.0.113.7:40000", "Bearer guess-10", "the guesser's eleventh guess", http.StatusTooManyRequests},
		{"203.0.113.7:40001", "Bearer " + token, "the right token from the guesser's host", http.StatusTooManyRequests},
		{"[2001:db8:1:2::8]:40000", "Bearer guess", "another address of the IPv6 guesser's /64", http.StatusTooManyRequests},
		{"[2001:db8:1:3::7]:40000", "Bearer guess", "a guess from another /64", http.StatusUnauthorized},
		{"[::ffff:203.0.113.8]:40000", "Bearer guess", "a guess from another IPv4 host", http.StatusUnauthorized},
		{"[2001:db8:1:3::7]:40000", "Bearer " + token, "the owner on IPv6", http.StatusOK},
		{"198.51.100.2:50000", "Bearer " + token, "the owner", http.StatusOK},
		{"198.51.100.2:50000", "Bearer guess", "the owner's own mistake", http.StatusUnauthorized},
		{"198.51.100.2:50001", "Bearer " + token, "the owner after it", http.StatusOK},
	} {
		if code := send(tc.addr, tc.auth); code != tc.code {
			t.Errorf("%s (%s): %d, want %d", tc.why, tc.addr, code, tc.code)
		}
	}
}

// TestTokenGuardsEverything checks that with a token every path needs it,
// by header or by the cookie a first visit with ?token= sets.
func TestTokenGuardsEverything(t *testing.T) {
	_, ts := newServer(t, web.Options{Token: "correct-horse-battery"})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/", "/api/status", "/metrics", "/events", "/static/site.css", "/play"} {
		if code, _, h := get(t, noRedirect, ts.URL+p); code != http.StatusUnauthorized || h.Get("WWW-Authenticate") == "" {
			t.Errorf("GET %s without the token: %d, want 401", p, code)
		}
		if code, _, _ := get(t, noRedirect, ts.URL+p, "Authorization", "Bearer wrong"); code != http.StatusUnauthorized {
			t.Errorf("GET %s with a wrong token: %d, want 401", p, code)
		}
	}
	if code, body, _ := get(t, noRedirect, ts.URL+"/api/status", "Authorization", "Bearer correct-horse-battery"); code != http.StatusOK || !strings.Contains(body, `"runs"`) {
		t.Errorf("GET /api/status with the token: %d", code)
	}
	if code, _, _ := get(t, noRedirect, ts.URL+"/games/chess?token=nope"); code != http.StatusUnauthorized {
		t.Errorf("?token=wrong: %d, want 401", code)
	}
	code, _, h := get(t, noRedirect, ts.URL+"/games/chess?token=correct-horse-battery&from=1")
	cookie := h.Get("Set-Cookie")
	if code != http.StatusSeeOther || h.Get("Location") != "/games/chess?from=1" ||
		!strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Strict") {
		t.Fatalf("?token=: %d, Location %q, Set-Cookie %q", code, h.Get("Location"), cookie)
	}
	name, value, _ := strings.Cut(strings.Split(cookie, ";")[0], "=")
	if code, _, _ := get(t, noRedirect, ts.URL+"/games/chess", "Cookie", name+"="+value); code != http.StatusOK {
		t.Errorf("with the cookie: %d, want 200", code)
	}
}

// TestHostAndOriginChecks refuses a loopback site reached by another name
// (DNS rebinding) and writes from another site.
func TestHostAndOriginChecks(t *testing.T) {
	_, ts := newServer(t, web.Options{})
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/status", nil)
	req.Host = "attacker.example:80"
	if code, body, _ := do(t, nil, req); code != http.StatusForbidden || !strings.Contains(body, "localhost only") {
		t.Errorf("Host attacker.example: %d %s", code, body)
	}
	req, _ = http.NewRequest(http.MethodPost, ts.URL+"/api/play", strings.NewReader(`{"game":"chess","opponent":"random"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://attacker.example")
	if code, body, _ := do(t, nil, req); code != http.StatusForbidden || !strings.Contains(body, "cross-site") {
		t.Errorf("POST from another origin: %d %s", code, body)
	}
}

// TestWritesAreRateLimited exhausts the per-client budget of writes.
func TestWritesAreRateLimited(t *testing.T) {
	_, ts := newServer(t, web.Options{})
	limited := 0
	start := time.Now()
	for range 40 {
		code, _, h := post(t, nil, ts.URL+"/api/play/none/move", "application/json", `{"move":"e4"}`)
		if code == http.StatusTooManyRequests {
			limited++
			if h.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
		}
	}
	// 20 at once and 2 a second: 40 requests in under 5 seconds must see
	// at least 10 refused.
	if time.Since(start) < 5*time.Second && limited < 10 {
		t.Errorf("%d of 40 quick writes were limited, want 10 or more", limited)
	}
}

// TestWrongTokensAreSlowed guesses tokens from one client: the first ten
// wrong ones get 401, then every attempt, even the right token, gets 429
// with Retry-After until the client's bucket refills (one guess every
// five seconds).
func TestWrongTokensAreSlowed(t *testing.T) {
	_, ts := newServer(t, web.Options{Token: "correct-horse-battery"})
	limitedAt := -1
	var limited time.Time
	for i := range 30 {
		code, _, h := get(t, nil, ts.URL+"/api/status", "Authorization", fmt.Sprintf("Bearer guess-%d", i))
		if code == http.StatusTooManyRequests {
			if h.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			limitedAt, limited = i, time.Now()
			break
		}
		if code != http.StatusUnauthorized {
			t.Fatalf("wrong guess %d: %d, want 401", i+1, code)
		}
	}
	if limitedAt < 10 {
		t.Fatalf("the guesses were limited after %d, want after the tenth", limitedAt)
	}
	code, _, _ := get(t, nil, ts.URL+"/api/status", "Authorization", "Bearer correct-horse-battery")
	if time.Since(limited) < 4*time.Second && code != http.StatusTooManyRequests {
		t.Errorf("the right token right after the limit: %d, want 429", code)
	}
	// Requests that present no token are not guesses.
	if code, _, _ := get(t, nil, ts.URL+"/api/status"); code != http.StatusUnauthorized {
		t.Errorf("without a token: %d, want 401 (not counted as a guess)", code)
	}
}

// TestUnauthorizedPage checks what a visitor without the token sees: the
// site's own page, saying how to give the token, and nothing about the
// server (the database's path, the version); an API client gets a JSON
// error that says as little.
func TestUnauthorizedPage(t *testing.T) {
	db := fixtureDB(t)
	const version = "v9.8.7-secret-build"
	_, ts := newServer(t, web.Options{DB: db, Token: "correct-horse-battery", Version: version})
	leaks := func(what, body string) {
		t.Helper()
		for _, secret := range []string{db, filepath.Base(db), version} {
			if strings.Contains(body, secret) {
				t.Errorf("%s shows %q:\n%s", what, secret, body)
			}
		}
	}
	for _, p := range []string{"/", "/lab", "/games/chess?token=wrong"} {
		code, body, h := get(t, nil, ts.URL+p, "Accept", "text/html")
		if code != http.StatusUnauthorized || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %s, want 401 text/html", p, code, h.Get("Content-Type"))
		}
		if h.Get("Content-Security-Policy") == "" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: the security headers are missing: %v", p, h)
		}
		for _, want := range []string{`href="/static/site.css"`, "?token=", "Authorization: Bearer"} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: the page lacks %q:\n%s", p, want, body)
			}
		}
		if strings.Contains(body, "<script>") || strings.Contains(body, "style=") {
			t.Errorf("GET %s: inline script or style:\n%s", p, body)
		}
		leaks("GET "+p, body)
	}
	code, body, h := get(t, nil, ts.URL+"/api/status", "Accept", "application/json")
	if code != http.StatusUnauthorized || !strings.HasPrefix(h.Get("Content-Type"), "application/json") || !strings.Contains(body, `"error"`) {
		t.Errorf("GET /api/status: %d %s %s, want a 401 JSON error", code, h.Get("Content-Type"), body)
	}
	leaks("GET /api/status", body)
}

package web_test

import (
	"errors"
	"fmt"
	"net/http"
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
		{"8080", "", false}, // no host:port
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

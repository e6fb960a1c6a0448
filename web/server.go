package web

import (
	"context"
	"crypto/subtle"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"evolved/lab"
	"evolved/metrics"
	"evolved/outfile"
	"evolved/storage"
)

// Defaults of Options.
const (
	DefaultListen   = "127.0.0.1:8080"
	DefaultPoll     = time.Second
	DefaultMaxPlays = 32
	// DefaultMaxPlaysPerClient lets one client (one IP address, or one
	// IPv6 /64) play four games at once: more than a person follows, and
	// few enough that one visitor cannot take every game of the site.
	DefaultMaxPlaysPerClient = 4
	DefaultPlayIdle          = 30 * time.Minute
	// DefaultWriteRate allows a client two play requests a second, in
	// bursts of up to twenty: more than a person clicks.
	DefaultWriteRate = 2.0
	// DefaultPlayMaxMoves ends a browser game in a draw after 200 moves a
	// side, so that no session lasts for ever.
	DefaultPlayMaxMoves = 200
)

// TokenEnv is the environment variable that gives the access token when
// the configuration does not.
const TokenEnv = "EVOLVED_HTTP_TOKEN"

// tokenCookie holds the access token in a browser.
const tokenCookie = "evolved_token"

// ErrConfig is wrapped by every error about the server's settings.
var ErrConfig = errors.New("web: bad settings")

//go:embed templates static
var assets embed.FS

// Options configures a Server. Only DB is required.
type Options struct {
	// DB is the path of the database to serve, opened read-only.
	DB string
	// Token, when set, is required of every request (see the package
	// documentation). CheckListen requires one off loopback.
	Token string
	// Logger receives one line per server-side failure; nil discards.
	Logger *slog.Logger
	// Poll is how often the server looks for new generations and ratings
	// to announce as live updates (DefaultPoll when 0).
	Poll time.Duration
	// Targets returns the generation target of each game's run, for the
	// overview's ETA (the daemon's generations setting); nil: no target.
	Targets func() map[string]int
	// Collectors are added to /metrics beside the database's figures (the
	// daemon's live counters).
	Collectors []prometheus.Collector
	// MaxPlays bounds the play sessions open at once and PlayIdle ends a
	// session nobody has moved in for that long (DefaultMaxPlays,
	// DefaultPlayIdle when 0).
	MaxPlays int
	PlayIdle time.Duration
	// MaxPlaysPerClient bounds the games in play that one client (see
	// clientOf: an IP address, or an IPv6 /64) may hold at once, so that
	// one visitor cannot take all MaxPlays; a game that has ended or
	// idled out no longer counts (DefaultMaxPlaysPerClient when 0).
	MaxPlaysPerClient int
	// PlayMaxMoves draws a browser game when each side has made that many
	// moves (DefaultPlayMaxMoves when 0).
	PlayMaxMoves int
	// WriteRate bounds each client's writes (play requests) per second,
	// with bursts of ten times as many (DefaultWriteRate when 0).
	WriteRate float64
	// Version is shown in the footer.
	Version string
	// LabDB is the database the lab page stores the runs it starts in
	// (DefaultLabDB(DB) gives the usual place); "" lets the page show the
	// served database's runs only. It must not be DB, which the site only
	// reads. It is opened on the first run started or read, and kept,
	// with its writer lock, until Close.
	LabDB string
	// AllowLabOnLoopback lets a site without a token, which answers on
	// loopback only, start lab work; otherwise starting work needs the
	// token, so that no other local user's page or program can spend the
	// machine unasked.
	AllowLabOnLoopback bool
	// LabEngines are the UCI engines (paths) the lab's runs may play
	// against (FindLabEngines finds Stockfish); a request never names a
	// binary of its own.
	LabEngines []string
	// LabQueue bounds the lab runs waiting behind the running one
	// (DefaultLabQueue when 0).
	LabQueue int
}

// MinTokenLength is the shortest access token the site accepts, in
// characters (not bytes): a token is a password that anyone who reaches
// the port may guess.
const MinTokenLength = 16

// CheckListen refuses an address that is not loopback unless a token
// guards the site (the dashboard shows every run, and play costs CPU),
// and a token checkToken refuses.
func CheckListen(listen, token string) error {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("%w: listen address %q: %w", ErrConfig, listen, err)
	}
	if token != "" {
		if err := checkToken(token); err != nil {
			return err
		}
	}
	if token != "" || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("%w: listen address %q is not loopback: set an access token ([http] token or $%s) before serving it to other machines",
		ErrConfig, listen, TokenEnv)
}

// checkToken refuses an access token that is not valid UTF-8, that holds
// a control character (a newline pasted with it, say) or a space, or that
// has fewer than MinTokenLength characters. Its errors say what is wrong
// without the token itself, which would end up in logs.
func checkToken(token string) error {
	const hint = "generate one, for example with `openssl rand -hex 16`"
	if !utf8.ValidString(token) {
		return fmt.Errorf("%w: the access token is not valid UTF-8: %s", ErrConfig, hint)
	}
	n := 0
	for _, r := range token {
		n++
		switch {
		case unicode.IsControl(r):
			return fmt.Errorf("%w: the access token holds a control character (%U, character %d): %s", ErrConfig, r, n, hint)
		case unicode.IsSpace(r):
			return fmt.Errorf("%w: the access token holds a space (%U, character %d): %s", ErrConfig, r, n, hint)
		}
	}
	if n < MinTokenLength {
		return fmt.Errorf("%w: the access token has %d characters, fewer than the %d required: %s", ErrConfig, n, MinTokenLength, hint)
	}
	return nil
}

// isLoopback reports whether host names this machine only.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Server is the web site over one database. Its handler is safe for
// concurrent use.
type Server struct {
	opts    Options
	db      *storage.DB
	log     *slog.Logger
	pages   map[string]*pageTemplate
	reg     *prometheus.Registry
	live    *hub
	plays   *plays
	lab     *lab.Runner // nil without Options.LabDB
	posts   *limiter    // writes (play, lab) per client
	guesses *limiter    // wrong access tokens per client
	handler http.Handler

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New opens opts.DB read-only and returns its site; Close releases it. The
// server polls the database for live updates until Close.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.DB == "" {
		return nil, fmt.Errorf("%w: no database given", ErrConfig)
	}
	if opts.Token != "" {
		if err := checkToken(opts.Token); err != nil {
			return nil, err
		}
	}
	opts.Poll, opts.PlayIdle = orDefault(opts.Poll, DefaultPoll), orDefault(opts.PlayIdle, DefaultPlayIdle)
	opts.MaxPlays, opts.MaxPlaysPerClient = orDefault(opts.MaxPlays, DefaultMaxPlays), orDefault(opts.MaxPlaysPerClient, DefaultMaxPlaysPerClient)
	opts.PlayMaxMoves, opts.WriteRate = orDefault(opts.PlayMaxMoves, DefaultPlayMaxMoves), orDefault(opts.WriteRate, DefaultWriteRate)
	opts.LabQueue = orDefault(opts.LabQueue, DefaultLabQueue)
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.LabDB != "" {
		// Neither may be the other or one of its side files (a lab
		// database at the served one's -wal path would be lost at the
		// daemon's next checkpoint, and the log with it).
		err := outfile.NewGuard(opts.DB).CheckNames(opts.LabDB)
		if err == nil {
			err = outfile.NewGuard(opts.LabDB).CheckNames(opts.DB)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: the lab database %s is not a file of its own (%w), and the site only reads the served one: give the lab a file of its own", ErrConfig, opts.LabDB, err)
		}
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	db, err := storage.Open(ctx, opts.DB, storage.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	s := &Server{opts: opts, db: db, log: opts.Logger, pages: pages, live: newHub(),
		plays: newPlays(opts.MaxPlays, opts.MaxPlaysPerClient, opts.PlayIdle), posts: newLimiter(opts.WriteRate, 10*opts.WriteRate),
		guesses: newLimiter(guessRate, guessBurst)}
	s.reg = prometheus.NewRegistry()
	s.reg.MustRegister(metrics.NewDatabaseCollector(db, opts.Logger),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, c := range opts.Collectors {
		if err := s.reg.Register(c); err != nil {
			db.Close()
			return nil, fmt.Errorf("web: metrics: %w", err)
		}
	}
	if opts.LabDB != "" {
		s.lab = lab.NewRunner(ctx, lab.RunnerConfig{Path: opts.LabDB, Queue: opts.LabQueue, Shutdown: errShutdown, Logger: opts.Logger})
	}
	s.handler = s.secure(s.routes())
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	s.wg.Go(func() { s.watch(runCtx) })
	return s, nil
}

// orDefault returns v, or def when v is 0 or less: an option left unset.
func orDefault[T int | float64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Handler returns the site's handler.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the live updates, ends every play session and closes the
// database.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	s.live.close()
	var labErr error
	if s.lab != nil {
		labErr = s.lab.Close()
	}
	return errors.Join(labErr, s.db.Close())
}

// Listen opens the site's listening socket on listen, after CheckListen:
// a daemon listens before it starts evolving, so that a port in use fails
// its start instead of leaving it without its site.
func Listen(listen, token string) (net.Listener, error) {
	if err := CheckListen(listen, token); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("web: listen: %w", err)
	}
	return ln, nil
}

// Serve serves the site on ln until ctx is done, then shuts down
// gracefully, giving requests in flight five seconds. It closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute, // the event stream lifts it for itself
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("web: serve: %w", err)
	case <-ctx.Done():
	}
	s.live.close() // event streams end, or Shutdown would wait for them
	shutCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		srv.Close()
	}
	return nil
}

// routes returns the site's mux. Method and path patterns do the routing;
// every parameter is validated by its handler before any query.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", pageOf(s, "overview", s.loadOverview))
	mux.HandleFunc("GET /games/{game}", s.populationPage)
	mux.HandleFunc("GET /games/{game}/generations/{gen}", pageOf(s, "generation", s.loadGeneration))
	mux.HandleFunc("GET /games/{game}/generations/{gen}/games/{kind}/{idx}", s.replayPage)
	mux.HandleFunc("GET /play", s.playPage)

	mux.HandleFunc("GET /api/status", jsonOf(s, s.loadOverview))
	mux.HandleFunc("GET /api/games/{game}/curves", s.apiCurves)
	mux.HandleFunc("GET /api/games/{game}/champions", s.apiChampions)
	mux.HandleFunc("GET /api/games/{game}/champions/{gen}/agent", s.apiAgent)
	mux.HandleFunc("GET /api/games/{game}/generations/{gen}", jsonOf(s, s.loadGeneration))
	mux.HandleFunc("GET /api/games/{game}/generations/{gen}/games/{kind}/{idx}", s.apiGame)
	mux.HandleFunc("GET /api/games/{game}/generations/{gen}/games/{kind}/{idx}/record", s.apiGameRecord)
	mux.HandleFunc("GET /api/play/opponents", s.apiOpponents)
	mux.HandleFunc("POST /api/play", s.apiPlayNew)
	mux.HandleFunc("GET /api/play/{id}", s.apiPlayGet)
	mux.HandleFunc("POST /api/play/{id}/move", s.apiPlayMove)
	mux.HandleFunc("GET /api/play/{id}/record", s.apiPlayRecord)
	mux.HandleFunc("GET /lab", s.labPage)
	mux.HandleFunc("GET /api/lab/options", s.apiLabOptions)
	mux.HandleFunc("GET /api/lab/runs", s.apiLabRuns)
	mux.HandleFunc("POST /api/lab/runs", s.apiLabStart)
	mux.HandleFunc("GET /api/lab/runs/{id}", s.apiLabRun)
	mux.HandleFunc("POST /api/lab/runs/{id}/stop", s.apiLabStop)
	mux.HandleFunc("POST /api/lab/chess960", s.apiChess960)
	mux.HandleFunc("GET /events", s.events)
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}))

	static, _ := fs.Sub(assets, "static")
	files := http.FileServerFS(static)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			s.fail(w, r, http.StatusNotFound, "no page at /static/%s", r.URL.Path) // no directory listings
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=300")
		files.ServeHTTP(w, r)
	})))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.unrouted(mux, w, r) })
	return mux
}

// unrouted answers a request no pattern took: 405 with the methods the
// path has, or 404.
func (s *Server) unrouted(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.fail(w, r, http.StatusMethodNotAllowed, "%s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allow, ", "))
		return
	}
	s.notFound(w, r)
}

// contentSecurityPolicy allows the site's own scripts, styles, images and
// requests, and nothing else: no inline script or style, no frames.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// maxBody bounds every request body: the largest the site reads is a lab
// run's settings, whose move history may run to a few kilobytes.
const maxBody = 16 << 10

// secure wraps next with the security headers, the access check, the Host
// check against DNS rebinding, the body limit and the write rate limit.
func (s *Server) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if s.opts.Token == "" && !isLoopback(hostOnly(r.Host)) {
			// Without a token the site trusts loopback alone; a page
			// elsewhere that rebinds its own name to 127.0.0.1 sends its
			// own Host and is refused here.
			s.refuse(w, r, http.StatusForbidden, "this site answers to localhost only (Host %q); serve it with a token to reach it by another name", r.Host)
			return
		}
		if s.opts.Token != "" {
			client, now := clientOf(r), time.Now()
			if presentsToken(r) && !s.guesses.has(client, now) {
				// Too many wrong tokens from this client: no more tries
				// until its bucket refills, right or wrong, or a guesser
				// would learn which guess was right. The budget is the
				// client's own: the owner, from another address, is let
				// in, so that no one locks the owner out by guessing.
				h.Set("Retry-After", strconv.Itoa(int(1/guessRate)))
				s.refuse(w, r, http.StatusTooManyRequests, "too many wrong access tokens from %s: wait", client)
				return
			}
			if given := r.URL.Query().Get("token"); given != "" && r.Method == http.MethodGet {
				if !s.tokenOK(given) {
					s.guesses.allow(client, now)
					s.refuse(w, r, http.StatusUnauthorized, "wrong access token")
					return
				}
				http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: url.QueryEscape(given), Path: "/", HttpOnly: true,
					SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: 30 * 24 * 3600})
				u := *r.URL
				q := u.Query()
				q.Del("token")
				u.RawQuery = q.Encode()
				http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
				return
			}
			if !s.authorized(r) {
				if presentsToken(r) {
					s.guesses.allow(client, now)
				}
				h.Set("WWW-Authenticate", `Bearer realm="evolved"`)
				s.refuse(w, r, http.StatusUnauthorized, "this site needs its access token: open it once with ?token=TOKEN, or send Authorization: Bearer TOKEN")
				return
			}
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if !sameOrigin(r) {
				s.fail(w, r, http.StatusForbidden, "cross-site request refused")
				return
			}
			if !s.posts.allow(clientOf(r), time.Now()) {
				h.Set("Retry-After", "1")
				s.fail(w, r, http.StatusTooManyRequests, "too many requests: slow down")
				return
			}
			if r.ContentLength > maxBody {
				s.fail(w, r, http.StatusRequestEntityTooLarge, "request body of %d bytes is over the limit of %d", r.ContentLength, maxBody)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// guessRate and guessBurst bound the wrong access tokens a client (see
// clientOf) may present: ten at once, then one every five seconds, so
// guessing a token of MinTokenLength characters takes longer than anyone
// waits. Each client has its own budget.
const (
	guessRate  = 0.2
	guessBurst = 10
)

// presentsToken reports whether r carries an access token, right or
// wrong: in its query, as a bearer or in the site's cookie.
func presentsToken(r *http.Request) bool {
	if _, ok := bearer(r); ok || r.URL.Query().Get("token") != "" {
		return true
	}
	_, err := r.Cookie(tokenCookie)
	return err == nil
}

// bearer returns the token of r's Authorization header when its scheme is
// Bearer, in any case: RFC 7235 makes the auth-scheme case-insensitive,
// so "bearer" and "BEARER" are the same scheme.
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// cookieToken returns the token of the site's cookie. The cookie holds the
// token query-escaped, since a cookie value may hold ASCII only and not
// every character of it (a token may be any printable UTF-8); a token of
// letters and digits is its own escape.
func cookieToken(r *http.Request) (string, bool) {
	c, err := r.Cookie(tokenCookie)
	if err != nil {
		return "", false
	}
	if token, err := url.QueryUnescape(c.Value); err == nil {
		return token, true
	}
	return c.Value, true
}

// tokenOK compares a presented token with the site's in constant time.
func (s *Server) tokenOK(given string) bool {
	return subtle.ConstantTimeCompare([]byte(given), []byte(s.opts.Token)) == 1
}

// authorized reports whether r carries the access token.
func (s *Server) authorized(r *http.Request) bool {
	if token, ok := bearer(r); ok && s.tokenOK(token) {
		return true
	}
	token, ok := cookieToken(r)
	return ok && s.tokenOK(token)
}

// sameOrigin reports whether a write comes from the site's own pages:
// browsers send Origin (or Sec-Fetch-Site) with every cross-site write;
// scripts and tests that send neither are not browsers and are let through
// (they still need the token, if any).
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}

// hostOnly returns the host of a Host header, without its port.
func hostOnly(hostport string) string {
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		return host
	}
	return hostport
}

// clientOf names the client for the limits on guesses, writes and games
// in play: the host of RemoteAddr, without its port, so that one machine
// is one client however many connections it opens. An IPv6 client is its
// /64, the block one host or one home is given, or rotating addresses
// within it would make it as many clients as it likes; an IPv4-mapped
// address is its IPv4 one. X-Forwarded-For is not read: a client could
// write any address there.
func clientOf(r *http.Request) string {
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		return netip.PrefixFrom(ip, 64).Masked().String()
	}
	return ip.String()
}

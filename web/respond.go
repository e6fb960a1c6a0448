package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"evolved/storage"
)

// knownGames are the games a population can evolve, in the order pages
// list them.
var knownGames = []string{"draughts", "chess", "xiangqi"}

// gameKinds are the kinds of stored games.
var gameKinds = []string{"tournament", "ladder", "baseline", "challenge"}

// writeJSON writes v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"error":"could not encode the response"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// pageOf returns the handler of a page that shows what load reads for the
// request, drawn by the template name, or the error that reading it gave,
// with the status failErr gives it. A page and its API answer (jsonOf)
// share one load, so they show the same data.
func pageOf[T any](s *Server, name string, load func(*http.Request) (T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := load(r)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		s.render(w, r, http.StatusOK, name, v)
	}
}

// jsonOf returns the handler of an API route that answers what load reads
// for the request as JSON, or the error that reading it gave, with the
// status failErr gives it.
func jsonOf[T any](s *Server, load func(*http.Request) (T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := load(r)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

// wantsJSON reports whether r is for the API (JSON errors) rather than a
// page (HTML errors).
func wantsJSON(r *http.Request) bool {
	p := r.URL.Path
	return strings.HasPrefix(p, "/api/") || p == "/events" || p == "/metrics"
}

// fail answers r with an error status and a message that says what is
// wrong: JSON {"error": ...} for the API, a page for people.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if status >= 500 {
		s.log.Warn("web request failed", "method", r.Method, "path", r.URL.Path, "status", status, "err", msg)
	}
	if wantsJSON(r) {
		writeJSON(w, status, map[string]string{"error": msg})
		return
	}
	s.render(w, r, status, "error", errorPage{Page: s.page(http.StatusText(status)), Status: status, Message: msg})
}

// refuse answers a request the site does not let in, before it is known
// to carry the access token: as fail does, but a person sees a page that
// shows nothing of the server, and a 401 page tells how to give the token.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	switch {
	case wantsJSON(r):
		writeJSON(w, status, map[string]string{"error": msg})
	case status == http.StatusUnauthorized:
		s.render(w, r, status, "token", errorPage{Page: outsidePage("Access token needed"), Status: status, Message: msg})
	default:
		s.render(w, r, status, "error", errorPage{Page: outsidePage(http.StatusText(status)), Status: status, Message: msg})
	}
}

// failErr answers with the status an error from storage or a parameter
// deserves: 404 for what does not exist, 400 for bad input, 500 else.
func (s *Server) failErr(w http.ResponseWriter, r *http.Request, err error) {
	var bad *badParam
	var input *badInput
	switch {
	case errors.As(err, &bad), errors.As(err, &input):
		s.fail(w, r, http.StatusBadRequest, "%s", err)
	case errors.Is(err, storage.ErrNoRun), errors.Is(err, storage.ErrNoGeneration), errors.Is(err, storage.ErrNoGame),
		errors.Is(err, storage.ErrNoAgent), errors.Is(err, storage.ErrPruned):
		s.fail(w, r, http.StatusNotFound, "%s", err)
	default:
		s.fail(w, r, http.StatusInternalServerError, "%s", err)
	}
}

// notFound answers a path the site does not have.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusNotFound, "no page at %s", r.URL.Path)
}

// badParam is a path or query parameter that cannot be what it names.
type badParam struct {
	name, value, want string
}

func (e *badParam) Error() string {
	return fmt.Sprintf("bad %s %q: want %s", e.name, e.value, e.want)
}

// badInput is a request the site cannot read, with what is wrong.
type badInput struct{ msg string }

func (e *badInput) Error() string { return e.msg }

// gameParam reads the {game} of a path: one of knownGames.
func gameParam(r *http.Request) (string, error) {
	g := r.PathValue("game")
	if !slices.Contains(knownGames, g) {
		return "", &badParam{"game", g, "one of " + strings.Join(knownGames, ", ")}
	}
	return g, nil
}

// intParam reads a non-negative integer path parameter.
func intParam(r *http.Request, name string) (int, error) {
	v := r.PathValue(name)
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || len(v) > 10 {
		return 0, &badParam{name, v, "a whole number from 0"}
	}
	return n, nil
}

// gameRef reads the {game}/{gen}/{kind}/{idx} of a stored game's path.
func gameRef(r *http.Request) (game string, gen int, kind string, idx int, err error) {
	if game, err = gameParam(r); err != nil {
		return
	}
	if gen, err = intParam(r, "gen"); err != nil {
		return
	}
	kind = r.PathValue("kind")
	if !slices.Contains(gameKinds, kind) {
		err = &badParam{"kind", kind, "one of " + strings.Join(gameKinds, ", ")}
		return
	}
	idx, err = intParam(r, "idx")
	return
}

// limiter is a token bucket per client: rate tokens a second, up to burst.
// It forgets clients whose bucket is full again, so its size stays bounded
// by the clients of the last few seconds.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate, burst float64) *limiter {
	return &limiter{rate: rate, burst: burst, buckets: map[string]*bucket{}}
}

// has reports whether client's bucket holds a token at now, taking none.
func (l *limiter) has(client string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[client]
	return !ok || min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate) >= 1
}

// allow takes a token of client's bucket at now, or reports false.
func (l *limiter) allow(client string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buckets) > 4096 {
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
				delete(l.buckets, k)
			}
		}
	}
	b, ok := l.buckets[client]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"evolved/progress"
	"evolved/storage"
)

// maxStreams bounds the event streams open at once: each holds a
// connection and a goroutine.
const maxStreams = 64

// update is a live update: a run committed a generation or stored a
// rating.
type update struct {
	Game string `json:"game"`
	storage.Progress
	// Latest is the latest generation played, -1 before the first.
	Latest int `json:"latest"`
}

// hub fans updates out to the event streams. Its methods are safe for
// concurrent use.
type hub struct {
	mu     sync.Mutex
	subs   map[chan update]struct{}
	closed bool
}

func newHub() *hub { return &hub{subs: map[chan update]struct{}{}} }

// subscribe returns a channel of updates, or false when maxStreams are
// open or the hub is closed.
func (h *hub) subscribe() (chan update, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || len(h.subs) >= maxStreams {
		return nil, false
	}
	c := make(chan update, 16)
	h.subs[c] = struct{}{}
	return c, true
}

// unsubscribe forgets c.
func (h *hub) unsubscribe(c chan update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[c]; ok {
		delete(h.subs, c)
		close(c)
	}
}

// publish sends u to every stream; a stream whose buffer is full misses it
// (its page reloads its data on the next one anyway).
func (h *hub) publish(u update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs {
		select {
		case c <- u:
		default:
		}
	}
}

// close ends every stream and refuses new ones.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.subs {
		delete(h.subs, c)
		close(c)
	}
}

// watch polls the database's progress every opts.Poll and publishes what
// changed, until ctx is done. A daemon in another process commits the
// generations, so polling the shared file is what sees them; the query
// reads two small counts per run.
func (s *Server) watch(ctx context.Context) {
	last, err := s.db.Progress(ctx)
	if err != nil {
		s.log.Warn("live updates: could not read the database's progress", "err", err)
	}
	stop := progress.Every(ctx, s.opts.Poll, func(time.Duration) {
		now, err := s.db.Progress(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("live updates: could not read the database's progress", "err", err)
			}
			return
		}
		for _, game := range slices.Sorted(maps.Keys(now)) {
			if p := now[game]; p != last[game] {
				s.live.publish(update{Game: game, Progress: p, Latest: p.Generations - 1})
			}
		}
		last = now
	})
	<-ctx.Done()
	stop()
}

// events streams live updates as server-sent events: an "update" event per
// run that committed a generation or stored a rating, and a comment every
// 15 seconds that keeps proxies from closing the stream.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	c, ok := s.live.subscribe()
	if !ok {
		w.Header().Set("Retry-After", "10")
		s.fail(w, r, http.StatusServiceUnavailable, "too many live update streams are open (%d)", maxStreams)
		return
	}
	defer s.live.unsubscribe(c)
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{}) // the stream lasts; the server's write timeout would cut it
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 3000\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case u, open := <-c:
			if !open {
				return
			}
			data, _ := json.Marshal(u)
			fmt.Fprintf(w, "event: update\ndata: %s\n\n", data)
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

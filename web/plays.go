package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"evolved/agent"
	"evolved/game"
	"evolved/games"
	"evolved/play"
	"evolved/player"
	"evolved/storage"
)

// Bounds of play sessions: a move's engine search, the moves of a game
// (then it is drawn), and the engines thinking at once, so that visitors
// cannot take the CPU from the evolution.
const (
	engineTimeout   = 30 * time.Second
	enginesAtOnce   = 2
	maxMoveTextSize = 64
)

// builtins are the built-in opponents a browser may choose, per game: a
// fixed list, so that no request names an agent file, an engine binary
// or anything else on disk.
var builtins = map[string][]opponent{
	"draughts": {{"material:2", "material, 2 plies"}, {"material:4", "material, 4 plies"}, {"material:6", "material, 6 plies"},
		{"mcts:1000", "MCTS, 1000 playouts"}, {"random", "random moves"}},
	"chess": {{"pst:2", "piece-square tables, 2 plies"}, {"pst:4", "piece-square tables, 4 plies"},
		{"pesto:4", "PeSTO's tapered tables, 4 plies"}, {"material:3", "material, 3 plies"}, {"mcts:1000", "MCTS, 1000 playouts"}, {"random", "random moves"}},
	"xiangqi": {{"classic", "the classic program"}, {"material:3", "material, 3 plies"},
		{"mcts:1000", "MCTS, 1000 playouts"}, {"random", "random moves"}},
}

// opponent is a player a browser may choose.
type opponent struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// apiOpponents lists the opponents of a game: its run's latest champion
// and best-rated champion when the database has the run, then the
// built-in players.
func (s *Server) apiOpponents(w http.ResponseWriter, r *http.Request) {
	game := r.URL.Query().Get("game")
	if _, ok := builtins[game]; !ok {
		s.failErr(w, r, &badParam{"game", game, "one of draughts, chess, xiangqi"})
		return
	}
	list := []opponent{}
	n, err := s.db.Generations(r.Context(), game)
	switch {
	case errors.Is(err, storage.ErrNoRun):
	case err != nil:
		s.failErr(w, r, err)
		return
	case n > 0:
		list = append(list, opponent{"champion:latest", fmt.Sprintf("the latest champion (generation %d)", n-1)})
		ratings, err := s.db.Ratings(r.Context(), game)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		best := -1
		var bestLow float64
		for _, rt := range ratings {
			if low := rt.Elo - rt.CI; best < 0 || low >= bestLow {
				best, bestLow = rt.Generation, low
			}
		}
		if best >= 0 && best != n-1 {
			// "Best" among several ratings; with one, it is only rated.
			label := fmt.Sprintf("the best rated champion (generation %d)", best)
			if rated := ratedGenerations(ratings); rated == 1 {
				label = fmt.Sprintf("the rated champion (generation %d)", best)
			}
			list = append(list, opponent{fmt.Sprintf("champion:%d", best), label})
		}
		if n > 1 && best != 0 { // generation 0 is listed once, as the best rated when it is
			list = append(list, opponent{"champion:0", "generation 0's champion"})
		}
	}
	list = append(list, builtins[game]...)
	writeJSON(w, http.StatusOK, map[string]any{"game": game, "opponents": list, "sides": sides(game)})
}

// ratedGenerations counts the generations whose champions ratings rate
// (a champion rated on two scales counts once).
func ratedGenerations(ratings []storage.Rating) int {
	seen := map[int]bool{}
	for _, rt := range ratings {
		seen[rt.Generation] = true
	}
	return len(seen)
}

// championID reads "champion:latest" or "champion:N".
var championID = regexp.MustCompile(`^champion:(latest|[0-9]{1,9})$`)

// sides are the sides of game, the first player's first; none for a game
// evolved does not play.
func sides(game string) []string {
	info, err := games.Lookup(game)
	if err != nil {
		return nil
	}
	return info.Sides[:]
}

// newMatch builds a match of game against the opponent id, with the
// person playing side.
func (s *Server) newMatch(ctx context.Context, game, id, side string) (play.Match, error) {
	human, ok := sideIndex(game, side)
	if !ok {
		return nil, &badParam{"side", side, "one of " + strings.Join(sides(game), ", ")}
	}
	var spec string
	var champion *agentChoice
	if m := championID.FindStringSubmatch(id); m != nil {
		gen := -1
		if m[1] != "latest" {
			gen, _ = strconv.Atoi(m[1])
		}
		f, err := s.db.ChampionAgent(ctx, game, gen)
		if err != nil {
			return nil, err
		}
		champion = &agentChoice{name: fmt.Sprintf("champion of generation %d", f.Provenance.Generation), f: f}
	} else {
		for _, o := range builtins[game] {
			if o.ID == id {
				spec = id
			}
		}
		if spec == "" {
			return nil, &badParam{"opponent", id, "champion:latest, champion:N or one of the built-in players /api/play/opponents lists"}
		}
	}
	seed, maxMoves := uint64(time.Now().UnixNano()), s.opts.PlayMaxMoves
	var m play.Match
	err := games.Visit(game, games.Funcs{
		Draughts: func(k games.DraughtsKind) (err error) {
			m, err = startMatch(k, play.DraughtsUI(), spec, champion, human, seed, maxMoves)
			return err
		},
		Chess: func(k games.ChessKind) (err error) {
			m, err = startMatch(k, play.ChessUI(), spec, champion, human, seed, maxMoves)
			return err
		},
		Xiangqi: func(k games.XiangqiKind) (err error) {
			m, err = startMatch(k, play.XiangqiUI(), spec, champion, human, seed, maxMoves)
			return err
		},
	})
	return m, err
}

// startMatch starts a match of game k, shown as ui, from its standard
// start against the built-in player spec, or the champion searching as it
// was evolved (its run's depth and node budget), the person playing human.
func startMatch[M comparable, S play.Playable[M]](k games.Kind[M, S], ui play.UI[M, S], spec string, champion *agentChoice,
	human game.Player, seed uint64, maxMoves int) (play.Match, error) {
	var engine player.Spec[M, S]
	var err error
	if champion == nil {
		engine, err = k.Parse(spec)
	} else {
		engine, err = k.AgentFile(champion.name, champion.f, 0)
	}
	if err != nil {
		return nil, err
	}
	return play.NewMatch(k, ui, play.Options[M, S]{Engine: engine, Human: human, MaxMoves: maxMoves, Seed: seed})
}

// sideIndex reads a side's name as the game's player.
func sideIndex(g, side string) (game.Player, bool) {
	for i, name := range sides(g) {
		if name == side {
			return game.Player(i), true
		}
	}
	return 0, false
}

// agentChoice is a champion chosen as the opponent.
type agentChoice struct {
	name string
	f    agent.File
}

// session is one browser game. mu serialises its moves.
type session struct {
	mu     sync.Mutex
	match  play.Match
	game   string
	client string    // who started it (clientOf)
	used   time.Time // the last request; guarded by plays.mu
	over   bool      // the game has ended; guarded by plays.mu
}

// plays holds the play sessions: at most max games in play, at most
// perClient of them a client's, each ended after idle without a request.
// A game that is over is kept, for its record, until it idles out or its
// place is needed. Its methods are safe for concurrent use.
type plays struct {
	mu        sync.Mutex
	sessions  map[string]*session
	max       int
	perClient int
	idle      time.Duration
	engines   chan struct{} // a token per engine allowed to think at once
}

func newPlays(max, perClient int, idle time.Duration) *plays {
	return &plays{sessions: map[string]*session{}, max: max, perClient: perClient, idle: idle,
		engines: make(chan struct{}, enginesAtOnce)}
}

// The errors of plays.add: the site is full, or the client holds all the
// games one client may.
var (
	errTooManyPlays  = errors.New("too many games are being played on this site; finish one or try again later")
	errClientTooMany = errors.New("too many games in play from one client")
)

// add stores a new session of client under a fresh random id, first
// ending the sessions idle for too long. It refuses the session when the
// client has perClient games in play (errClientTooMany) or the site has
// max (errTooManyPlays); games that are over do not count, and the least
// recently used of them is dropped when the site holds max sessions.
func (p *plays) add(m play.Match, game, client string, now time.Time) (string, *session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expire(now)
	inPlay, theirs := 0, 0
	var stale string // the least recently used game that is over
	for id, s := range p.sessions {
		switch {
		case s.over:
			if stale == "" || s.used.Before(p.sessions[stale].used) {
				stale = id
			}
		case s.client == client:
			theirs++
			inPlay++
		default:
			inPlay++
		}
	}
	switch {
	case theirs >= p.perClient:
		return "", nil, errClientTooMany
	case inPlay >= p.max:
		return "", nil, errTooManyPlays
	case len(p.sessions) >= p.max:
		delete(p.sessions, stale) // inPlay < max: some game is over
	}
	var b [16]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	s := &session{match: m, game: game, client: client, used: now}
	p.sessions[id] = s
	return id, s, nil
}

// end marks s as over: it no longer counts against its client or the
// site, but stays until it idles out or its place is needed.
func (p *plays) end(s *session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s.over = true
}

// get returns the session id, if it is still open.
func (p *plays) get(id string, now time.Time) (*session, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expire(now)
	s, ok := p.sessions[id]
	if ok {
		s.used = now
	}
	return s, ok
}

// expire ends the sessions idle for longer than p.idle; p.mu is held.
func (p *plays) expire(now time.Time) {
	for id, s := range p.sessions {
		if now.Sub(s.used) > p.idle {
			delete(p.sessions, id)
		}
	}
}

// reply lets the engine of m move, holding one of the engine tokens and
// within engineTimeout; it does nothing when the engine is not to move.
// The move does not depend on the request that asked for it: a client
// that goes away (a closed tab, a timed-out request) finds the engine's
// move in place on its next request, rather than a game in which it is
// never its turn again.
func (p *plays) reply(ctx context.Context, m play.Match) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), engineTimeout)
	defer cancel()
	select {
	case p.engines <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("the engines are busy: %w", ctx.Err())
	}
	defer func() { <-p.engines }()
	return m.Reply(ctx)
}

// playAnswer is what the play API answers.
type playAnswer struct {
	ID    string     `json:"id"`
	State play.State `json:"state"`
}

// readJSON decodes a small JSON request body into v, refusing other
// content types, unknown fields and trailing data.
func readJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return &badParam{"Content-Type", ct, "application/json"}
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return &badInput{"bad request body: " + err.Error()}
	}
	if dec.More() {
		return &badInput{"bad request body: trailing data after the JSON object"}
	}
	return nil
}

// failBody answers a request whose body could not be read.
func (s *Server) failBody(w http.ResponseWriter, r *http.Request, err error) {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		s.fail(w, r, http.StatusRequestEntityTooLarge, "request body over the limit of %d bytes", tooBig.Limit)
		return
	}
	var bad *badParam
	if errors.As(err, &bad) && bad.name == "Content-Type" {
		s.fail(w, r, http.StatusUnsupportedMediaType, "%s", err)
		return
	}
	s.failErr(w, r, err)
}

// apiPlayNew starts a game against an opponent; when the person plays the
// second side, the answer already holds the engine's first move.
func (s *Server) apiPlayNew(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Game     string `json:"game"`
		Opponent string `json:"opponent"`
		Side     string `json:"side"`
	}
	if err := readJSON(r, &req); err != nil {
		s.failBody(w, r, err)
		return
	}
	if _, ok := builtins[req.Game]; !ok {
		s.failErr(w, r, &badParam{"game", req.Game, "one of draughts, chess, xiangqi"})
		return
	}
	if req.Side == "" {
		req.Side = sides(req.Game)[0]
	}
	m, err := s.newMatch(r.Context(), req.Game, req.Opponent, req.Side)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	id, sess, err := s.plays.add(m, req.Game, clientOf(r), time.Now())
	switch {
	case errors.Is(err, errClientTooMany):
		w.Header().Set("Retry-After", "60")
		s.fail(w, r, http.StatusTooManyRequests, "you have %d games in play on this site, the most one client may: finish one, or wait for one you left to end %s after its last move",
			s.opts.MaxPlaysPerClient, s.opts.PlayIdle)
		return
	case err != nil:
		w.Header().Set("Retry-After", "60")
		s.fail(w, r, http.StatusServiceUnavailable, "%s", err)
		return
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if err := s.plays.reply(r.Context(), m); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, "the engine could not move: %v", err)
		return
	}
	s.answerPlay(w, http.StatusCreated, id, sess)
}

// answerPlay answers with the game of sess, whose mu is held, and frees
// its place among its client's games once it is over.
func (s *Server) answerPlay(w http.ResponseWriter, status int, id string, sess *session) {
	st := sess.match.State()
	if st.Over {
		s.plays.end(sess)
	}
	writeJSON(w, status, playAnswer{ID: id, State: st})
}

// session returns the session a path names, or answers 404.
func (s *Server) session(w http.ResponseWriter, r *http.Request) (string, *session, bool) {
	id := r.PathValue("id")
	sess, ok := s.plays.get(id, time.Now())
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no game %q in play here: it ended after %s without a move, or never began", id, s.opts.PlayIdle)
		return id, nil, false
	}
	return id, sess, true
}

// replyPending makes an engine move that failed before (the engines were
// busy), so that the game never waits on the engine for good; when it
// fails again it answers 503 and reports false. The caller holds
// sess.mu.
func (s *Server) replyPending(w http.ResponseWriter, r *http.Request, sess *session) bool {
	if err := s.plays.reply(r.Context(), sess.match); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, "the engine could not move: %v", err)
		return false
	}
	return true
}

// apiPlayGet answers a game in play.
func (s *Server) apiPlayGet(w http.ResponseWriter, r *http.Request) {
	id, sess, ok := s.session(w, r)
	if !ok {
		return
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if s.replyPending(w, r, sess) {
		s.answerPlay(w, http.StatusOK, id, sess)
	}
}

// apiPlayMove plays the person's move and the engine's reply.
func (s *Server) apiPlayMove(w http.ResponseWriter, r *http.Request) {
	id, sess, ok := s.session(w, r)
	if !ok {
		return
	}
	var req struct {
		Move string `json:"move"`
	}
	if err := readJSON(r, &req); err != nil {
		s.failBody(w, r, err)
		return
	}
	if req.Move == "" || len(req.Move) > maxMoveTextSize {
		s.failErr(w, r, &badParam{"move", req.Move, fmt.Sprintf("a move in the game's notation, at most %d bytes", maxMoveTextSize)})
		return
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if !s.replyPending(w, r, sess) {
		return
	}
	if err := sess.match.Play(req.Move); err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, play.ErrGameOver) || errors.Is(err, play.ErrNotYourTurn) {
			status = http.StatusConflict
		}
		if errors.Is(err, play.ErrGameOver) {
			s.plays.end(sess) // the engine's move above may have ended it
		}
		s.fail(w, r, status, "%s", err)
		return
	}
	if err := s.plays.reply(r.Context(), sess.match); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, "the engine could not reply: %v", err)
		return
	}
	s.answerPlay(w, http.StatusOK, id, sess)
}

// apiPlayRecord serves a game in play as a record file.
func (s *Server) apiPlayRecord(w http.ResponseWriter, r *http.Request) {
	_, sess, ok := s.session(w, r)
	if !ok {
		return
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	var buf strings.Builder
	if err := sess.match.Record(&buf); err != nil {
		s.fail(w, r, http.StatusInternalServerError, "record: %v", err)
		return
	}
	download(w, "evolved-"+sess.game+"."+recordExt(sess.game), "application/x-chess-pgn; charset=utf-8", []byte(buf.String()))
}

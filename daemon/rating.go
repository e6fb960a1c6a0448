package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"evolved/games"
	"evolved/population"
	"evolved/progress"
	"evolved/rating"
	"evolved/search"
	"evolved/seed"
	"evolved/storage"
)

// ladder returns the ladder game's champions are rated on: the configured
// file, or the built-in one.
func (d *Daemon) ladder(game string) (*rating.Ladder, error) {
	if path, ok := d.config().Jobs.RatingLadders[game]; ok {
		return rating.LoadLadder(path)
	}
	return rating.DefaultLadder(game)
}

// startRating rates a committed generation's champion in the background,
// unless a rating of the game is still running (then this one is skipped:
// ratings are measurements, and the next interval brings another). A
// rating that fails is logged and changes nothing; the evolution goes on
// either way. Ratings share the daemon's game budget (slots) with the
// evolution and play at most half of it at once (at least one game), so
// that the evolution always keeps the other half; Run settles them before
// it returns (finishRatings).
func startRating[M comparable, S search.Game[M]](ctx context.Context, d *Daemon, kind games.Kind[M, S], generation int, agentID int64, runSeed uint64,
	champion func() search.Player[M, S]) {
	game := kind.Name
	log := d.log.With("game", game, "generation", generation)
	state := d.rating(game)
	if next := time.Unix(0, state.notBefore.Load()); time.Now().Before(next) {
		log.Info("rating deferred: ratings keep to jobs.rating_share of the machine", "share", d.config().Jobs.RatingShare,
			"next_after", next.Format(time.DateTime))
		return
	}
	jobs := d.config().Jobs
	ctx, cancel := context.WithCancelCause(ctx)
	job := &ratingJob{log: log, start: time.Now(), total: jobs.RatingGames + jobs.RatingGames%2, cancel: cancel}
	if !state.job.CompareAndSwap(nil, job) {
		cancel(nil)
		log.Info("rating skipped: the previous rating is still running (raise jobs.rating_every or lower jobs.rating_games)")
		return
	}
	workers := d.workers()
	used := ratingWorkers(workers)
	d.ratings.Add(1)
	go func() {
		defer d.ratings.Done()
		defer state.job.Store(nil)
		defer cancel(nil)
		ctx, cancelTime := context.WithTimeout(ctx, time.Duration(jobs.RatingMinutes)*time.Minute)
		defer cancelTime()
		r, err := rateChampion(ctx, d, kind, generation, agentID, runSeed, champion, jobs, used, func(done int) { job.done.Store(int64(done)) })
		took := time.Since(job.start)
		state.notBefore.Store(time.Now().Add(ratingGap(took, used, workers, jobs.RatingShare)).UnixNano())
		secs := round2(took.Seconds())
		games := fmt.Sprintf("%d/%d", job.done.Load(), job.total)
		switch cause := context.Cause(ctx); {
		case err != nil && (errors.Is(cause, errTargetReached) || errors.Is(cause, errRunFailed) || errors.Is(cause, errFinishTooLong)):
			// One line: what stopped it, and the command that rates
			// the champion instead.
			log.Info("rating stopped: "+cause.Error()+"; nothing stored, the rate command rates the champion",
				"games", games, "seconds", secs, "rate", rateCommand(d.config(), game, generation))
		case err != nil && errors.Is(cause, context.DeadlineExceeded):
			log.Error("rating abandoned: over its time budget (jobs.rating_minutes)", "minutes", jobs.RatingMinutes)
		case err != nil && ctx.Err() != nil:
			log.Info("rating stopped: the daemon is stopping; it stored nothing", "games", games, "seconds", secs)
		case err != nil:
			log.Error("rating failed; the next one is due in jobs.rating_every generations", "seconds", secs, "err", err)
		default:
			log.Info("champion rated", "elo", fmt.Sprintf("%.0f±%.0f", r.Elo, r.CI), "scale", r.Scale, "tc", r.TC,
				"games", r.Games, "seconds", secs)
		}
	}()
}

// rateCommand returns the `evolved rate` command that rates game's
// champion of generation as the daemon's rating would have (the same
// database, games, ladder and engine), for a rating the daemon stopped.
func rateCommand(cfg Config, game string, generation int) string {
	args := []string{"evolved", "rate", "--db", shellWord(cfg.DB), "--game", game, "--generation", strconv.Itoa(generation),
		"--games", strconv.Itoa(cfg.Jobs.RatingGames)}
	if path, ok := cfg.Jobs.RatingLadders[game]; ok {
		args = append(args, "--ladder", shellWord(path))
	}
	if cfg.Jobs.RatingEngine != "" {
		args = append(args, "--engine", shellWord(cfg.Jobs.RatingEngine))
	}
	return strings.Join(args, " ")
}

// shellWord quotes s for a POSIX shell when it holds anything but
// letters, digits and the punctuation of ordinary paths, so that a
// command built from it can be pasted as it is.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:=,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ratingWorkers is how many games a rating plays at once with workers
// workers: half, at least one, so that the evolution keeps the rest.
func ratingWorkers(workers int) int { return max(1, workers/2) }

// ratingGap returns how long the next rating waits after one that took
// took, playing used of the workers' games at once, so that ratings take
// at most share of the machine: a rating occupies used/workers of it for
// took, and over took plus the gap that is share.
func ratingGap(took time.Duration, used, workers int, share float64) time.Duration {
	cost := float64(used) / float64(max(workers, used))
	if cost <= share {
		return 0
	}
	return time.Duration(float64(took) * (cost/share - 1))
}

// rateChampion plays the rating, concurrency games at once, and stores it;
// played, if set, is told the games played after each. Only a rating
// whose games are all played is stored: cancelling ctx stores nothing.
func rateChampion[M comparable, S search.Game[M]](ctx context.Context, d *Daemon, kind games.Kind[M, S], generation int, agentID int64, runSeed uint64,
	champion func() search.Player[M, S], jobs JobsConfig, concurrency int, played func(done int)) (storage.Rating, error) {
	game := kind.Name
	ladder, err := d.ladder(game)
	if err != nil {
		return storage.Rating{}, err
	}
	enginePath, err := ladder.FindEngine(jobs.RatingEngine)
	if err != nil {
		return storage.Rating{}, err
	}
	if err := ladder.CheckEngine(ctx, enginePath); err != nil {
		return storage.Rating{}, err
	}
	anchors, err := rating.Opponents(ladder, enginePath, kind.Constructors())
	if err != nil {
		return storage.Rating{}, err
	}
	clock, err := ladder.Clock()
	if err != nil {
		return storage.Rating{}, err
	}
	tc := rating.TCName(ladder.TC)
	var rep *progress.Reporter
	if d.line != nil {
		key := game + " rating"
		rep = progress.NewOnLine(d.line, key, fmt.Sprintf("%s rating of generation %d", game, generation), jobs.RatingGames+jobs.RatingGames%2, "games")
		defer d.line.Remove(key)
	}
	ratingSeed := seed.Derive(runSeed, game, generation, seed.Rating, 0)
	res, err := rating.Rate(ctx, kind.Arena(games.Setup{MaxMoves: ladder.MoveLimit(), OpeningPlies: ladder.Plies()}), champion, anchors, rating.Options{
		Games: jobs.RatingGames, Concurrency: concurrency, Seed: ratingSeed, Clock: clock, Slots: d.slots,
		Progress: func(done, _ int, last rating.Rated, valid bool) {
			d.beat()
			if played != nil {
				played(done)
			}
			if rep != nil && valid {
				rep.UpdateNote(done, fmt.Sprintf("Elo %.0f ± %.0f", last.Elo, last.HalfWidth))
			} else if rep != nil {
				rep.Update(done)
			}
		},
	})
	if err != nil {
		return storage.Rating{}, err
	}
	row := storage.Rating{Game: game, Generation: generation, AgentID: agentID, Scale: ladder.Scale, TC: tc,
		Elo: res.Rating.Elo, CI: res.Rating.HalfWidth, Games: res.Rating.Games, Seed: ratingSeed,
		Seconds: res.Elapsed.Seconds(), CreatedAt: time.Now()}
	for _, a := range res.Anchors {
		row.Wins, row.Draws, row.Losses = row.Wins+a.Wins, row.Draws+a.Draws, row.Losses+a.Losses
	}
	// The games are played: store the rating even if a stop arrived since.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err := d.db.AddRating(wctx, row); err != nil {
		return storage.Rating{}, err
	}
	return row, nil
}

// redoRating starts, when the daemon resumes a run, the rating that a stop
// or a kill interrupted: the latest rating generation (a multiple of
// jobs.rating_every) already played, if its champion has no rating yet.
// Older missing ratings stay missing: they were measurements, not state.
func redoRating[M comparable, S search.Game[M]](ctx context.Context, d *Daemon, kind games.Kind[M, S], bound games.Binding[M, S],
	st *population.State) {
	every := d.config().Jobs.RatingEvery
	if every <= 0 || st.Generation == 0 {
		return
	}
	g := (st.Generation - 1) / every * every
	log := d.log.With("game", kind.Name, "generation", g)
	rated, err := d.db.Ratings(ctx, kind.Name)
	if err != nil {
		log.Warn("could not read the ratings to redo an interrupted one", "err", err)
		return
	}
	// The share of the machine holds across restarts: the wait after the
	// latest stored rating is taken up where it was (a due rating inside
	// it was deferred, not interrupted, and stays undone).
	var latest storage.Rating
	for _, r := range rated {
		if r.Generation == g {
			return
		}
		if r.CreatedAt.After(latest.CreatedAt) {
			latest = r
		}
	}
	if !latest.CreatedAt.IsZero() {
		workers := d.workers()
		wait := ratingGap(time.Duration(latest.Seconds*float64(time.Second)), ratingWorkers(workers), workers, d.config().Jobs.RatingShare)
		if next := latest.CreatedAt.Add(wait); time.Now().Before(next) {
			d.rating(kind.Name).notBefore.Store(next.UnixNano())
			return
		}
	}
	c, err := d.db.Champion(ctx, kind.Name, g)
	if err != nil {
		log.Warn("could not read the champion whose rating was interrupted", "err", err)
		return
	}
	champion, err := bound.Player(c.Net)
	if err != nil {
		log.Warn("could not make the champion whose rating was interrupted", "err", err)
		return
	}
	log.Info("redoing the rating a stop interrupted")
	startRating(d.ratingCtx, d, kind, g, c.AgentID, st.Seed, champion)
}

// ratingFinish is the most a run that reached its generation target waits
// for a rating still running, and only for one whose pace says it ends
// within that time: every other is stopped at once, since a chess rating
// at 10+0.1 takes half an hour that a finished `run --generations N` must
// not sit through, and a rating is a measurement, not part of the run.
const ratingFinish = 10 * time.Second

// Causes of a rating's stop besides a stop signal, which the rating's log
// line names.
var (
	errTargetReached = errors.New("the run reached its generation target")
	errRunFailed     = errors.New("the run stopped on an error")
	errFinishTooLong = errors.New("the run reached its generation target and the rating outlasted the wait for it")
)

// finishRatings settles the ratings still running when Run ends, end being
// why: a stop signal has already stopped them through ratingCtx; at the
// generation target, a rating that at its pace ends within ratingFinish is
// waited for, at most that long, and every other is stopped at once (so is
// every rating when the run failed). Each rating logs one line saying
// which, and a stopped one stores nothing. finishRatings returns once
// every rating has returned, then releases ratingCtx with stop.
func (d *Daemon) finishRatings(stop context.CancelCauseFunc, end error) {
	waiting := false
	d.busy.Range(func(_, v any) bool {
		job := v.(*ratingState).job.Load()
		if job == nil {
			return true
		}
		done, elapsed := int(job.done.Load()), time.Since(job.start)
		if errors.Is(end, errTargetReached) && nearlyDone(done, job.total, elapsed, d.ratingFinish) {
			job.log.Info("finishing the rating: the run reached its generation target and the rating's pace says it ends within the wait",
				"games", fmt.Sprintf("%d/%d", done, job.total), "seconds", round2(elapsed.Seconds()), "wait", d.ratingFinish.String())
			waiting = true
		} else {
			job.cancel(end)
		}
		return true
	})
	done := make(chan struct{})
	go func() {
		d.ratings.Wait()
		close(done)
	}()
	if waiting {
		timer := time.NewTimer(d.ratingFinish)
		select {
		case <-done:
		case <-timer.C:
			d.busy.Range(func(_, v any) bool {
				if job := v.(*ratingState).job.Load(); job != nil {
					job.cancel(errFinishTooLong)
				}
				return true
			})
		}
		timer.Stop()
	}
	<-done
	stop(end)
}

// nearlyDone reports whether a rating that has played done of its total
// games in elapsed ends within wait at that pace. With no game played it
// has no pace, and is not nearly done.
func nearlyDone(done, total int, elapsed, wait time.Duration) bool {
	if done <= 0 {
		return false
	}
	if done >= total {
		return true
	}
	return float64(elapsed)*float64(total-done)/float64(done) <= float64(wait)
}

// ratingState is where a game's ratings stand: the one running, and the
// time before which the next may not start (jobs.rating_share).
type ratingState struct {
	job       atomic.Pointer[ratingJob] // nil: none running
	notBefore atomic.Int64              // Unix nanoseconds
}

// ratingJob is a rating under way, as finishRatings needs it.
type ratingJob struct {
	log    *slog.Logger // names the game and the generation
	start  time.Time
	total  int          // the games it plays
	done   atomic.Int64 // the games played so far
	cancel context.CancelCauseFunc
}

// rating returns where game's ratings stand.
func (d *Daemon) rating(game string) *ratingState {
	v, _ := d.busy.LoadOrStore(game, new(ratingState))
	return v.(*ratingState)
}

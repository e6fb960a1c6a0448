// Package metrics defines evolved's Prometheus metrics: what the database
// shows of every run, collected when Prometheus scrapes, and what a
// running daemon measures as it goes. The web server serves both at
// /metrics.
package metrics

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"evolved/storage"
)

// workerWindow is how recently a worker must have sent a result to count
// as connected.
const workerWindow = 5 * time.Minute

// scrapeTimeout bounds the database queries of one scrape.
const scrapeTimeout = 10 * time.Second

// DatabaseCollector reads the figures of every run from the database at
// each scrape, so they are right whichever process evolves the runs. It is
// safe for concurrent use.
type DatabaseCollector struct {
	db  *storage.DB
	log *slog.Logger

	generations, games, lastImprovement, gensPerHour *prometheus.Desc
	rating, ratingCI                                 *prometheus.Desc
	dbBytes, walBytes, freeBytes                     *prometheus.Desc
	workers, workerGames                             *prometheus.Desc
	up                                               *prometheus.Desc
}

// NewDatabaseCollector returns the collector of db's figures; failures to
// read are logged on log and reported as evolved_database_up 0.
func NewDatabaseCollector(db *storage.DB, log *slog.Logger) *DatabaseCollector {
	game := []string{"game"}
	return &DatabaseCollector{db: db, log: log,
		generations: prometheus.NewDesc("evolved_generations", "Generations played by the game's run.", game, nil),
		games: prometheus.NewDesc("evolved_games_total",
			"Tournament games played by the game's run (their rate: rate(evolved_games_total[5m])).", game, nil),
		lastImprovement: prometheus.NewDesc("evolved_last_improvement_generation",
			"The last generation whose champion improved on the ladder, -1 if none.", game, nil),
		gensPerHour: prometheus.NewDesc("evolved_generations_per_hour",
			"Generations per hour over the run's last 20 generations.", game, nil),
		rating: prometheus.NewDesc("evolved_rating_elo",
			"The latest rated champion's rating on its calibrated scale.", []string{"game", "scale", "tc", "generation"}, nil),
		ratingCI: prometheus.NewDesc("evolved_rating_ci_elo",
			"The half-width of the 95% interval of the latest rating.", []string{"game", "scale", "tc", "generation"}, nil),
		dbBytes:   prometheus.NewDesc("evolved_database_bytes", "The database file's size.", nil, nil),
		walBytes:  prometheus.NewDesc("evolved_database_wal_bytes", "The database's write-ahead log's size.", nil, nil),
		freeBytes: prometheus.NewDesc("evolved_database_free_bytes", "Free pages in the database file, which new data reuses.", nil, nil),
		workers: prometheus.NewDesc("evolved_workers_connected",
			"Workers that sent a counted result in the last 5 minutes, as the daemon last recorded them.", nil, nil),
		workerGames: prometheus.NewDesc("evolved_worker_games_total", "Games a worker played that counted.", []string{"worker"}, nil),
		up:          prometheus.NewDesc("evolved_database_up", "1 if the last scrape read the database, 0 if it failed.", nil, nil),
	}
}

// Describe sends the collector's descriptions.
func (c *DatabaseCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.generations, c.games, c.lastImprovement, c.gensPerHour, c.rating, c.ratingCI,
		c.dbBytes, c.walBytes, c.freeBytes, c.workers, c.workerGames, c.up} {
		ch <- d
	}
}

// Collect reads the database and sends the metrics.
func (c *DatabaseCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	up := 1.0
	if err := c.collect(ctx, ch, time.Now()); err != nil {
		c.log.Warn("metrics: could not read the database", "err", err)
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, up)
}

func (c *DatabaseCollector) collect(ctx context.Context, ch chan<- prometheus.Metric, now time.Time) error {
	status, err := c.db.Status(ctx)
	if err != nil {
		return err
	}
	for _, s := range status {
		ch <- prometheus.MustNewConstMetric(c.generations, prometheus.GaugeValue, float64(s.Generation), s.Game)
		ch <- prometheus.MustNewConstMetric(c.games, prometheus.CounterValue, float64(s.Games), s.Game)
		ch <- prometheus.MustNewConstMetric(c.lastImprovement, prometheus.GaugeValue, float64(s.LastImprovement), s.Game)
		ch <- prometheus.MustNewConstMetric(c.gensPerHour, prometheus.GaugeValue, s.GensPerHour, s.Game)
		r, ok, err := c.db.LatestRating(ctx, s.Game)
		if err != nil {
			return err
		}
		if ok {
			labels := []string{s.Game, r.Scale, r.TC, itoa(r.Generation)}
			ch <- prometheus.MustNewConstMetric(c.rating, prometheus.GaugeValue, r.Elo, labels...)
			ch <- prometheus.MustNewConstMetric(c.ratingCI, prometheus.GaugeValue, r.CI, labels...)
		}
	}
	size, err := c.db.Size(ctx)
	if err != nil {
		return err
	}
	ch <- prometheus.MustNewConstMetric(c.dbBytes, prometheus.GaugeValue, float64(size.Bytes))
	ch <- prometheus.MustNewConstMetric(c.walBytes, prometheus.GaugeValue, float64(size.WAL))
	ch <- prometheus.MustNewConstMetric(c.freeBytes, prometheus.GaugeValue, float64(size.Free))
	workers, err := c.db.Workers(ctx)
	if err != nil {
		return err
	}
	connected := 0
	for _, w := range workers {
		if now.Sub(w.LastSeen) <= workerWindow {
			connected++
		}
		ch <- prometheus.MustNewConstMetric(c.workerGames, prometheus.CounterValue, float64(w.Games), w.Name)
	}
	ch <- prometheus.MustNewConstMetric(c.workers, prometheus.GaugeValue, float64(connected))
	return nil
}

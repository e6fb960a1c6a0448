package metrics

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

// Daemon holds what a running daemon measures as it evolves: how long
// checkpoints and generations take and how many search nodes it spends.
// Its fields are safe for concurrent use. Figures of the database itself
// come from DatabaseCollector.
type Daemon struct {
	// Checkpoint observes the seconds each generation's commit took, by
	// game.
	Checkpoint *prometheus.HistogramVec
	// Generation observes the seconds each generation took to play, by
	// game.
	Generation *prometheus.HistogramVec
	// Nodes counts the search nodes this process's players searched, by
	// game; rate(evolved_search_nodes_total[1m]) is the nodes per second.
	Nodes *prometheus.CounterVec
}

// NewDaemon returns a daemon's metrics, not yet registered: Collectors
// lists them for a registry.
func NewDaemon() *Daemon {
	return &Daemon{
		Checkpoint: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "evolved_checkpoint_seconds",
			Help:    "Seconds a generation's checkpoint (its one database transaction) took.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16), // 1 ms to 33 s
		}, []string{"game"}),
		Generation: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "evolved_generation_seconds",
			Help:    "Seconds a generation took to play, its ladder and baselines included.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 16), // 50 ms to 27 min
		}, []string{"game"}),
		Nodes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evolved_search_nodes_total",
			Help: "Search nodes the players of this process searched.",
		}, []string{"game"}),
	}
}

// Collectors returns the metrics to register.
func (d *Daemon) Collectors() []prometheus.Collector {
	return []prometheus.Collector{d.Checkpoint, d.Generation, d.Nodes}
}

func itoa(n int) string { return strconv.Itoa(n) }

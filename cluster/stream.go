package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Limits are the JetStream settings of the streams and of the workers'
// consumer. The zero value takes the defaults.
type Limits struct {
	// AckWait is how long a job may go without an acknowledgement or a
	// heartbeat before JetStream hands it to another worker; default 30 s.
	AckWait time.Duration
	// MaxAckPending bounds the jobs handed out and not yet acknowledged,
	// over all workers; default 4096.
	MaxAckPending int
	// ResultsMaxAge is how long results are kept, ResultsMaxBytes how
	// much of them (the oldest go first); defaults 1 hour and 256 MiB.
	// They are needed only until their generation is committed (and by a
	// coordinator resuming mid-generation); a fast run with many workers
	// writes hundreds of megabytes of them an hour.
	ResultsMaxAge   time.Duration
	ResultsMaxBytes int64
	// GenomeTTL is how long a net stays in the genome bucket; default 20
	// minutes. The coordinator stores a net again when it is older than
	// half of it, so a net in play is always there.
	GenomeTTL time.Duration
	// Replicas is the streams' replication in a clustered NATS; default 1.
	Replicas int
}

func (l Limits) withDefaults() Limits {
	if l.AckWait <= 0 {
		l.AckWait = 30 * time.Second
	}
	if l.MaxAckPending <= 0 {
		l.MaxAckPending = 4096
	}
	if l.ResultsMaxAge <= 0 {
		l.ResultsMaxAge = time.Hour
	}
	if l.ResultsMaxBytes <= 0 {
		l.ResultsMaxBytes = 256 << 20
	}
	if l.GenomeTTL <= 0 {
		l.GenomeTTL = 20 * time.Minute
	}
	if l.Replicas <= 0 {
		l.Replicas = 1
	}
	return l
}

// duplicates is the window in which JetStream drops a message whose ID it
// has seen: a job published again by a coordinator that resumed, a
// result published twice.
const duplicates = 10 * time.Minute

// ensure creates the streams, the workers' consumer and the genome
// bucket, or updates them to these limits, and returns the consumer and
// the bucket.
func ensure(ctx context.Context, js jetstream.JetStream, l Limits) (jetstream.Consumer, jetstream.ObjectStore, error) {
	l = l.withDefaults()
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: JobsStream, Description: "evolved: games to play",
		Subjects: []string{JobsSubject + ".>"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Replicas: l.Replicas, Duplicates: duplicates,
	}); err != nil {
		return nil, nil, fmt.Errorf("stream %s: %w", JobsStream, err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: ResultsStream, Description: "evolved: played games",
		Subjects: []string{ResultsSubject + ".>"}, Retention: jetstream.LimitsPolicy,
		Storage: jetstream.FileStorage, Replicas: l.Replicas, MaxAge: l.ResultsMaxAge, MaxBytes: l.ResultsMaxBytes,
		Discard: jetstream.DiscardOld, Duplicates: duplicates,
	}); err != nil {
		return nil, nil, fmt.Errorf("stream %s: %w", ResultsStream, err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{
		Durable: WorkersConsumer, Description: "evolved workers",
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: l.AckWait, MaxAckPending: l.MaxAckPending,
		MaxDeliver: -1, FilterSubject: JobsSubject + ".>",
	})
	if err != nil {
		return nil, nil, fmt.Errorf("consumer %s: %w", WorkersConsumer, err)
	}
	store, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: GenomeBucket, Description: "evolved: nets by SHA-256",
		Storage: jetstream.FileStorage, Replicas: l.Replicas, TTL: l.GenomeTTL,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("object store %s: %w", GenomeBucket, err)
	}
	return cons, store, nil
}

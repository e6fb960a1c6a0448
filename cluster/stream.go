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
	// ResultsMaxAge is how long results are kept; default 24 hours.
	ResultsMaxAge time.Duration
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
		l.ResultsMaxAge = 24 * time.Hour
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
		Storage: jetstream.FileStorage, Replicas: l.Replicas, MaxAge: l.ResultsMaxAge, Duplicates: duplicates,
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
		Storage: jetstream.FileStorage, Replicas: l.Replicas, TTL: l.ResultsMaxAge,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("object store %s: %w", GenomeBucket, err)
	}
	return cons, store, nil
}

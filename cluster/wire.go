package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"evolved/game"
	"evolved/nnet"
	"evolved/tournament"
)

// ProtocolVersion is the version of the jobs and results this build
// speaks; a job or result of any other version is refused. It counts the
// games as well as the messages: version 2 came when the evaluators moved
// to int32 columns and a float32 head (package nnet), which changed the
// games nets play, so that a worker of an older build is refused by name
// instead of failing its replays; version 3 added the distillation's
// search jobs (SearchJob), which a worker of version 2 would take for
// games; version 4 sends jobs and results in a binary form (codec.go)
// instead of JSON. A worker of version 3 fails to decode a job of
// version 4 at its first byte and drops it as malformed, saying so in
// its log; a job or result of version 3 (JSON) that reaches this build is
// read as far as its version, and refused naming it. Version 5 added the
// data games' jobs (DataJob), which a worker of version 4 would take for
// games, and the result's Scores, the searches' scores of a data game,
// which its results lack.
const ProtocolVersion = 5

// SearchJob is the Kind of a job of a distillation's searches: the
// values of Positions, each searched with the net Genome under Nodes
// nodes. A job of Kind "" is a game.
const SearchJob = "search"

// DataJob is the Kind of a job of a data game (games.DataGames): one net
// (both Genomes) plays itself in the data arena (games.Binding.DataArena)
// under Setup, and the result carries the game and its searches' scores
// (Result.Scores), from which the coordinator makes the game's position
// records (games.Binding.DataRecords).
const DataJob = "data"

// SearchBatch is the number of positions in a search job. A job costs
// about 0.5 ms of CPU beyond its searches (its JSON, the server's round
// trips, the checks; measured in protocol version 3 with 1-node searches,
// 3,000 jobs of 4 positions against the same searches here), and a 1,500-node search of
// the default chess net about 1 ms (BenchmarkDistillation, on a shared
// 2-core machine), so a job of 128 positions spends some 0.4% of its time
// on the queue, and the coordinator, which searches one position of each
// job again (pick), 0.8% of the workers' search time; a generation's
// 13,000-17,000 positions are still 100-130 jobs, enough to keep a
// hundred workers busy.
const SearchBatch = 128

// The JetStream names both sides use.
const (
	// JobsStream is the work-queue stream of jobs, on subjects
	// JobsSubject.<game>.
	JobsStream  = "EVOLVED_JOBS"
	JobsSubject = "evolved.jobs"
	// ResultsStream holds results, on subjects
	// ResultsSubject.<game>.<run seed>.<generation> (games),
	// ResultsSubject.<game>.<run seed>.<generation>.data (data games) and
	// ResultsSubject.<game>.<run seed>.<generation>.distill (searches).
	ResultsStream  = "EVOLVED_RESULTS"
	ResultsSubject = "evolved.results"
	// WorkersConsumer is the durable pull consumer every worker shares.
	WorkersConsumer = "workers"
	// GenomeBucket is the object store of nets, named by GenomeHash.
	GenomeBucket = "evolved-genomes"
)

// ErrProtocol is wrapped by the errors about a job or result that cannot
// be taken: another protocol version, a malformed message.
var ErrProtocol = errors.New("cluster protocol")

// Job is one game of a generation's tournament to play, with Kind DataJob
// one of its data games, or with Kind SearchJob a batch of a
// distillation's searches. It travels in its
// binary form (MarshalBinary); the JSON names are version 3's, which
// UnmarshalBinary reads the version of.
type Job struct {
	Version int `json:"v"`
	// ID names the game, game/seed/generation/index/digest, the data
	// game, game/seed/generation/data/index/digest, or the searches,
	// game/seed/generation/distill/batch/digest.
	ID string `json:"id"`
	// Kind is "" for a game, DataJob for a data game, SearchJob for
	// searches.
	Kind string `json:"kind,omitempty"`
	// Attempt counts the times the coordinator has published the job
	// (from 0): a job is published again when a result was refused.
	Attempt int    `json:"attempt"`
	Game    string `json:"game"`
	// Setup is the game's setup as JSON (games.Setup): search depth and
	// budget, move limit, opening plies, adjudication, Chess960.
	Setup      json.RawMessage `json:"setup"`
	RunSeed    uint64          `json:"seed"`
	Generation int             `json:"generation"`
	Index      int             `json:"index"`
	// First and Second are the pairing's slots, OpeningIndex its
	// opening; Genomes the GenomeHash of the nets of First and Second (of
	// a data game, the one net's twice).
	First        int       `json:"first"`
	Second       int       `json:"second"`
	OpeningIndex int       `json:"opening"`
	Genomes      [2]string `json:"genomes"`
	// Positions are a search job's positions, as FENs of the game;
	// Nodes is each search's node budget and Genome the GenomeHash of
	// the net that searches.
	Positions []string `json:"positions,omitempty"`
	Nodes     int64    `json:"nodes,omitempty"`
	Genome    string   `json:"genome,omitempty"`
	// Reply is the subject the result goes to.
	Reply string `json:"reply"`
}

// GameID returns the tournament game the job is.
func (j *Job) GameID() tournament.GameID {
	return tournament.GameID{RunSeed: j.RunSeed, Generation: j.Generation, Index: j.Index,
		Pairing: tournament.Pairing{First: j.First, Second: j.Second, OpeningIndex: j.OpeningIndex}}
}

// check validates a job's fields.
func (j *Job) check() error {
	switch {
	case j.Version != ProtocolVersion:
		return fmt.Errorf("%w: job %s speaks version %d, this build %d", ErrProtocol, j.ID, j.Version, ProtocolVersion)
	case j.ID == "" || j.Reply == "":
		return fmt.Errorf("%w: job %q lacks its id or reply subject", ErrProtocol, j.ID)
	}
	switch j.Kind {
	case "", DataJob:
		switch {
		case j.Index < 0 || j.First < 0 || j.Second < 0 || j.OpeningIndex < 0:
			return fmt.Errorf("%w: job %q lacks a valid pairing", ErrProtocol, j.ID)
		case !isHash(j.Genomes[0]) || !isHash(j.Genomes[1]):
			return fmt.Errorf("%w: job %s: genome hashes %q, want 64 hex digits each", ErrProtocol, j.ID, j.Genomes)
		case j.Kind == DataJob && j.Genomes[0] != j.Genomes[1]:
			return fmt.Errorf("%w: data job %s: two nets, %s and %s; a data game is one net's", ErrProtocol, j.ID, j.Genomes[0], j.Genomes[1])
		}
	case SearchJob:
		switch {
		case len(j.Positions) == 0 || j.Nodes <= 0:
			return fmt.Errorf("%w: search job %s has %d positions and a budget of %d nodes", ErrProtocol, j.ID, len(j.Positions), j.Nodes)
		case !isHash(j.Genome):
			return fmt.Errorf("%w: search job %s: genome hash %q, want 64 hex digits", ErrProtocol, j.ID, j.Genome)
		}
	default:
		return fmt.Errorf("%w: job %s is of kind %q, which this build does not know", ErrProtocol, j.ID, j.Kind)
	}
	return nil
}

// Result is a worker's answer to a job: the game it played, or why it
// could not. It travels in its binary form (MarshalBinary); the JSON
// names are version 3's, which UnmarshalBinary reads the version of.
type Result struct {
	Version int    `json:"v"`
	ID      string `json:"id"`
	Attempt int    `json:"attempt"`
	// Worker names the worker, for the logs.
	Worker string `json:"worker"`
	// Start, Moves (the games' move codes), Opening and the outcome are
	// the tournament.Record of the game.
	Start   string      `json:"start,omitempty"`
	Moves   []uint64    `json:"moves"`
	Opening int         `json:"opening"`
	Result  game.Result `json:"result"`
	Reason  game.Reason `json:"reason"`
	// Values are a search job's values, one a position in the job's
	// order (games.FENScorer's: pawns, or a draughts net's units).
	Values []float64 `json:"values,omitempty"`
	// Scores are a data game's searches' scores, one a move after the
	// opening, in order (games.Binding.PlayDataGame's, clamped to int32).
	Scores []int32 `json:"scores,omitempty"`
	// Error, if not empty, says why the worker could not play the job.
	Error string `json:"error,omitempty"`
}

// jobID returns the ID of game index of a generation.
func jobID(gameName string, seed uint64, generation, index int) string {
	return gameName + "/" + strconv.FormatUint(seed, 10) + "/" + strconv.Itoa(generation) + "/" + strconv.Itoa(index)
}

// searchJobID returns the ID of search batch batch of a generation's
// distillation: apart from every game's ID of the generation by the word
// distill where a game's index stands.
func searchJobID(gameName string, seed uint64, generation, batch int) string {
	return gameName + "/" + strconv.FormatUint(seed, 10) + "/" + strconv.Itoa(generation) + "/distill/" + strconv.Itoa(batch)
}

// dataJobID returns the ID of data game index of a generation: apart from
// every game's and search job's ID of the generation by the word data
// where a game's index stands.
func dataJobID(gameName string, seed uint64, generation, index int) string {
	return gameName + "/" + strconv.FormatUint(seed, 10) + "/" + strconv.Itoa(generation) + "/data/" + strconv.Itoa(index)
}

// jobSubject returns the subject of a game's jobs.
func jobSubject(gameName string) string { return JobsSubject + "." + gameName }

// resultSubject returns the subject of a generation's results.
func resultSubject(gameName string, seed uint64, generation int) string {
	return ResultsSubject + "." + gameName + "." + strconv.FormatUint(seed, 10) + "." + strconv.Itoa(generation)
}

// searchSubject returns the subject of the results of a generation's
// distillation, beside (not under the filter of) its games' subject.
func searchSubject(gameName string, seed uint64, generation int) string {
	return resultSubject(gameName, seed, generation) + ".distill"
}

// dataSubject returns the subject of the results of a generation's data
// games, beside its games' and its distillation's subjects.
func dataSubject(gameName string, seed uint64, generation int) string {
	return resultSubject(gameName, seed, generation) + ".data"
}

// GenomeHash returns the name of a net in GenomeBucket: the SHA-256 of
// its binary form, in hex.
func GenomeHash(n *nnet.Net) (string, []byte, error) {
	data, err := n.MarshalBinary()
	if err != nil {
		return "", nil, fmt.Errorf("genome hash: %w", err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), data, nil
}

// isHash reports whether s is a GenomeHash.
func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

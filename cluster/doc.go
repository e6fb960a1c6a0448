// Package cluster plays a generation's tournament and its data games, and
// runs its distillation's searches, on worker processes through NATS
// JetStream, so that a run can use the cores of more than one machine.
//
// The coordinator (the daemon) stores every net of the generation once,
// by the SHA-256 of its binary form, in the object store GenomeBucket,
// and publishes one Job per scheduled game to the work-queue stream
// JobsStream. A job is everything that decides its game besides the code:
// the game and its setup (depth, node budget, move limit, openings), the
// run seed, the generation, the game's place in the schedule and its
// pairing, and the two nets' hashes; playing it is a pure function of its
// content (tournament.Arena.PlayScheduled), so a job played twice, or by
// any worker, is the same game, and a generation played by workers is
// bit-identical to the same generation played locally.
//
// Workers share one durable pull consumer of the jobs (JetStream hands each
// job to one of them at a time), fetch the nets they do not have, play the
// game with the local tournament's code, publish a Result to the job's
// reply subject in ResultsStream and only then acknowledge the job: a
// worker killed mid-game never acknowledges it, and JetStream gives the
// job to another worker once AckWait has passed. A worker playing a long
// game tells JetStream it is still at work every AckWait/3, so that a slow
// game is not handed out twice; MaxAckPending bounds the jobs in flight.
//
// The coordinator trusts nothing a worker returns: it counts a result
// only once per game, only if it speaks this ProtocolVersion, and only if
// the record is a game of its job played by the rules (the seeded start
// and opening, every move legal, the stated outcome where the game ends:
// tournament.Arena.Verify); any other result is logged with the worker's
// name and the job is published again. It reads the results of a
// generation from the start of their subject, so a coordinator that
// resumes after a crash counts the games already played and plays none
// twice.
//
// A learning run's data games go the same way (PlayData): jobs of kind
// DataJob, one a game, with the champion's hash for both sides; a worker
// plays the game with games.Binding.PlayDataGame and returns its moves
// and its searches' scores (Result.Scores). The coordinator checks the
// game by the rules in the data arena and the count of scores, replays
// about one in Replay and refuses a result whose moves, outcome or scores
// differ, and makes the records with games.Binding.DataRecords: the
// records local data games give, by construction.
//
// A distillation's searches go the same way (Search): jobs of kind
// SearchJob, each SearchBatch positions of the generation's games as FENs,
// the champion's hash and the node budget; a worker searches them with the
// game's distillation search (games.Kind.Scorer), the one the local fit
// runs, and returns one value a position. The coordinator counts a result
// only in this protocol version, with one finite value a position, and
// once it has searched one position of the job again itself, drawn by a
// hash the workers cannot compute, and found the same value to the bit.
// Games, data games and searches share one loop (collect): delivery,
// refusals, stragglers, resumption and recreated streams work the same
// for all three.
//
// Jobs and results travel in a binary form (Job.MarshalBinary,
// Result.MarshalBinary) whose first bytes every version keeps: the
// version, the ID, the attempt and a result's worker, so that a message
// of another version, or of version 3's JSON, is refused naming it.
package cluster

package storage

// applicationID marks an SQLite file as an evolved database ("EVOL").
const applicationID = 0x45564F4C

// migrations are the schema changes in order; migration i (1-based) takes
// the schema from user_version i-1 to i. Never edit one that has shipped:
// append a new one. Open applies the missing ones, each in its own
// transaction, and refuses a database newer than the last one here.
var migrations = []string{
	// 1: the first schema.
	`
CREATE TABLE runs (
	game       TEXT PRIMARY KEY,
	seed       INTEGER NOT NULL,
	config     TEXT NOT NULL,            -- JSON: everything that determines the run
	created_at TEXT NOT NULL
);

-- One row per genome: an elite keeps its agent_id, and its genome, from
-- generation to generation.
CREATE TABLE genomes (
	game       TEXT NOT NULL REFERENCES runs(game),
	agent_id   INTEGER NOT NULL,
	born       INTEGER NOT NULL,          -- the generation it first belongs to
	origin     TEXT NOT NULL CHECK (origin IN ('random', 'crossover', 'mutation')),
	parents    TEXT NOT NULL,             -- JSON array of agent ids
	node       TEXT,                      -- the swapped node of a crossover child
	genome     BLOB NOT NULL,             -- nnet binary format (versioned, CRC-checked)
	PRIMARY KEY (game, agent_id)
);

-- The population of each generation. Points and rank are NULL until the
-- generation has been played.
CREATE TABLE members (
	game       TEXT NOT NULL REFERENCES runs(game),
	generation INTEGER NOT NULL,
	slot       INTEGER NOT NULL,
	agent_id   INTEGER NOT NULL,
	origin     TEXT NOT NULL CHECK (origin IN ('random', 'elite', 'crossover', 'mutation')),
	points     INTEGER,
	wins       INTEGER,
	draws      INTEGER,
	losses     INTEGER,
	rank       INTEGER,
	PRIMARY KEY (game, generation, slot),
	FOREIGN KEY (game, agent_id) REFERENCES genomes(game, agent_id)
);

-- A played generation.
CREATE TABLE generations (
	game         TEXT NOT NULL REFERENCES runs(game),
	generation   INTEGER NOT NULL,
	games        INTEGER NOT NULL,
	draws        INTEGER NOT NULL,
	mean_fitness REAL NOT NULL,
	best_fitness INTEGER NOT NULL,
	champion_id  INTEGER NOT NULL,
	ladder_mean  REAL NOT NULL,
	improved     INTEGER NOT NULL,
	seconds      REAL NOT NULL,
	created_at   TEXT NOT NULL,
	PRIMARY KEY (game, generation),
	FOREIGN KEY (game, champion_id) REFERENCES genomes(game, agent_id)
);

-- Every game: tournament, ladder and baseline games.
CREATE TABLE games (
	game       TEXT NOT NULL,
	generation INTEGER NOT NULL,
	kind       TEXT NOT NULL CHECK (kind IN ('tournament', 'ladder', 'baseline')),
	idx        INTEGER NOT NULL,
	first      TEXT NOT NULL,             -- agent id, or a player spec
	second     TEXT NOT NULL,
	opening    INTEGER NOT NULL,          -- random plies at the start of moves
	result     TEXT NOT NULL,             -- '1-0' first won, '0-1' second won, '1/2-1/2'
	reason     TEXT NOT NULL,
	moves      TEXT NOT NULL,             -- the game's own move text (PDN, PGN)
	champion   INTEGER NOT NULL DEFAULT 0, -- 1 when the generation's champion played
	PRIMARY KEY (game, generation, kind, idx),
	FOREIGN KEY (game, generation) REFERENCES generations(game, generation)
);

CREATE TABLE ladder (
	game                TEXT NOT NULL,
	generation          INTEGER NOT NULL,
	opponent_generation INTEGER NOT NULL,
	wins                INTEGER NOT NULL,
	draws               INTEGER NOT NULL,
	losses              INTEGER NOT NULL,
	mean                REAL NOT NULL,
	PRIMARY KEY (game, generation, opponent_generation),
	FOREIGN KEY (game, generation) REFERENCES generations(game, generation)
);

CREATE TABLE baselines (
	game       TEXT NOT NULL,
	generation INTEGER NOT NULL,
	opponent   TEXT NOT NULL,
	wins       INTEGER NOT NULL,
	draws      INTEGER NOT NULL,
	losses     INTEGER NOT NULL,
	score      REAL NOT NULL,
	elo        REAL NOT NULL,
	elo_ci     REAL NOT NULL,
	PRIMARY KEY (game, generation, opponent),
	FOREIGN KEY (game, generation) REFERENCES generations(game, generation)
);

-- The public interface for sqlite3 users (docs/daemon.md).
CREATE VIEW champion_history AS
	SELECT game, generation, champion_id AS agent_id, best_fitness AS fitness,
	       improved, created_at
	FROM generations;

CREATE VIEW generation_summary AS
	SELECT game, generation, games, draws, mean_fitness, best_fitness, seconds, created_at
	FROM generations;
`,
	// 2: games may start from a position of their own (Chess960).
	`
ALTER TABLE games ADD COLUMN start TEXT NOT NULL DEFAULT ''; -- a FEN, or '' for the standard start
`,
	// 3: the chess lab's runs (evolved meta): parameters, per-iteration
	// costs, the best line and the learned table.
	`
CREATE TABLE meta_runs (
	id          INTEGER PRIMARY KEY,
	method      TEXT NOT NULL CHECK (method IN ('aco', 'ga', 'sa')),
	opponent    TEXT NOT NULL,          -- the opponent's player spec
	start       TEXT NOT NULL,          -- FEN of the position the learner starts from
	params      TEXT NOT NULL,          -- JSON: every setting of the run
	seed        INTEGER NOT NULL,
	created_at  TEXT NOT NULL,
	finished_at TEXT,                   -- NULL while running, or if the run was stopped
	seconds     REAL,
	iterations  INTEGER NOT NULL DEFAULT 0, -- iterations stored so far
	best_cost   REAL,
	best_pgn    TEXT,                   -- the best game found, as PGN
	learned     TEXT                    -- the learned table in the pheromone file format
);

CREATE TABLE meta_iterations (
	run_id    INTEGER NOT NULL REFERENCES meta_runs(id),
	iteration INTEGER NOT NULL,
	best_cost REAL NOT NULL,            -- the best cost found so far
	mean_cost REAL NOT NULL,            -- the mean cost of this iteration's games
	wins      INTEGER NOT NULL,         -- this iteration's games the learner won
	games     INTEGER NOT NULL,
	seconds   REAL NOT NULL,            -- since the run started
	PRIMARY KEY (run_id, iteration)
);

-- The public interface for sqlite3 users.
CREATE VIEW meta_summary AS
	SELECT id, method, opponent, start, seed, iterations, best_cost, seconds, created_at, finished_at
	FROM meta_runs;
`,
	// 4: retention. A genome's blob may be dropped (NULL) while its row
	// keeps the lineage; the indexes find what retention may drop without
	// scanning every generation; each generation records the database's
	// size for the growth rate; baselines get a public view. The genomes
	// table is rebuilt (SQLite cannot relax NOT NULL in place), with
	// foreign keys off as SQLite's ALTER TABLE documentation prescribes.
	`
CREATE TABLE genomes_new (
	game       TEXT NOT NULL REFERENCES runs(game),
	agent_id   INTEGER NOT NULL,
	born       INTEGER NOT NULL,          -- the generation it first belongs to
	origin     TEXT NOT NULL CHECK (origin IN ('random', 'crossover', 'mutation')),
	parents    TEXT NOT NULL,             -- JSON array of agent ids
	node       TEXT,                      -- the swapped node of a crossover child
	genome     BLOB,                      -- nnet binary format; NULL once retention dropped it
	PRIMARY KEY (game, agent_id)
);
INSERT INTO genomes_new (game, agent_id, born, origin, parents, node, genome)
	SELECT game, agent_id, born, origin, parents, node, genome FROM genomes;
DROP TABLE genomes;
ALTER TABLE genomes_new RENAME TO genomes;

CREATE INDEX members_by_agent ON members (game, agent_id, generation);
CREATE INDEX generations_by_champion ON generations (game, champion_id);

ALTER TABLE generations ADD COLUMN db_bytes INTEGER; -- the database's size when the generation was committed

-- generation_summary gains the database's size, at the end so that
-- existing queries keep their columns.
DROP VIEW generation_summary;
CREATE VIEW generation_summary AS
	SELECT game, generation, games, draws, mean_fitness, best_fitness, seconds, created_at, db_bytes
	FROM generations;

-- The public interface for sqlite3 users: the champion's matches against
-- the fixed baseline players, with the Elo difference and its 95% interval.
CREATE VIEW baseline_history AS
	SELECT b.game, b.generation, b.opponent, b.wins, b.draws, b.losses, b.score,
	       b.elo, b.elo_ci, g.created_at
	FROM baselines b JOIN generations g ON g.game = b.game AND g.generation = b.generation;
`,
	// 5: ratings of champions on calibrated scales (package rating). A
	// rating is stored whole, in one statement, or not at all.
	`
CREATE TABLE ratings (
	game       TEXT NOT NULL REFERENCES runs(game),
	generation INTEGER NOT NULL,          -- the champion's generation
	agent_id   INTEGER NOT NULL,
	scale      TEXT NOT NULL,             -- the ladder's scale, e.g. stockfish-uci-elo
	tc         TEXT NOT NULL,             -- BASE+INC in seconds, or untimed
	elo        REAL NOT NULL,
	ci         REAL NOT NULL,             -- half-width of the 95% interval
	games      INTEGER NOT NULL,
	wins       INTEGER NOT NULL,
	draws      INTEGER NOT NULL,
	losses     INTEGER NOT NULL,
	seed       INTEGER NOT NULL,
	seconds    REAL NOT NULL,             -- how long the rating took
	created_at TEXT NOT NULL,
	PRIMARY KEY (game, generation, scale, tc)
);

-- The public interface for sqlite3 users: each rated champion's Elo on its
-- scale, with the half-width of the 95% interval, and the hours of
-- evolution (the generations' own times, summed) that made it.
CREATE VIEW rating_history AS
	SELECT r.game, r.generation, r.elo, r.ci, r.games, r.scale, r.tc, r.created_at,
	       (SELECT SUM(g.seconds) FROM generations g
	        WHERE g.game = r.game AND g.generation <= r.generation) / 3600.0 AS hours
	FROM ratings r;
`,
	// 6: the workers that played a run's games through the cluster
	// (evolved worker), by the name each gives itself, for status.
	`
CREATE TABLE workers (
	name       TEXT PRIMARY KEY,
	games      INTEGER NOT NULL,          -- its games that counted
	refused    INTEGER NOT NULL,          -- its results that were refused
	first_seen TEXT NOT NULL,             -- its first result
	last_seen  TEXT NOT NULL              -- its latest result
);
`,
	// 7: the curriculum (curriculum_every): each check of whether the
	// champion still gains on the champion of curriculum_every generations
	// before, and the node budget it leaves for the games after it.
	`
CREATE TABLE curriculum (
	game                TEXT NOT NULL,
	generation          INTEGER NOT NULL,
	opponent_generation INTEGER NOT NULL,
	wins                INTEGER NOT NULL,
	draws               INTEGER NOT NULL,
	losses              INTEGER NOT NULL,
	elo                 REAL NOT NULL,
	elo_ci              REAL NOT NULL,      -- half-width of the 95% interval
	nodes               INTEGER NOT NULL,   -- the budget the generation played under
	next_nodes          INTEGER NOT NULL,   -- the budget of the generations after it
	PRIMARY KEY (game, generation),
	FOREIGN KEY (game, generation) REFERENCES generations(game, generation)
);

-- The public interface for sqlite3 users: each check, with the hours of
-- evolution up to it.
CREATE VIEW curriculum_history AS
	SELECT c.game, c.generation, c.opponent_generation, c.wins, c.draws, c.losses, c.elo, c.elo_ci,
	       c.nodes, c.next_nodes, g.created_at,
	       (SELECT SUM(x.seconds) FROM generations x
	        WHERE x.game = c.game AND x.generation <= c.generation) / 3600.0 AS hours
	FROM curriculum c JOIN generations g ON g.game = c.game AND g.generation = c.generation;
`,
	// 8: genomes by lineage. Each genome the GA breeds gets a lineage row:
	// the operation that made it (lineage.Recipe), its parents in the
	// operation's order and a checksum, so that retention may drop its
	// weights and rebuild them bit for bit from the nearest kept ancestors.
	// depth records what retention decided. runs.steps holds the mutation's
	// steps, which the rebuild needs beside the seed.
	`
ALTER TABLE runs ADD COLUMN steps TEXT; -- JSON: the mutation's steps (nnet.Steps); NULL until the daemon records them

CREATE TABLE lineage (
	game     TEXT NOT NULL,
	agent_id INTEGER NOT NULL,
	op       TEXT CHECK (op IN ('mutation', 'crossover-first', 'crossover-second')), -- NULL: not bred by the GA from parents (random, ES, SPSA)
	op_index INTEGER,                    -- the operation's index in its generation, which names its random stream
	parent1  INTEGER,                    -- the parents in the operation's order, as genomes.parents lists them
	parent2  INTEGER,
	sum      BLOB NOT NULL,              -- the first 8 bytes of the SHA-256 of the genome's binary form
	depth    INTEGER,                    -- NULL: not decided yet, weights kept; 0: a keyframe, weights kept for good;
	                                     -- n > 0: weights dropped, rebuilt through at most n operations; -1: dropped for good
	PRIMARY KEY (game, agent_id),
	FOREIGN KEY (game, agent_id) REFERENCES genomes(game, agent_id)
) WITHOUT ROWID;
CREATE INDEX lineage_undecided ON lineage (game, agent_id) WHERE depth IS NULL;
`,
	// 9: the generation target of the daemon evolving a run, so that
	// status and the web site of another process show its ETA.
	`
ALTER TABLE runs ADD COLUMN target INTEGER; -- evolved run --generations of the daemon running it; NULL without one
`,
	// 10: each member carries the points and games of the generations it
	// played before (an elite keeps its id), so that the populations of
	// older generations may go (Retention.Members) while the GA's fitness
	// memory still reads them. NULL in rows written before: summed from
	// the rows of the generations before, as then.
	`
ALTER TABLE members ADD COLUMN past_points INTEGER;
ALTER TABLE members ADD COLUMN past_games INTEGER;
`,
	// 11: a chess-lab run's state, so that a run stopped, failed or still
	// queued (the web site's lab queues runs) says so. NULL in rows
	// written before: finished when finished_at is set, else stopped (or
	// running).
	`
ALTER TABLE meta_runs ADD COLUMN state TEXT CHECK (state IN ('queued', 'running', 'finished', 'stopped', 'failed'));
ALTER TABLE meta_runs ADD COLUMN failure TEXT; -- why a failed or stopped run ended
`,
	// 12: a long run plays the ladder only every few generations
	// (population.Config.LadderDue): ladder_mean and improved are NULL in
	// a generation that did not. SQLite cannot drop NOT NULL in place;
	// editing the table's definition is the procedure its ALTER TABLE
	// documentation gives for removing NOT NULL constraints (the rows on
	// disk do not change), and migrate increments the schema version
	// after it (editsSchema) so that every connection reads the new one.
	`
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
	SET sql = replace(replace(sql, 'ladder_mean  REAL NOT NULL', 'ladder_mean  REAL'), 'improved     INTEGER NOT NULL', 'improved     INTEGER')
	WHERE type = 'table' AND name = 'generations';
PRAGMA writable_schema = OFF;
`,
	// 13: the title match (population.Config.ChampionGames): its games are
	// stored with the others as kind 'challenge'. Widening a CHECK
	// constraint is an edit of the table's definition, as in 12: every
	// row on disk satisfies the wider one.
	`
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
	SET sql = replace(sql, 'CHECK (kind IN (''tournament'', ''ladder'', ''baseline''))',
		'CHECK (kind IN (''tournament'', ''ladder'', ''baseline'', ''challenge''))')
	WHERE type = 'table' AND name = 'games';
PRAGMA writable_schema = OFF;
`,
	// 14: each generation's title match: the champion of the generation
	// before against the generation's best-ranked other agent, and
	// whether the title changed hands.
	`
CREATE TABLE challenges (
	game          TEXT NOT NULL,
	generation    INTEGER NOT NULL,
	incumbent_id  INTEGER NOT NULL,     -- the champion of the generation before
	challenger_id INTEGER NOT NULL,     -- the generation's best-ranked other agent
	wins          INTEGER NOT NULL,     -- the challenger's
	draws         INTEGER NOT NULL,
	losses        INTEGER NOT NULL,
	replaced      INTEGER NOT NULL,     -- 1 when the challenger took the title
	PRIMARY KEY (game, generation),
	FOREIGN KEY (game, generation) REFERENCES generations(game, generation)
);

-- The public interface for sqlite3 users: every title match, with the
-- hours of evolution up to it.
CREATE VIEW challenge_history AS
	SELECT c.game, c.generation, c.incumbent_id, c.challenger_id, c.wins, c.draws, c.losses, c.replaced, g.created_at,
	       (SELECT SUM(x.seconds) FROM generations x
	        WHERE x.game = c.game AND x.generation <= c.generation) / 3600.0 AS hours
	FROM challenges c JOIN generations g ON g.game = c.game AND g.generation = c.generation;
`,
	// 15: the settings a run may change as it goes on (the curriculum's
	// keys): each change, the generation it holds from, and the values
	// before and after, as JSON. runs.config holds the values in force.
	`
CREATE TABLE setting_changes (
	game       TEXT NOT NULL,
	generation INTEGER NOT NULL,          -- the first generation played under the new value
	key        TEXT NOT NULL,             -- the game section's key, e.g. curriculum_every
	old        TEXT NOT NULL,             -- JSON
	new        TEXT NOT NULL,             -- JSON
	changed_at TEXT NOT NULL,
	PRIMARY KEY (game, generation, key)
);
`,
	// 16: the distilled genome (population.Config.DistillEvery): the
	// champion with its linear weights fitted to its searches, a member
	// of origin 'distilled'. Widening the CHECK constraints is an edit of
	// the tables' definitions, as in 13.
	`
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
	SET sql = replace(sql, 'CHECK (origin IN (''random'', ''elite'', ''crossover'', ''mutation''))',
		'CHECK (origin IN (''random'', ''elite'', ''crossover'', ''mutation'', ''distilled''))')
	WHERE type = 'table' AND name = 'members';
UPDATE sqlite_schema
	SET sql = replace(sql, 'CHECK (origin IN (''random'', ''crossover'', ''mutation''))',
		'CHECK (origin IN (''random'', ''crossover'', ''mutation'', ''distilled''))')
	WHERE type = 'table' AND name = 'genomes';
PRAGMA writable_schema = OFF;
`,
	// 17: a distilled genome is kept as its recipe (lineage.Distill): its
	// parent and the step the distillation added, in the new column, a
	// few kilobytes where its weights are a hundred. The op check widens
	// in place, as in 13.
	`
ALTER TABLE lineage ADD COLUMN step BLOB; -- lineage.EncodeStep, for op 'distill'
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
	SET sql = replace(sql, 'CHECK (op IN (''mutation'', ''crossover-first'', ''crossover-second''))',
		'CHECK (op IN (''mutation'', ''crossover-first'', ''crossover-second'', ''distill''))')
	WHERE type = 'table' AND name = 'lineage';
PRAGMA writable_schema = OFF;
`,
	// 18: a distillation moves every elite by one step (population
	// Config.DistillEvery), so one row holds it and the others name that
	// row's genome in the new column: a draughts step is 8.2 KB, and five
	// copies a distillation filled four times the disk a default run
	// takes. Rows written before keep their own steps. The index serves
	// retention, which keeps a row that others take their step from.
	`
ALTER TABLE lineage ADD COLUMN step_of INTEGER; -- for op 'distill' without a step of its own: the agent_id whose row holds the same step
CREATE INDEX lineage_step_of ON lineage (game, step_of) WHERE step_of IS NOT NULL;
`,
	// 19: a distillation's step is kept in parts of at most stepPartBytes
	// (960) in their own table. In its lineage row a step of a few
	// kilobytes left its row's page and took an overflow page of its own,
	// whatever its length: every step took about 4.6 KB on disk, a draughts
	// one of 4.1 KB as a chess one of 3 KB, and a shorter one gained
	// nothing. Parts short enough to lie in a page beside other rows take
	// what they hold. The steps kept so far move into parts.
	`
CREATE TABLE step_parts (
	game     TEXT NOT NULL,
	agent_id INTEGER NOT NULL,           -- the lineage row whose step this is (others name it in step_of)
	part     INTEGER NOT NULL,           -- 0, 1, ...: the step (lineage.EncodeStep) is its parts' bytes in this order
	bytes    BLOB NOT NULL,              -- at most 960 bytes
	PRIMARY KEY (game, agent_id, part)
) WITHOUT ROWID;
WITH RECURSIVE parts(game, agent_id, part, step) AS (
	SELECT game, agent_id, 0, step FROM lineage WHERE step IS NOT NULL
	UNION ALL
	SELECT game, agent_id, part + 1, step FROM parts WHERE (part + 1) * 960 < length(step)
)
INSERT INTO step_parts (game, agent_id, part, bytes) SELECT game, agent_id, part, substr(step, part * 960 + 1, 960) FROM parts ORDER BY game, agent_id, part;
ALTER TABLE lineage DROP COLUMN step;
`,
	// 20: the name through which the last writer opened the file. SQLite
	// keeps a database's write-ahead log beside the name it was opened
	// by, so a file with two names (a hard link) has two places for one:
	// after a kill, the log under the name last written through holds
	// the last generations. Open reads this row from the file itself,
	// before SQLite replays any log, and opens through that name.
	`
CREATE TABLE writer (
	id   INTEGER PRIMARY KEY CHECK (id = 1),
	path TEXT NOT NULL -- absolute, symbolic links resolved
);
`,
	// 21: the learning settings of each genome of a run that evolves
	// learners (population.Config.LearnExplore), written with the
	// members that bring them: a genome keeps its settings for life, as
	// its weights, so a row a genome; a member without one trains with
	// the defaults. Retention deletes a row with its genome's.
	`
CREATE TABLE learners (
	game     TEXT NOT NULL,
	agent_id INTEGER NOT NULL,
	rate     REAL NOT NULL,              -- the trainer's learning rate (Adam's step size)
	results  REAL NOT NULL,              -- the share of the game's result in the target, the rest the search's score
	PRIMARY KEY (game, agent_id)
) WITHOUT ROWID;
`,
}

// editsSchema lists the migrations that edit sqlite_schema directly:
// migrate increments the schema version after them, as SQLite requires,
// and checks the database's integrity before it commits.
var editsSchema = map[int]bool{12: true, 13: true, 16: true, 17: true}

// rebuildsTables lists the migrations that rebuild a table another table
// refers to: migrate runs them with foreign key enforcement off and checks
// the keys before it commits.
var rebuildsTables = map[int]bool{4: true}

// membersByGeneration names the members table, as alias, read through its
// primary key (game, generation, slot), for queries of one generation's
// members.
// Without statistics SQLite's planner prefers the covering index
// members_by_agent (game, agent_id, generation) for them and scans every
// member of the run: measured in sqlite3 on a table of 200,000
// generations (three days of draughts), 0.17 s a query against 25 µs
// through the primary key, and every commit makes such queries. The
// primary key's index is the one migration 1 created.
func membersByGeneration(alias string) string {
	return "members AS " + alias + " INDEXED BY sqlite_autoindex_members_1"
}

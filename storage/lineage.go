package storage

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"evolved/lineage"
	"evolved/nnet"
)

// This file keeps genomes by lineage. Every genome the GA breeds is
// stored whole while it is a member of a recent generation; when it leaves
// the genome window, retention decides (decideLineage) whether to keep its
// weights as a keyframe or to drop them and keep only the lineage row that
// rebuilds them: the operation, its parents and a checksum. Reading a
// genome (Champion, Genome) rebuilds it from the nearest kept ancestors.

var (
	// ErrLineage means a genome could not be rebuilt from its lineage: the
	// rebuilt weights do not match the checksum kept when it was bred, or
	// a record it needs is missing or damaged. Check reports every such
	// genome with what it affects.
	ErrLineage = errors.New("storage: genome cannot be rebuilt from its lineage")
)

// Depth values of a lineage row (the depth column).
const (
	depthKeyframe = 0  // weights kept for good
	depthDropped  = -1 // weights dropped, and nothing rebuilds them
)

// sharedStep is the last distillation step a generation's commit stored,
// and the genome whose lineage row holds it.
type sharedStep struct {
	step []byte
	id   int64
}

// stepPartBytes is the most bytes of a distillation's step one row of
// step_parts holds (migration 19): a row of a WITHOUT ROWID table that
// fits in a quarter of a 4 KB page lies in its page beside other rows,
// where a longer one takes an overflow page of its own.
const stepPartBytes = 960

// holderColumn is the agent whose step_parts hold the step of a lineage
// row l of a distilled genome: its own, or the one its step_of names
// (migration 18); NULL for the other operations.
const holderColumn = "CASE WHEN l.op = 'distill' THEN COALESCE(l.step_of, l.agent_id) END"

// insertStep stores step, the step of agent id's lineage row, in parts.
func insertStep(ctx context.Context, tx *sql.Tx, game string, id int64, step []byte) error {
	for part := 0; part*stepPartBytes < len(step); part++ {
		b := step[part*stepPartBytes : min(len(step), (part+1)*stepPartBytes)]
		if _, err := tx.ExecContext(ctx, "INSERT INTO step_parts (game, agent_id, part, bytes) VALUES (?, ?, ?, ?)", game, id, part, b); err != nil {
			return fmt.Errorf("agent %d step: %w", id, err)
		}
	}
	return nil
}

// readStep returns the step agent holder's lineage row keeps, its parts
// joined; a step with no parts, or a part missing, is ErrLineage.
func readStep(ctx context.Context, q querier, game string, holder int64) ([]byte, error) {
	rows, err := q.QueryContext(ctx, "SELECT part, bytes FROM step_parts WHERE game = ? AND agent_id = ? ORDER BY part", game, holder)
	if err != nil {
		return nil, fmt.Errorf("step of %s agent %d: %w", game, holder, err)
	}
	defer rows.Close()
	var step []byte
	parts := 0
	for rows.Next() {
		var part int
		var b []byte
		if err := rows.Scan(&part, &b); err != nil {
			return nil, fmt.Errorf("step of %s agent %d: %w", game, holder, err)
		}
		if part != parts {
			return nil, fmt.Errorf("step of %s agent %d: %w: part %d missing", game, holder, ErrLineage, parts)
		}
		step = append(step, b...)
		parts++
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("step of %s agent %d: %w", game, holder, err)
	}
	if parts == 0 {
		return nil, fmt.Errorf("step of %s agent %d: %w: no part of it is kept", game, holder, ErrLineage)
	}
	return step, nil
}

// insertLineage writes the lineage row of a new genome: its recipe (nil
// for a genome the GA did not breed from parents) and checksum. A
// distilled genome's step is stored once a generation: shared holds the
// last one stored in this commit, and a genome whose step is the same
// names that genome's row (step_of) instead of keeping a copy.
func insertLineage(ctx context.Context, tx *sql.Tx, game string, a AgentRow, shared *sharedStep) error {
	sum, err := lineage.Sum(a.Net)
	if err != nil {
		return err
	}
	var op, index, p1, p2, stepOf any
	var step []byte
	if r := a.Recipe; r != nil {
		if n := r.Parents(); n == 0 || len(a.Parents) != n {
			return fmt.Errorf("agent %d: %w: %q with parents %v", a.ID, lineage.ErrRecipe, r.Op, a.Parents)
		}
		op, index, p1 = string(r.Op), r.Index, a.Parents[0]
		if len(a.Parents) > 1 {
			p2 = a.Parents[1]
		}
		if r.Op == lineage.Distill {
			b := lineage.EncodeStep(r.Step)
			if shared.step != nil && bytes.Equal(b, shared.step) {
				stepOf = shared.id
			} else {
				step, *shared = b, sharedStep{step: b, id: a.ID}
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO lineage (game, agent_id, op, op_index, parent1, parent2, sum, step_of)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, game, a.ID, op, index, p1, p2, sum, stepOf); err != nil {
		return fmt.Errorf("agent %d lineage: %w", a.ID, err)
	}
	if step != nil {
		return insertStep(ctx, tx, game, a.ID, step)
	}
	return nil
}

// RecordSteps stores the mutation steps of game's run, which rebuilding
// its genomes needs. A run created before lineage storage gets them on its
// first resume; a run that has them keeps them, and other steps are an
// error (they would rebuild different genomes).
func (d *DB) RecordSteps(ctx context.Context, game string, steps nnet.Steps) error {
	b, err := json.Marshal(steps)
	if err != nil {
		return fmt.Errorf("record steps of %s: %w", game, err)
	}
	var have sql.NullString
	if err := d.db.QueryRowContext(ctx, "SELECT steps FROM runs WHERE game = ?", game).Scan(&have); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("record steps of %s: %w", game, ErrNoRun)
		}
		return fmt.Errorf("record steps of %s: %w", game, err)
	}
	if have.Valid {
		if have.String != string(b) {
			return fmt.Errorf("record steps of %s: the run's genomes were bred with mutation steps %s, this configuration gives %s", game, have.String, b)
		}
		return nil
	}
	if _, err := d.db.ExecContext(ctx, "UPDATE runs SET steps = ? WHERE game = ?", string(b), game); err != nil {
		return fmt.Errorf("record steps of %s: %w", game, err)
	}
	return nil
}

// querier is what reading a genome needs: the database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// lineageRow is what rebuilding needs to know of one genome.
type lineageRow struct {
	id      int64
	born    int
	node    sql.NullString
	op      sql.NullString
	index   int
	parents []int64
	sum     []byte
	step    []byte // a distillation's step (lineage.EncodeStep), its own or shared; nil for the other operations
	depth   sql.NullInt64
	tracked bool // it has a lineage row (genomes bred before lineage storage have none)
}

// recipe returns the row's recipe, a distillation's with its step.
func (r lineageRow) recipe() (lineage.Recipe, error) {
	rc := lineage.Recipe{Op: lineage.Op(r.op.String), Index: r.index}
	if rc.Op == lineage.Distill {
		step, err := lineage.DecodeStep(r.step)
		if err != nil {
			return rc, err
		}
		rc.Step = step
	}
	return rc, nil
}

// rebuilt reports whether the genome's weights were dropped and are made
// again from its parents.
func (r lineageRow) rebuilt() bool { return r.tracked && r.depth.Valid && r.depth.Int64 > 0 }

// readLineage reads genome id's lineage row.
func readLineage(ctx context.Context, q querier, game string, id int64) (lineageRow, error) {
	r := lineageRow{id: id}
	var index, p1, p2, holder sql.NullInt64
	var tracked int
	err := q.QueryRowContext(ctx, `SELECT g.born, g.node, l.op, l.op_index, l.parent1, l.parent2, l.sum, `+holderColumn+`, l.depth, l.agent_id IS NOT NULL
		FROM genomes g LEFT JOIN lineage l ON l.game = g.game AND l.agent_id = g.agent_id
		WHERE g.game = ? AND g.agent_id = ?`, game, id).
		Scan(&r.born, &r.node, &r.op, &index, &p1, &p2, &r.sum, &holder, &r.depth, &tracked)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("genome of %s agent %d: %w", game, id, ErrNoAgent)
	}
	if err != nil {
		return r, fmt.Errorf("genome of %s agent %d: %w", game, id, err)
	}
	r.tracked = tracked == 1
	r.index = int(index.Int64)
	if holder.Valid {
		if r.step, err = readStep(ctx, q, game, holder.Int64); err != nil {
			return r, fmt.Errorf("genome of %s agent %d: %w", game, id, err)
		}
	}
	for _, p := range []sql.NullInt64{p1, p2} {
		if p.Valid {
			r.parents = append(r.parents, p.Int64)
		}
	}
	return r, nil
}

// loadGenome returns the genome of agent id of game's run: its kept
// weights, or the weights rebuilt from its lineage, checked against the
// checksum kept when it was bred. A genome dropped for good is ErrPruned;
// one that cannot be rebuilt is ErrLineage, naming the record at fault.
func loadGenome(ctx context.Context, q querier, game string, id int64) (*nnet.Net, error) {
	target, err := readLineage(ctx, q, game, id)
	if err != nil {
		return nil, err
	}
	if !target.rebuilt() {
		return keptGenome(ctx, q, game, target)
	}
	// The genomes the rebuild passes through: from the target back to
	// the nearest kept ancestors.
	rows := map[int64]lineageRow{id: target}
	uses := map[int64]int{} // how many genomes still to rebuild take each as a parent
	stack := []int64{id}
	for len(stack) > 0 {
		r := rows[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if !r.rebuilt() {
			continue
		}
		if !r.op.Valid || (lineage.Recipe{Op: lineage.Op(r.op.String)}).Parents() != len(r.parents) {
			return nil, fmt.Errorf("genome of %s agent %d: %w: its record says it was dropped at depth %d but holds no recipe (%q, parents %v)",
				game, r.id, ErrLineage, r.depth.Int64, r.op.String, r.parents)
		}
		for _, p := range r.parents {
			if p >= r.id {
				return nil, fmt.Errorf("genome of %s agent %d: %w: parent %d is not older", game, r.id, ErrLineage, p)
			}
			uses[p]++
			if _, ok := rows[p]; ok {
				continue
			}
			pr, err := readLineage(ctx, q, game, p)
			if err != nil {
				return nil, fmt.Errorf("genome of %s agent %d: parent: %w", game, r.id, err)
			}
			rows[p] = pr
			stack = append(stack, p)
		}
	}
	steps, err := runSteps(ctx, q, game)
	if err != nil {
		return nil, err
	}
	var seed int64
	if err := q.QueryRowContext(ctx, "SELECT seed FROM runs WHERE game = ?", game).Scan(&seed); err != nil {
		return nil, fmt.Errorf("genome of %s agent %d: run: %w", game, id, err)
	}
	// Parents are older, and older genomes have smaller ids: in id order
	// every parent is made before its children. A net is let go once the
	// last genome that takes it is made.
	order := slices.Sorted(func(yield func(int64) bool) {
		for k := range rows {
			if !yield(k) {
				return
			}
		}
	})
	nets := make(map[int64]*nnet.Net, len(order))
	for _, k := range order {
		r := rows[k]
		if !r.rebuilt() {
			n, err := keptGenome(ctx, q, game, r)
			if err != nil {
				return nil, fmt.Errorf("genome of %s agent %d: ancestor: %w", game, id, err)
			}
			nets[k] = n
			continue
		}
		parents := make([]*nnet.Net, len(r.parents))
		for i, p := range r.parents {
			parents[i] = nets[p]
		}
		recipe, err := r.recipe()
		if err != nil {
			return nil, fmt.Errorf("genome of %s agent %d: %w: %w", game, r.id, ErrLineage, err)
		}
		n, node, err := recipe.Make(uint64(seed), game, r.born-1, steps, parents...)
		if err != nil {
			return nil, fmt.Errorf("genome of %s agent %d: %w: %w", game, r.id, ErrLineage, err)
		}
		sum, err := lineage.Sum(n)
		if err != nil {
			return nil, fmt.Errorf("genome of %s agent %d: %w", game, r.id, err)
		}
		if !bytes.Equal(sum, r.sum) {
			return nil, fmt.Errorf("genome of %s agent %d: %w: the weights rebuilt by %s %d from %v do not match the checksum kept when it was bred (a changed breeding code, or a damaged record)",
				game, r.id, ErrLineage, r.op.String, r.index, r.parents)
		}
		if r.node.Valid && r.node.String != node.String() {
			return nil, fmt.Errorf("genome of %s agent %d: %w: rebuilt with %s swapped, its record says %s", game, r.id, ErrLineage, node, r.node.String)
		}
		nets[k] = n
		for _, p := range r.parents {
			if uses[p]--; uses[p] == 0 {
				delete(nets, p)
			}
		}
	}
	return nets[id], nil
}

// keptGenome reads the kept weights of r, a genome whose weights were
// not dropped to be rebuilt.
func keptGenome(ctx context.Context, q querier, game string, r lineageRow) (*nnet.Net, error) {
	var blob []byte
	if err := q.QueryRowContext(ctx, "SELECT genome FROM genomes WHERE game = ? AND agent_id = ?", game, r.id).Scan(&blob); err != nil {
		return nil, fmt.Errorf("genome of %s agent %d: %w", game, r.id, err)
	}
	if blob == nil && r.tracked && (!r.depth.Valid || r.depth.Int64 == depthKeyframe) {
		return nil, fmt.Errorf("genome of %s agent %d: %w: its weights are kept for good (a keyframe) but missing", game, r.id, ErrLineage)
	}
	n, err := decodeNet(blob)
	if err != nil {
		if errors.Is(err, ErrPruned) {
			return nil, fmt.Errorf("genome of %s agent %d: %w", game, r.id, err)
		}
		return nil, fmt.Errorf("genome of %s agent %d: %w: its kept weights are damaged: %w", game, r.id, ErrLineage, err)
	}
	return n, nil
}

// runSteps reads the mutation steps of game's run.
func runSteps(ctx context.Context, q querier, game string) (nnet.Steps, error) {
	var steps nnet.Steps
	var b sql.NullString
	if err := q.QueryRowContext(ctx, "SELECT steps FROM runs WHERE game = ?", game).Scan(&b); err != nil {
		return steps, fmt.Errorf("steps of %s: %w", game, err)
	}
	if !b.Valid {
		return steps, fmt.Errorf("steps of %s: %w: the run's mutation steps were never recorded", game, ErrLineage)
	}
	// A step this version does not know (a newer evolved's) would rebuild
	// other genomes than were bred: refuse it by name, before any
	// checksum fails.
	dec := json.NewDecoder(strings.NewReader(b.String))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&steps); err != nil {
		return steps, fmt.Errorf("steps of %s: %w: the run's mutation steps %s: %w (a newer version of evolved made this run?)", game, ErrLineage, b.String, err)
	}
	return steps, nil
}

// bredFrom returns an SQL expression, for game ?1, that is true when the
// GA bred a genome from the genome whose id is the expression id. Its
// children were all born while it was a member, so they are among the ids
// after it up to the largest of the generation after its last one: a
// short stretch of lineage's primary key, which spares lineage an index
// on its parents (a row a genome, for good).
//
// The subqueries' aliases (bred_*) are their own, so that id may name a
// column of the enclosing query without being captured by them.
func bredFrom(id string) string {
	return `EXISTS (SELECT 1 FROM lineage bred_child WHERE bred_child.game = ?1 AND bred_child.agent_id > ` + id + `
		AND bred_child.agent_id <= (SELECT max(bred_next.agent_id) FROM ` + membersByGeneration("bred_next") + ` WHERE bred_next.game = ?1
			AND bred_next.generation = (SELECT max(bred_own.generation) FROM members bred_own
				WHERE bred_own.game = ?1 AND bred_own.agent_id = ` + id + `) + 1)
		AND bred_child.op IS NOT NULL AND (bred_child.parent1 = ` + id + ` OR bred_child.parent2 = ` + id + `))`
}

// dropWeights drops the weights of genome id of game's run, keeping its
// row. The row is deleted and written again without them, not updated:
// SQLite rebalances a page when a delete leaves it underfull but not when
// an update shrinks a cell, and a genome's row, written with its weights,
// holds up to a page of them in place, so an update left every dropped
// genome alone on a page of 4 KiB for good (measured: 2,355 leaf pages
// for 2,355 genome rows of a chess run; 151 once written again). The
// foreign keys that name the row are checked at commit, when it is back.
func dropWeights(ctx context.Context, tx *sql.Tx, game string, id int64) error {
	if _, err := tx.ExecContext(ctx, "PRAGMA defer_foreign_keys = ON"); err != nil {
		return fmt.Errorf("genome of agent %d: %w", id, err)
	}
	var born int
	var origin, parents string
	var node sql.NullString
	err := tx.QueryRowContext(ctx, "DELETE FROM genomes WHERE game = ? AND agent_id = ? RETURNING born, origin, parents, node", game, id).
		Scan(&born, &origin, &parents, &node)
	if err != nil {
		return fmt.Errorf("genome of agent %d: drop weights: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO genomes (game, agent_id, born, origin, parents, node) VALUES (?, ?, ?, ?, ?, ?)",
		game, id, born, origin, parents, node); err != nil {
		return fmt.Errorf("genome of agent %d: drop weights: %w", id, err)
	}
	return nil
}

// lineageValue returns how many operations at most rebuild genome id, as
// a parent of a genome being decided: 0 for kept weights (a keyframe, a
// genome without a recipe that has children, one bred before lineage
// storage, which retention then keeps), its depth once dropped. A genome
// not yet decided (an elite still in the population) counts what it would
// be decided at now, 1 + its parents' values; at keyframes or more it is
// decided now, as the keyframe it would become: it has a child. Values
// only ever fall (a decision counts its parents' values at the time, which
// are at most those counted before), so a depth taken from them bounds
// the rebuild for good, and no genome waits with its weights kept while
// an elite lives on.
func lineageValue(ctx context.Context, tx *sql.Tx, game string, id int64, keyframes int) (int64, error) {
	var depth sql.NullInt64
	var op sql.NullString
	var p1, p2 sql.NullInt64
	err := tx.QueryRowContext(ctx, "SELECT depth, op, parent1, parent2 FROM lineage WHERE game = ? AND agent_id = ?", game, id).Scan(&depth, &op, &p1, &p2)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return depthKeyframe, nil
	case err != nil:
		return 0, err
	case depth.Valid && depth.Int64 == depthDropped:
		return 0, fmt.Errorf("%w: genome %d was dropped for good", ErrLineage, id)
	case depth.Valid:
		return depth.Int64, nil
	case !op.Valid:
		return depthKeyframe, nil // kept while it has children, which it has
	}
	most := int64(0)
	for _, p := range []sql.NullInt64{p1, p2} {
		if !p.Valid {
			continue
		}
		v, err := lineageValue(ctx, tx, game, p.Int64, keyframes)
		if err != nil {
			return 0, err
		}
		most = max(most, v)
	}
	if most+1 < int64(keyframes) {
		return most + 1, nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE lineage SET depth = ? WHERE game = ? AND agent_id = ?", depthKeyframe, game, id); err != nil {
		return 0, err
	}
	return depthKeyframe, nil
}

// decideLineage decides, for each genome of game's run that has left the
// genome window (no member of a generation after cutoff), whether its
// weights stay: a genome bred by a recipe is dropped and rebuilt from its
// parents unless it is keyframes operations or more from kept weights and
// has children; a genome without a recipe stays if it is a champion or has
// children. A parent not yet decided (an elite still in the window)
// counts its value now (lineageValue). With keyframes 0
// every champion is kept whole and the other genomes are dropped for
// good, as before lineage storage. It returns how many genomes it dropped.
func decideLineage(ctx context.Context, tx *sql.Tx, game string, cutoff, keyframes int) (int64, error) {
	// The partial index holds only the undecided genomes: without it the
	// planner walks lineage's primary key, every genome of the run.
	rows, err := tx.QueryContext(ctx, `SELECT l.agent_id, l.op, l.parent1, l.parent2 FROM lineage l INDEXED BY lineage_undecided
		WHERE l.game = ?1 AND l.depth IS NULL
		  AND NOT EXISTS (SELECT 1 FROM members m WHERE m.game = ?1 AND m.agent_id = l.agent_id AND m.generation > ?2)
		ORDER BY l.agent_id`, game, cutoff)
	if err != nil {
		return 0, fmt.Errorf("lineage: %w", err)
	}
	type candidate struct {
		id      int64
		op      sql.NullString
		parents []int64
	}
	var cands []candidate
	for rows.Next() {
		var c candidate
		var p1, p2 sql.NullInt64
		if err := rows.Scan(&c.id, &c.op, &p1, &p2); err != nil {
			rows.Close()
			return 0, fmt.Errorf("lineage: %w", err)
		}
		for _, p := range []sql.NullInt64{p1, p2} {
			if p.Valid {
				c.parents = append(c.parents, p.Int64)
			}
		}
		cands = append(cands, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("lineage: %w", err)
	}
	var dropped int64
	for _, c := range cands {
		var champion, children bool
		if err := tx.QueryRowContext(ctx, `SELECT
			EXISTS (SELECT 1 FROM generations WHERE game = ?1 AND champion_id = ?2), `+bredFrom("?2"),
			game, c.id).Scan(&champion, &children); err != nil {
			return 0, fmt.Errorf("lineage of agent %d: %w", c.id, err)
		}
		depth := int64(depthDropped)
		switch {
		case keyframes == 0:
			// As before lineage storage: the champions whole,
			// nothing rebuilt.
			if champion {
				depth = depthKeyframe
			}
		case !c.op.Valid:
			// Nothing rebuilds it: kept while anything needs it.
			if champion || children {
				depth = depthKeyframe
			}
		default:
			most := int64(0)
			for _, p := range c.parents {
				v, err := lineageValue(ctx, tx, game, p, keyframes)
				if err != nil {
					return 0, fmt.Errorf("lineage of agent %d: parent %d: %w", c.id, p, err)
				}
				most = max(most, v)
			}
			depth = most + 1
			if depth >= int64(keyframes) && children {
				depth = depthKeyframe
			}
		}
		if _, err := tx.ExecContext(ctx, "UPDATE lineage SET depth = ? WHERE game = ? AND agent_id = ?", depth, game, c.id); err != nil {
			return 0, fmt.Errorf("lineage of agent %d: %w", c.id, err)
		}
		if depth != depthKeyframe {
			if err := dropWeights(ctx, tx, game, c.id); err != nil {
				return 0, err
			}
			dropped++
		}
	}
	return dropped, nil
}

// LineageProblem is a genome whose weights are needed but missing or
// damaged, and what it takes down with it.
type LineageProblem struct {
	Game    string
	AgentID int64
	Born    int
	// What is wrong: "missing" or the decoding error, of its kept weights
	// or, if Step, of the distillation's step that made it.
	What string
	Step bool
	// Rebuilt counts the dropped genomes that are rebuilt through it, and
	// Champions lists the generations whose champion is it or one of them.
	Rebuilt   int
	Champions []int
}

// String says what is wrong and what it affects, in a sentence.
func (p LineageProblem) String() string {
	of := "kept weights"
	if p.Step {
		of = "the step of its distillation"
	}
	s := fmt.Sprintf("%s agent %d (born in generation %d): %s %s; %d dropped genomes are rebuilt through it",
		p.Game, p.AgentID, p.Born, of, p.What, p.Rebuilt)
	switch len(p.Champions) {
	case 0:
	case 1:
		s += fmt.Sprintf("; the champion of generation %s is one of them or it", spans(p.Champions))
	default:
		s += fmt.Sprintf("; the champions of %d generations (%s) are among them or it", len(p.Champions), spans(p.Champions))
	}
	return s
}

// spans writes sorted generations as ranges: "3-7, 12, 40-41".
func spans(gens []int) string {
	var b strings.Builder
	for i := 0; i < len(gens); {
		j := i
		for j+1 < len(gens) && gens[j+1] == gens[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", gens[i], gens[j])
		} else {
			fmt.Fprintf(&b, "%d", gens[i])
		}
		i = j + 1
	}
	return b.String()
}

// CheckLineage finds every genome whose weights are kept (a keyframe, an
// undecided genome, a genome bred before lineage storage) but missing or
// damaged, and for each what it affects: the dropped genomes rebuilt
// through it and the champions among them. It reads every kept genome, so
// it takes about as long as reading the database.
func (d *DB) CheckLineage(ctx context.Context) ([]LineageProblem, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT g.game, g.agent_id, g.born, g.genome IS NULL
		FROM genomes g LEFT JOIN lineage l ON l.game = g.game AND l.agent_id = g.agent_id
		WHERE (l.agent_id IS NULL AND g.genome IS NOT NULL) OR (l.agent_id IS NOT NULL AND (l.depth IS NULL OR l.depth = 0))
		ORDER BY g.game, g.agent_id`)
	if err != nil {
		return nil, fmt.Errorf("check lineage of %s: %w", d.path, err)
	}
	// Genomes bred before lineage storage have no lineage row and keep
	// their weights or have lost them for good; those with a lineage row
	// keep them while it says NULL or 0.
	type kept struct {
		game    string
		id      int64
		born    int
		missing bool
	}
	var all []kept
	for rows.Next() {
		var k kept
		if err := rows.Scan(&k.game, &k.id, &k.born, &k.missing); err != nil {
			rows.Close()
			return nil, fmt.Errorf("check lineage of %s: %w", d.path, err)
		}
		all = append(all, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("check lineage of %s: %w", d.path, err)
	}
	var problems []LineageProblem
	var tree lineageTree // read at the first problem
	// report adds p with what is rebuilt through it.
	report := func(p LineageProblem) error {
		if tree.children == nil {
			var err error
			if tree, err = d.readTree(ctx); err != nil {
				return fmt.Errorf("check lineage of %s: %w", d.path, err)
			}
		}
		tree.affected(&p)
		problems = append(problems, p)
		return nil
	}
	for _, k := range all {
		what := "missing"
		if !k.missing {
			var blob []byte
			if err := d.db.QueryRowContext(ctx, "SELECT genome FROM genomes WHERE game = ? AND agent_id = ?", k.game, k.id).Scan(&blob); err != nil {
				return nil, fmt.Errorf("check lineage of %s: %w", d.path, err)
			}
			if _, err := decodeNet(blob); err == nil {
				continue
			} else {
				what = "damaged (" + err.Error() + ")"
			}
		}
		if err := report(LineageProblem{Game: k.game, AgentID: k.id, Born: k.born, What: what}); err != nil {
			return nil, err
		}
	}
	// Each distillation's step, read from its parts: a broken one takes
	// down every genome made with it.
	type holder struct {
		game string
		id   int64
	}
	steps, err := queryRows(ctx, d.db, func(rows *sql.Rows, h *holder) error { return rows.Scan(&h.game, &h.id) },
		`SELECT l.game, l.agent_id FROM lineage l WHERE l.op = 'distill' AND l.step_of IS NULL ORDER BY l.game, l.agent_id`)
	if err != nil {
		return nil, fmt.Errorf("check lineage of %s: %w", d.path, err)
	}
	for _, h := range steps {
		step, err := readStep(ctx, d.db, h.game, h.id)
		if err == nil {
			_, err = lineage.DecodeStep(step)
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrLineage) && !errors.Is(err, lineage.ErrRecipe) {
			return nil, fmt.Errorf("check lineage of %s: %w", d.path, err)
		}
		what := "damaged (" + err.Error() + ")"
		// The genomes made with the step, reported once the query's rows are closed.
		made, err := queryRows(ctx, d.db, func(rows *sql.Rows, p *LineageProblem) error {
			*p = LineageProblem{Game: h.game, What: what, Step: true}
			return rows.Scan(&p.AgentID, &p.Born)
		}, `SELECT l.agent_id, g.born FROM lineage l JOIN genomes g ON g.game = l.game AND g.agent_id = l.agent_id
			WHERE l.game = ?1 AND (l.agent_id = ?2 OR l.step_of = ?2) ORDER BY l.agent_id`, h.game, h.id)
		if err != nil {
			return nil, fmt.Errorf("check lineage of %s: %w", d.path, err)
		}
		for _, p := range made {
			if err := report(p); err != nil {
				return nil, err
			}
		}
	}
	return problems, nil
}

// lineageTree is the dropped genomes' parent links of every run, for
// finding what a missing keyframe takes down.
type lineageTree struct {
	children  map[[2]any][]int64 // (game, id) → the dropped genomes bred from it
	champions map[[2]any][]int   // (game, id) → the generations it is the champion of
}

// readTree reads the parent links of every dropped, rebuilt genome and
// the champions of every generation.
func (d *DB) readTree(ctx context.Context) (lineageTree, error) {
	t := lineageTree{children: map[[2]any][]int64{}, champions: map[[2]any][]int{}}
	rows, err := d.db.QueryContext(ctx, "SELECT game, agent_id, parent1, parent2 FROM lineage WHERE depth > 0 AND op IS NOT NULL")
	if err != nil {
		return t, err
	}
	for rows.Next() {
		var game string
		var id int64
		var p1, p2 sql.NullInt64
		if err := rows.Scan(&game, &id, &p1, &p2); err != nil {
			rows.Close()
			return t, err
		}
		for _, p := range []sql.NullInt64{p1, p2} {
			if p.Valid {
				k := [2]any{game, p.Int64}
				t.children[k] = append(t.children[k], id)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return t, err
	}
	rows, err = d.db.QueryContext(ctx, "SELECT game, champion_id, generation FROM generations")
	if err != nil {
		return t, err
	}
	defer rows.Close()
	for rows.Next() {
		var game string
		var id int64
		var g int
		if err := rows.Scan(&game, &id, &g); err != nil {
			return t, err
		}
		k := [2]any{game, id}
		t.champions[k] = append(t.champions[k], g)
	}
	return t, rows.Err()
}

// affected fills in what p's genome takes down: the dropped genomes whose
// rebuild passes through it, and the champions among them and it.
func (t lineageTree) affected(p *LineageProblem) {
	seen := map[int64]bool{p.AgentID: true}
	queue := []int64{p.AgentID}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		p.Champions = append(p.Champions, t.champions[[2]any{p.Game, id}]...)
		for _, c := range t.children[[2]any{p.Game, id}] {
			if !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	p.Rebuilt = len(seen) - 1
	slices.Sort(p.Champions)
}

// GenomeCounts says how a database keeps its genomes.
type GenomeCounts struct {
	// Genomes counts every genome row; Whole those whose weights are
	// stored, Keyframes the whole ones kept for good because genomes are
	// rebuilt from them, Rebuilt the dropped ones rebuilt from their
	// lineage, and Dropped those dropped for good (never champions, and
	// nothing bred from them, or bred before lineage storage).
	Genomes, Whole, Keyframes, Rebuilt, Dropped int64
	// WholeBytes is the size of the stored weights.
	WholeBytes int64
	// Deepest is the most operations a rebuild goes through from kept
	// weights (the largest depth).
	Deepest int64
}

// CountGenomes counts how the database keeps its genomes, over every run.
func (d *DB) CountGenomes(ctx context.Context) (GenomeCounts, error) {
	var c GenomeCounts
	err := d.db.QueryRowContext(ctx, `SELECT count(*), count(g.genome), coalesce(sum(length(g.genome)), 0),
		coalesce(sum(l.depth = 0 AND g.genome IS NOT NULL), 0), coalesce(sum(l.depth > 0), 0),
		coalesce(sum(g.genome IS NULL AND (l.depth IS NULL OR l.depth < 0)), 0), coalesce(max(l.depth), 0)
		FROM genomes g LEFT JOIN lineage l ON l.game = g.game AND l.agent_id = g.agent_id`).
		Scan(&c.Genomes, &c.Whole, &c.WholeBytes, &c.Keyframes, &c.Rebuilt, &c.Dropped, &c.Deepest)
	if err != nil {
		return c, fmt.Errorf("count genomes of %s: %w", d.path, err)
	}
	return c, nil
}

package suite

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteHeader writes the table's header: the suite, its size, the player,
// the limit and the number of players, then the columns.
func WriteHeader(w io.Writer, epd string, positions int, playerName string, limit Limit, players int) {
	fmt.Fprintf(w, "suite %s: %d positions, player %s, %s, concurrency %d\n", epd, positions, playerName, limit, players)
	fmt.Fprintf(w, "%-10s %-6s %-8s %5s %12s %8s  %s\n", "id", "result", "move", "depth", "nodes", "time", "expected")
}

// WriteLine writes one position's line of the table: its id, solved or
// failed (- without bm or am), the move played, the depth and nodes, the
// search time and the expected moves.
func WriteLine(w io.Writer, r Result) {
	result := "-"
	switch {
	case r.Solved:
		result = "solved"
	case r.Scored:
		result = "failed"
	}
	var expected []string
	if len(r.Best) > 0 {
		expected = append(expected, "bm "+strings.Join(r.Best, " "))
	}
	if len(r.Avoid) > 0 {
		expected = append(expected, "am "+strings.Join(r.Avoid, " "))
	}
	line := fmt.Sprintf("%-10s %-6s %-8s %5d %12d %7.3fs  %s", r.ID, result, r.Move, r.Depth, r.Nodes, r.Time, strings.Join(expected, "; "))
	fmt.Fprintln(w, strings.TrimRight(line, " "))
}

// WriteSummary writes the report's last two lines: the counts for a
// person, with the wall time the run took, then the line for scripts,
//
//	result solved=N total=M positions=P nodes=X time=T
func WriteSummary(w io.Writer, rep Report, wall time.Duration) {
	percent := 0.0
	if rep.Total > 0 {
		percent = 100 * float64(rep.Solved) / float64(rep.Total)
	}
	fmt.Fprintf(w, "%s: solved %d of %d (%.1f%%), %d nodes, %.1f s of search, %.1f s wall\n",
		rep.Player, rep.Solved, rep.Total, percent, rep.Nodes, rep.Time, wall.Seconds())
	fmt.Fprintf(w, "result solved=%d total=%d positions=%d nodes=%d time=%.3f\n",
		rep.Solved, rep.Total, len(rep.Positions), rep.Nodes, rep.Time)
}

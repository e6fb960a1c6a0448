// Package lab runs the chess lab (package metaheuristic) as stored runs,
// for `evolved meta` and the web site's lab page alike: the settings named
// as the command's flags and checked, with the setting named, against the
// methods' ranges and the caller's limits (Settings, NewPlan); a pasted
// move history read into the start (History); a run stored as it goes,
// its progress reported live, and its end recorded as finished, stopped
// (what it learnt kept) or failed (Plan.Run); and runs queued and run one
// at a time in a lab database, followed live and canceled with a reason
// (Runner, which the web site's lab page serves).
package lab

package lab

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"

	"evolved/game/chess"
	"evolved/metaheuristic"
	"evolved/player"
)

// Settings are a chess-lab run's settings, named as `evolved meta`'s flags
// name them, in the CLI and in the web API's JSON alike.
type Settings struct {
	Method      string  `json:"method"`      // aco, ga or sa
	Opponent    string  `json:"opponent"`    // the opponent's player spec
	FEN         string  `json:"fen"`         // the start position; "" for the standard one
	From        string  `json:"from"`        // moves played from it first: a history typed or pasted (see History)
	Turns       int     `json:"turns"`       // learner moves a game lasts at most
	Iterations  int     `json:"iterations"`  // iterations of the run
	Ants        int     `json:"ants"`        // aco: games an iteration
	Dissipation float64 `json:"dissipation"` // aco: share of its value a visited position's moves lose an iteration
	Tolerance   float64 `json:"tolerance"`   // aco: factor on every move's weight but the best's; 0 off
	Population  int     `json:"population"`  // ga: individuals
	Keep        float64 `json:"keep"`        // ga: share kept each iteration
	T0          float64 `json:"t0"`          // sa: start temperature
	Drop        float64 `json:"drop"`        // sa: temperature drop an iteration; 0: t0/iterations*0.9
	Weights     string  `json:"weights"`     // piece weights of the cost; "" the classic ones
	Seed        uint64  `json:"seed"`        // seed of every random choice
	Workers     int     `json:"workers"`     // games at once; 0 one per CPU
	Memo        bool    `json:"memo"`        // ask the opponent once per position
}

// DefaultSettings returns `evolved meta`'s defaults; Method and Opponent
// remain to be chosen.
func DefaultSettings() Settings {
	aco, ga, sa := metaheuristic.DefaultACOConfig(), metaheuristic.DefaultGAConfig(), metaheuristic.DefaultSAConfig()
	return Settings{Turns: metaheuristic.DefaultTurns, Iterations: metaheuristic.DefaultIterations,
		Ants: aco.Ants, Dissipation: aco.Dissipation, Population: ga.Population, Keep: ga.Keep, T0: sa.T0, Seed: 1}
}

// methodSettings are the settings that belong to one method: giving one
// with another method is an error, not silently ignored.
var methodSettings = map[metaheuristic.Method][]string{
	metaheuristic.ACO: {"ants", "dissipation", "tolerance"},
	metaheuristic.GA:  {"population", "keep"},
	metaheuristic.SA:  {"t0", "drop"},
}

// ErrSetting is wrapped by every *SettingError.
var ErrSetting = errors.New("lab: invalid setting")

// SettingError names the setting that is not valid, by its flag and JSON
// name, with its value and what is wrong with it.
type SettingError struct {
	Name  string // "iterations", "from", ...
	Value any
	Why   string
	Err   error // the cause, if any (a chess or metaheuristic error)
}

// Error returns, for example, `iterations 0: want 1 to 100000`.
func (e *SettingError) Error() string {
	if e.Value == nil {
		return fmt.Sprintf("%s %s", e.Name, e.Why)
	}
	return fmt.Sprintf("%s %v: %s", e.Name, e.Value, e.Why)
}

// Unwrap returns ErrSetting and the cause.
func (e *SettingError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrSetting}
	}
	return []error{ErrSetting, e.Err}
}

// DecodeSettings reads settings from JSON whose keys are `evolved meta`'s
// flags, over the defaults. It returns the keys given, which Plan needs to
// refuse a setting of another method, and refuses an unknown key, a value
// of the wrong type and a body that holds more than one object, naming
// what is wrong.
func DecodeSettings(r io.Reader) (Settings, map[string]bool, error) {
	s := DefaultSettings()
	raw, err := io.ReadAll(r)
	if err != nil {
		return s, nil, fmt.Errorf("read the settings: %w", err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return s, nil, fmt.Errorf("%w: the body is not a JSON object: %w", ErrSetting, err)
	}
	given := map[string]bool{}
	for k := range keys {
		given[k] = true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			want := map[string]string{"int": "a whole number", "uint64": "a whole number from 0", "float64": "a number",
				"string": "a string", "bool": "true or false"}[typeErr.Type.String()]
			return s, nil, &SettingError{Name: typeErr.Field, Value: "(a JSON " + typeErr.Value + ")", Why: "want " + cmp.Or(want, typeErr.Type.String()), Err: err}
		}
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return s, nil, &SettingError{Name: strings.Trim(name, `"`), Why: "is no setting (the settings are evolved meta's flags)"}
		}
		return s, nil, fmt.Errorf("%w: %w", ErrSetting, err)
	}
	return s, given, nil
}

// Limits bound what a run may ask for: the web site's lab shares the
// machine with the evolution and with its visitors. The zero Limits bounds
// nothing beyond the methods' own ranges, as the CLI runs.
type Limits struct {
	MaxIterations int `json:"max_iterations"` // iterations
	MaxTurns      int `json:"max_turns"`      // learner moves a game
	MaxGames      int `json:"max_games"`      // ants (aco) or individuals (ga) an iteration
	MaxWorkers    int `json:"max_workers"`    // games at once; also the default when workers is 0
	MaxHistory    int `json:"max_history"`    // moves in from
}

// Parser reads an opponent's player spec.
type Parser func(spec string) (player.ChessSpec, error)

// historyNoise is what a pasted history holds beside its moves: move
// numbers ("12." "12..." "12.e4"), results, check and annotation marks.
var (
	moveNumber = regexp.MustCompile(`^[0-9]+\.+`)
	resultText = map[string]bool{"1-0": true, "0-1": true, "1/2-1/2": true, "*": true}
)

// History reads a move history typed or pasted: moves in UCI or SAN,
// separated by spaces, commas or new lines, with or without move numbers,
// comments in braces and a result; it returns the moves alone, as
// metaheuristic.Start takes them ("1. e4 e5 2. Nf3 {best} Nc6" gives e4 e5
// Nf3 Nc6). Whether each is legal is checked when the run's start is.
func History(text string) ([]string, error) {
	var out []string
	depth := 0
	var b strings.Builder
	for _, r := range text {
		switch {
		case r == '{':
			depth++
		case r == '}':
			if depth == 0 {
				return nil, &SettingError{Name: "from", Value: fmt.Sprintf("%q", clip(text)), Why: "has a '}' that closes no comment"}
			}
			depth--
			b.WriteRune(' ')
		case depth > 0:
		case r == ',' || r == ';':
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	if depth > 0 {
		return nil, &SettingError{Name: "from", Value: fmt.Sprintf("%q", clip(text)), Why: "has a '{' comment that is not closed"}
	}
	for _, tok := range strings.Fields(b.String()) {
		tok = moveNumber.ReplaceAllString(tok, "")
		tok = strings.TrimRight(tok, "!?")
		if tok == "" || resultText[tok] {
			continue
		}
		out = append(out, tok)
	}
	return out, nil
}

// clip shortens a long text for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// check returns a *SettingError when ok is false.
func check(ok bool, name string, value any, format string, args ...any) error {
	if ok {
		return nil
	}
	return &SettingError{Name: name, Value: value, Why: fmt.Sprintf(format, args...)}
}

// bounded checks an integer setting against [low, high]; high 0 is no bound.
func bounded(name string, v, low, high int) error {
	if high > 0 {
		return check(v >= low && v <= high, name, v, "want %d to %d", low, high)
	}
	return check(v >= low, name, v, "want at least %d", low)
}

// share checks a fraction against [low, high].
func share(name string, v, low, high float64) error {
	return check(!math.IsNaN(v) && v >= low && v <= high, name, v, "want %g to %g", low, high)
}

// validate checks the ranges of s, method-specific settings included,
// against lim, naming the first setting out of range.
func (s Settings) validate(method metaheuristic.Method, given map[string]bool, lim Limits) error {
	for m, names := range methodSettings {
		for _, name := range names {
			if m != method && given[name] {
				return &SettingError{Name: name, Why: fmt.Sprintf("is for method %s, not %s", m, method)}
			}
		}
	}
	checks := []error{
		bounded("turns", s.Turns, 1, lim.MaxTurns),
		bounded("iterations", s.Iterations, 1, lim.MaxIterations),
		bounded("workers", s.Workers, 0, lim.MaxWorkers),
	}
	switch method {
	case metaheuristic.ACO:
		checks = append(checks, bounded("ants", s.Ants, 1, lim.MaxGames), share("dissipation", s.Dissipation, 0, 1),
			share("tolerance", s.Tolerance, 0, 1))
	case metaheuristic.GA:
		checks = append(checks, bounded("population", s.Population, 2, lim.MaxGames),
			check(!math.IsNaN(s.Keep) && s.Keep > 0 && s.Keep <= 1, "keep", s.Keep, "want more than 0, at most 1"))
	case metaheuristic.SA:
		checks = append(checks, share("t0", s.T0, 0, 1),
			check(!math.IsNaN(s.Drop) && s.Drop >= 0 && s.Drop <= 1, "drop", s.Drop, "want 0 (t0/iterations*0.9) to 1"))
	}
	return firstError(checks)
}

// firstError returns the first non-nil error of errs.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// fieldNames maps metaheuristic's configuration fields to the settings
// that set them, so that an error its Validate finds names the setting.
var fieldNames = map[string]string{"Start.FEN": "fen", "Start.Moves": "from", "Start": "from", "MemoOpponent": "memo", "T0": "t0"}

// settingOf renames a *metaheuristic.ConfigError as a *SettingError.
func settingOf(err error) error {
	var ce *metaheuristic.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	field := ce.Field
	if i := strings.IndexByte(field, '['); i >= 0 {
		field = field[:i]
	}
	name, ok := fieldNames[field]
	if !ok {
		name = strings.ToLower(field)
	}
	return &SettingError{Name: name, Value: ce.Value, Why: ce.Err.Error(), Err: err}
}

// startOf reads the start of s: its position and moves, as
// metaheuristic.Start takes them.
func (s Settings) startOf(lim Limits) (metaheuristic.Start, chess.Position, error) {
	moves, err := History(s.From)
	if err != nil {
		return metaheuristic.Start{}, chess.Position{}, err
	}
	if lim.MaxHistory > 0 && len(moves) > lim.MaxHistory {
		return metaheuristic.Start{}, chess.Position{}, &SettingError{Name: "from", Value: fmt.Sprintf("%d moves", len(moves)),
			Why: fmt.Sprintf("want at most %d", lim.MaxHistory)}
	}
	st := metaheuristic.Start{FEN: s.FEN, Moves: moves}
	if st.Moves, err = st.UCI(); err != nil { // stored as UCI, however typed
		return st, chess.Position{}, settingOf(err)
	}
	pos, err := st.Position()
	if err != nil {
		return st, pos, settingOf(err)
	}
	return st, pos, nil
}

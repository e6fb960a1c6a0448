package rating

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"evolved/tournament"
)

// Ladder is a game's rating scale: anchor players with fixed ratings that
// a rated player meets. Ladders are TOML files; the repository ships one
// per game (DefaultLadder), each saying how it was made.
type Ladder struct {
	// Game is the game the ladder rates: draughts, chess or xiangqi.
	Game string `toml:"game"`
	// Scale names the scale, stored with every rating made on it, so that
	// ratings on different scales are never compared.
	Scale string `toml:"scale"`
	// About says in words what the scale is and where its numbers come from.
	About string `toml:"about"`
	// Engine is the external engine of the anchors with an EngineElo
	// ("stockfish", "fairy-stockfish"): a name looked up in $PATH and in
	// /usr/games, or a path. "" for a ladder of the project's own players.
	Engine string `toml:"engine,omitempty"`
	// EngineOptions are UCI options every engine anchor sets besides its
	// strength, e.g. a Move Overhead that keeps it from losing on time
	// when the machine is busy.
	EngineOptions map[string]string `toml:"engine_options,omitempty"`
	// TC is the time control the ladder's ratings hold at ("10+0.1"), or
	// "" for untimed games at the anchors' fixed depths and playouts.
	TC string `toml:"tc,omitempty"`
	// Origin, for a ladder of the project's own players only, names the
	// anchor whose rating defines the scale's origin: Calibrate holds it at
	// its rating (0) and fits the others.
	Origin string `toml:"origin,omitempty"`
	// OpeningPlies and MaxMoves are the game settings the ladder's ratings
	// hold under: random plies opening each game (default 4) and the move
	// limit, per side, at which a game is drawn (default 100).
	OpeningPlies int `toml:"opening_plies,omitzero"`
	MaxMoves     int `toml:"max_moves,omitzero"`
	// Command is the command that made the fitted ratings, and Games the
	// number of games the fit rests on.
	Command string `toml:"command"`
	Games   int    `toml:"games"`
	// Anchors are the players of the ladder, weakest first.
	Anchors []Anchor `toml:"anchor"`
}

// Anchor is one player of a ladder.
type Anchor struct {
	// Player is the anchor's player spec ("material:4"), for the project's
	// own players. It plays at its fixed limits whatever the time control,
	// so that it stays the player that was fitted.
	Player string `toml:"player,omitempty"`
	// EngineElo, for an anchor of the ladder's engine, is the UCI_Elo it
	// plays at with UCI_LimitStrength: its rating on the engine's own
	// calibrated scale.
	EngineElo int `toml:"engine_elo,omitzero"`
	// Elo is the anchor's rating. For an engine anchor it equals EngineElo.
	Elo float64 `toml:"elo"`
	// HalfWidth is the half-width of the 95% interval of a fitted rating
	// (0 for an engine anchor, whose rating is its definition).
	HalfWidth float64 `toml:"ci,omitzero"`
}

// Name returns the anchor's name in tables: its player spec, or the
// engine at its Elo ("stockfish@1350").
func (a Anchor) Name(engine string) string {
	if a.EngineElo > 0 {
		base := engine
		if i := strings.LastIndexByte(base, '/'); i >= 0 {
			base = base[i+1:]
		}
		return base + "@" + strconv.Itoa(a.EngineElo)
	}
	return a.Player
}

// Spec returns the player spec that plays the anchor, with enginePath the
// resolved path of the ladder's engine and options the ladder's engine
// options: the anchor's own spec, or a UCI spec of the engine limited to
// its Elo.
func (a Anchor) Spec(enginePath string, options map[string]string) string {
	if a.EngineElo > 0 {
		spec := fmt.Sprintf("uci:%s:UCI_LimitStrength=true:UCI_Elo=%d", enginePath, a.EngineElo)
		for _, name := range slices.Sorted(maps.Keys(options)) {
			spec += ":" + name + "=" + options[name]
		}
		return spec
	}
	return a.Player
}

// Plies returns the random plies that open each game (default 4).
func (l *Ladder) Plies() int {
	if l.OpeningPlies == 0 {
		return 4
	}
	return l.OpeningPlies
}

// MoveLimit returns the moves per side after which a game is drawn
// (default 100).
func (l *Ladder) MoveLimit() int {
	if l.MaxMoves == 0 {
		return 100
	}
	return l.MaxMoves
}

// Elos returns the anchors' ratings, in ladder order.
func (l *Ladder) Elos() []float64 {
	out := make([]float64, len(l.Anchors))
	for i, a := range l.Anchors {
		out[i] = a.Elo
	}
	return out
}

// ErrLadder is wrapped by the errors of a ladder file that is malformed.
var ErrLadder = errors.New("rating: bad ladder")

// ReadLadder reads a ladder file and checks it (Validate). name names the
// source in errors.
func ReadLadder(r io.Reader, name string) (*Ladder, error) {
	var l Ladder
	md, err := toml.NewDecoder(r).Decode(&l)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrLadder, name, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		keys := make([]string, len(undecoded))
		for i, k := range undecoded {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%w %s: unknown keys %s", ErrLadder, name, strings.Join(keys, ", "))
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrLadder, name, err)
	}
	return &l, nil
}

// LoadLadder reads the ladder file at path.
func LoadLadder(path string) (*Ladder, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rating: ladder: %w", err)
	}
	defer f.Close()
	return ReadLadder(f, path)
}

// Validate checks that the ladder can rate: a known game, a scale name, at
// least two anchors, each either a player or an engine level (never both),
// finite ratings in increasing order, engine anchors rated at their
// UCI_Elo, an engine when there are engine anchors, and no anchor twice.
func (l *Ladder) Validate() error {
	switch l.Game {
	case "draughts", "chess", "xiangqi":
	default:
		return fmt.Errorf("game %q: want draughts, chess or xiangqi", l.Game)
	}
	if strings.TrimSpace(l.Scale) == "" {
		return errors.New("no scale name")
	}
	if len(l.Anchors) < 2 {
		return fmt.Errorf("%d anchors: a ladder needs at least two", len(l.Anchors))
	}
	seen := make(map[string]bool)
	for i, a := range l.Anchors {
		at := fmt.Sprintf("anchor %d", i+1)
		switch {
		case (a.Player == "") == (a.EngineElo == 0):
			return fmt.Errorf("%s: set exactly one of player and engine_elo", at)
		case a.EngineElo < 0:
			return fmt.Errorf("%s: engine_elo %d is negative", at, a.EngineElo)
		case a.EngineElo > 0 && l.Engine == "":
			return fmt.Errorf("%s: engine_elo needs the ladder's engine", at)
		case a.EngineElo > 0 && a.Elo != float64(a.EngineElo):
			return fmt.Errorf("%s: an engine anchor's elo is its engine_elo %d, not %v", at, a.EngineElo, a.Elo)
		case math.IsNaN(a.Elo) || math.IsInf(a.Elo, 0) || math.Abs(a.Elo) > 10000:
			return fmt.Errorf("%s: elo %v is out of range", at, a.Elo)
		case a.HalfWidth < 0 || math.IsNaN(a.HalfWidth):
			return fmt.Errorf("%s: ci %v is negative", at, a.HalfWidth)
		case i > 0 && a.Elo < l.Anchors[i-1].Elo:
			return fmt.Errorf("%s (%s, %.0f): anchors must be listed weakest first", at, a.Name(l.Engine), a.Elo)
		}
		name := a.Name(l.Engine)
		if seen[name] {
			return fmt.Errorf("%s: %s appears twice", at, name)
		}
		seen[name] = true
	}
	if l.OpeningPlies < 0 || l.OpeningPlies > 40 || l.MaxMoves < 0 {
		return fmt.Errorf("opening_plies %d, max_moves %d: want 0..40 and 0 or more", l.OpeningPlies, l.MaxMoves)
	}
	for name, value := range l.EngineOptions {
		if name == "" || strings.ContainsAny(name+value, ":=") {
			return fmt.Errorf("engine option %q = %q: names and values cannot hold ':' or '='", name, value)
		}
	}
	if l.Engine == "" && !seen[l.Origin] {
		return fmt.Errorf("origin %q: a ladder without an engine needs one of its players as its origin", l.Origin)
	}
	if l.TC != "" {
		if _, _, err := ParseTC(l.TC); err != nil {
			return err
		}
	}
	return nil
}

// Write writes the ladder as TOML, with header, a comment block to put
// above it (each line prefixed with "# ").
func (l *Ladder) Write(w io.Writer, header string) error {
	var buf bytes.Buffer
	for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		buf.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	buf.WriteString("\n")
	enc := toml.NewEncoder(&buf)
	enc.Indent = ""
	if err := enc.Encode(l); err != nil {
		return fmt.Errorf("rating: write ladder: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Untimed is how ratings name the absence of a time control: games at
// the players' fixed depths and playouts.
const Untimed = "untimed"

// TCName returns tc, or Untimed for none ("").
func TCName(tc string) string {
	if tc == "" {
		return Untimed
	}
	return tc
}

// Clock returns the ladder's time control as a tournament clock (the zero
// Clock, untimed games, when it has none).
func (l *Ladder) Clock() (tournament.Clock, error) {
	if l.TC == "" {
		return tournament.Clock{}, nil
	}
	base, inc, err := ParseTC(l.TC)
	if err != nil {
		return tournament.Clock{}, err
	}
	return tournament.Clock{Base: time.Duration(base * float64(time.Second)), Inc: time.Duration(inc * float64(time.Second))}, nil
}

// ParseTC reads a time control "BASE+INC" in seconds, as in 10+0.1.
func ParseTC(tc string) (base, inc float64, err error) {
	baseText, incText, _ := strings.Cut(tc, "+")
	base, err1 := strconv.ParseFloat(baseText, 64)
	var err2 error
	if incText != "" {
		inc, err2 = strconv.ParseFloat(incText, 64)
	}
	if err1 != nil || err2 != nil || base <= 0 || inc < 0 || base > 86400 || inc > 3600 || math.IsNaN(base) || math.IsNaN(inc) {
		return 0, 0, fmt.Errorf("time control %q: want BASE+INC in seconds, as in 10+0.1", tc)
	}
	return base, inc, nil
}

//go:embed ladders/*.toml
var ladderFiles embed.FS

// DefaultLadder returns the ladder the repository ships for game, read
// from rating/ladders/GAME.toml as it was built into the program.
func DefaultLadder(game string) (*Ladder, error) {
	data, err := ladderFiles.ReadFile("ladders/" + game + ".toml")
	if err != nil {
		return nil, fmt.Errorf("rating: no built-in ladder for %q (known: %s)", game, strings.Join(LadderGames(), ", "))
	}
	l, err := ReadLadder(bytes.NewReader(data), "rating/ladders/"+game+".toml")
	if err != nil {
		return nil, err
	}
	if l.Game != game {
		return nil, fmt.Errorf("%w rating/ladders/%s.toml: it rates %s", ErrLadder, game, l.Game)
	}
	return l, nil
}

// LadderGames lists the games with a built-in ladder.
func LadderGames() []string {
	entries, _ := ladderFiles.ReadDir("ladders")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	slices.Sort(out)
	return out
}

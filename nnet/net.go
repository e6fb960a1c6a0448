// Package nnet provides the evolved agents' genomes: dense feed-forward
// neural nets with tanh activations, their Blondie24 variation operators
// (mutation, self-adaptive mutation, node-swap crossover), per-game input
// encodings with fast incremental evaluators, and (de)serialisation.
//
// A Net is a value-like genome: mutation and crossover return new nets and
// never change their arguments, so a Net may be shared between goroutines
// as long as nobody writes to it (only the decoders, UnmarshalBinary and
// UnmarshalJSON, write to their receiver). An
// evaluator (DraughtsEval) is built once per net, is immutable and is shared
// read-only by every search using that net; the mutable per-search state
// (DraughtsAccumulator, EvalCache) belongs to one goroutine.
//
// All randomness comes from a *rand.Rand that the caller passes in, and all
// arithmetic is written so that results are bit-identical on every machine,
// as the GA's checkpoints and resumed runs require: no fused multiply-add
// (tanh.go), a fixed order of summation (kernels.go, kernels32.go) that the
// vector kernels follow lane by lane (kernels32_amd64.s), and exact int32
// sums in the accumulators (DraughtsEval, ChessEval, XiangqiEval).
//
// Draughts evaluation follows Chellapilla and Fogel's Blondie24: 91 inputs,
// the sums over every 3x3 to 8x8 sub-square of the board (see DraughtsInputs),
// then hidden layers of 40 and 10 nodes and one output in (-1, 1). The first
// layer is folded into a 32-square linear map and updated per move, as NNUE
// engines do (see DraughtsAccumulator).
//
// Chess evaluation (ChessEval, see chess.go) takes 768 one-hot
// piece-square inputs, seen from the evaluated player's side, through
// hidden layers (768-32-8-1, say) to one output in (-1, 1), and adds it to
// the material balance counted with evolvable piece values that start at
// 1, 3, 3, 5 and 9 pawns (EvolvePieceValues); its first layer is a sparse
// sum of columns kept per ply (see ChessAccumulator).
//
// Xiangqi evaluation (XiangqiEval, see xiangqi.go) is built the same way on
// 1260 one-hot piece-point inputs (1260-32-8-1, say), with six evolvable
// piece values, advisor to soldier, that start at 1.1, 1.1, 3, 6, 5 and 0.7
// (see XiangqiAccumulator).
package nnet

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Flags selects the optional Blondie24 extras of a Net. The bits are part of
// the serialised formats; a reader rejects bits it does not know (ErrFlags),
// and a new extra takes a new bit.
type Flags uint32

const (
	// PieceDiff feeds a value computed outside the net, for draughts the
	// piece differential (own material minus the opponent's, men 1 and kings
	// K), straight to each output node through one extra evolvable weight per
	// output node.
	PieceDiff Flags = 1 << iota
	// EvolveKing makes the king value K evolvable: mutation sets
	// K' = K*exp(N(0,1)/sqrt(2)) clamped to [MinKing, MaxKing]. Without it K
	// keeps its value (DefaultKing unless set otherwise).
	EvolveKing
	// SelfAdaptive gives every weight its own mutation step size sigma,
	// mutated log-normally before the weight (see Net.Mutated).
	SelfAdaptive
	// EvolvePieceValues makes the piece values of the net's game
	// evolvable: the genome carries them as more weights, after every other
	// weight. A xiangqi net (NumXiangqiInputs inputs) carries
	// NumXiangqiPieceValues, the values of advisor, elephant, horse,
	// chariot, cannon and soldier, starting from
	// ClassicXiangqiPieceValues; every other net carries NumPieceValues,
	// the chess values of pawn, knight, bishop, rook and queen, starting
	// from ClassicPieceValues (draughts encodings ignore them). They are
	// weights like the others for mutation (the same step, or their own
	// sigma with SelfAdaptive), and node-swap crossover never swaps them,
	// so a child has the piece values of the parent it is a copy of.
	// Without it a net's piece values are its game's classic ones.
	EvolvePieceValues
	// EvolvePST gives a chess or xiangqi net evolvable piece-square tables
	// beside the net, as Blondie25 did: more weights, in pawns, before the
	// piece values; NumPSTValues for chess (see PSTIndex), starting from
	// ClassicPST, NumXiangqiPSTValues for xiangqi (see XiangqiPSTIndex),
	// starting from ClassicXiangqiPST. A piece of pov's on a square adds
	// its table's value, a piece of the opponent's subtracts the value of
	// the mirrored square, so the tables see every piece from its own
	// side. They mutate like the other weights, and a crossover child has
	// the tables of the parent it is a copy of. Chess and xiangqi nets
	// only.
	EvolvePST
	// EvolveTerms gives a chess net NumBasicChessTerms evolvable positional
	// terms beside the net (mobility, the bishop pair, pawn structure, rooks
	// on open files, the king's shelter and attacks on it; see
	// ChessTermNames), as Blondie25's hand-made features were, each
	// stored in units of its textbook value and starting at 0: more
	// weights, after the piece-square tables and before the piece values.
	// Mutation steps them by their own uniform step (see
	// Net.MutatedByParts), and a crossover child has the terms of the
	// parent it is a copy of. A xiangqi net gets NumXiangqiTerms of its own
	// (mobility, control, hanging pieces, the tempo, hollow cannons; see
	// XiangqiTermNames). Chess and xiangqi nets only.
	EvolveTerms
	// EvolveMoreTerms, with EvolveTerms, adds the positional terms after
	// the basic ones, up to NumChessTerms (threats to pieces, hanging
	// pieces, rooks on the seventh, outposts, the tempo, passed pawns in
	// the endgame, king attackers, connected pawns; see ChessTermNames),
	// stored after the basic terms and treated as they are. A xiangqi net
	// gets NumXiangqiTerms - NumBasicXiangqiTerms more (threats to pieces,
	// attackers of the enemy palace, those attackers against missing
	// defenders, connected soldiers; see XiangqiTermNames).
	EvolveMoreTerms
	// TaperedTerms, with EvolveTerms on a chess net, gives every positional
	// term two weights, one for the middlegame and one for the endgame,
	// blended by the game's phase as engines taper their evaluations: a
	// count is worth (mg*phase + eg*(24-phase))/24 of its unit, phase as
	// in the term of passed pawns in the endgame (24 with every piece on
	// the board, 0 with none). The middlegame weights are stored first,
	// then the endgame ones, both starting at 0, so a term can be worth
	// one thing with queens on and another in the ending, which one weight
	// cannot.
	TaperedTerms
	// EvolveKingDanger, with EvolveMoreTerms, adds NumKingDangerTerms
	// terms after the more terms: a table of what each king attack count
	// is worth (see ChessTermNames), so king safety can grow non-linearly
	// with the attack, 0 everywhere at first.
	EvolveKingDanger
	// TaperedTables, with EvolvePST on a chess net, gives the piece-square
	// tables a middlegame and an endgame half, blended by the game's phase
	// as TaperedTerms blends the terms: a piece on a square is worth
	// (mg*phase + eg*(24-phase))/24 of its two entries. The middlegame
	// tables are stored first (NumPSTValues, starting at ClassicPST), then
	// the endgame ones (NumPSTValues more, starting at ClassicEndgamePST:
	// the same but for the king, which Michniewski's endgame table sends
	// to the centre). An endgame table that moves as a whole moves its
	// piece's endgame value, so the piece values taper too.
	TaperedTables
	// Perspective makes a chess net of sizes [NumChessInputs, N, 1] (or a
	// xiangqi net of sizes [NumXiangqiInputs, N, 1], or a draughts net of
	// sizes [NumDraughtsPerspectiveInputs, N, 1]) a
	// perspective net (see PerspectiveNet) instead of a tanh net: its
	// first layer is the feature transformer, node h's incoming weights
	// (row h) being the column of sum h, shared by both points of view,
	// and its output layer has 2N incoming weights, those of the side to
	// move's clipped sums, then those of the other side's, and a bias; no
	// tanh anywhere. N is 1 to MaxPerspectiveHidden. The value it adds to
	// the material (and the tables and terms) is the quantized net's, in
	// centipawns (see Net.Perspective, ChessEval and XiangqiEval); a
	// draughts net's value is the quantized net's alone, in the Blondie
	// net's units (see DraughtsEval). Not with PieceDiff.
	Perspective

	// knownFlags holds every bit defined above.
	knownFlags = PieceDiff | EvolveKing | SelfAdaptive | EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms | TaperedTerms | EvolveKingDanger | TaperedTables | Perspective
)

// flagNames are the names of the flags in JSON, by bit.
var flagNames = [...]string{"piece-diff", "evolve-king", "self-adaptive", "evolve-piece-values", "evolve-pst", "evolve-terms", "evolve-more-terms", "tapered-terms", "evolve-king-danger", "tapered-tables", "perspective"}

// String returns the names of the set flags joined by "|", or "none".
func (f Flags) String() string {
	if f == 0 {
		return "none"
	}
	s := ""
	for i, name := range flagNames {
		if f&(1<<i) != 0 {
			if s != "" {
				s += "|"
			}
			s += name
		}
	}
	if unknown := f &^ knownFlags; unknown != 0 {
		if s != "" {
			s += "|"
		}
		s += fmt.Sprintf("%#x", uint32(unknown))
	}
	return s
}

// Default values and limits of the genome's parameters, after Blondie24.
const (
	// DefaultKing is the value of a king relative to a man, K, in the
	// draughts encoding, and the starting value when K evolves.
	DefaultKing = 1.5
	// MinKing is the smallest value an evolving K takes.
	MinKing = 1.0
	// MaxKing is the largest value an evolving K takes.
	MaxKing = 3.0
	// DefaultSigma is the initial self-adaptive step size of every weight.
	DefaultSigma = 0.05
	// InitRange is the half-width of the uniform distribution that Random
	// draws the initial weights from: [-InitRange, InitRange].
	InitRange = 0.2
)

// Limits on architectures, so that a corrupt or hostile file cannot make a
// reader allocate without bound.
const (
	// MaxLayers is the largest number of layers (inputs and output included).
	MaxLayers = 64
	// MaxLayerSize is the largest number of nodes in a layer.
	MaxLayerSize = 1 << 16
	// MaxWeights is the largest number of weights (biases included) of a net.
	MaxWeights = 1 << 24
)

// Sentinel errors. Functions wrap them with the operation and the details
// (fmt.Errorf with %w), so test for them with errors.Is.
var (
	// ErrArchitecture reports layer sizes or flags that are invalid, or
	// that do not fit the use (crossover of different architectures, a
	// draughts evaluator for a net without 91 inputs).
	ErrArchitecture = errors.New("nnet: bad architecture")
	// ErrFlags reports flag bits or names this version does not know.
	ErrFlags = errors.New("nnet: unknown flags")
	// ErrValue reports a parameter out of its domain: a weight or sigma
	// that is not finite, a negative sigma, a king value that is not a
	// positive finite number.
	ErrValue = errors.New("nnet: bad parameter value")
	// ErrMagic reports data that does not start with the net format's magic bytes.
	ErrMagic = errors.New("nnet: not a net (bad magic)")
	// ErrVersion reports a format version this reader does not support.
	ErrVersion = errors.New("nnet: unsupported format version")
	// ErrTruncated reports data that ends before the net does.
	ErrTruncated = errors.New("nnet: truncated data")
	// ErrChecksum reports a CRC-32 that does not match the data.
	ErrChecksum = errors.New("nnet: checksum mismatch")
	// ErrCorrupt reports data that is well-framed but inconsistent: a weight
	// count that does not match the architecture, trailing bytes, bad JSON.
	ErrCorrupt = errors.New("nnet: corrupt data")
)

// Net is a dense feed-forward net with tanh activations everywhere, output
// included: the genome of one agent.
//
// Its parameters, called weights throughout (biases are weights too), are
// stored in one slice in this order, which the serialised formats keep: for
// each layer l = 1 .. L-1 (layer 0 being the inputs), the sizes[l] x
// sizes[l-1] matrix of the weights into layer l, row by row (row i holds the
// incoming weights of node i, so a node's incoming weights are contiguous),
// then the sizes[l] biases of layer l; then, with PieceDiff, one direct
// weight per output node; then, with EvolvePST, the piece-square
// tables of the net's game (see PSTIndex and XiangqiPSTIndex); then, with EvolvePieceValues, the piece values
// of the net's game (NumPieceValues for chess, NumXiangqiPieceValues for
// xiangqi; see PieceValueIndex). With
// SelfAdaptive every weight has a step size sigma, in a slice of the same
// length and order.
//
// The zero Net is not usable; make one with New or Random, or decode one
// (ReadNet, UnmarshalBinary, UnmarshalJSON). Apart from the decoders, no
// function of this package modifies a Net it is given.
type Net struct {
	sizes  []int     // layer sizes, inputs first; len >= 2
	flags  Flags     // the extras
	king   float64   // K, used by game encodings
	w      []float64 // the weights, in the order documented above
	sigma  []float64 // per-weight step sizes with SelfAdaptive, else nil
	offset []int     // offset[l-1] is where layer l's weight matrix starts in w
}

// New returns a net with the given layer sizes (inputs first, output last;
// at least two layers) and flags, all weights zero except the piece values
// (with EvolvePieceValues: ClassicXiangqiPieceValues for a xiangqi net,
// ClassicPieceValues for any other) and the tables of EvolvePST
// (ClassicPST or ClassicXiangqiPST; with TaperedTables, ClassicPST then
// ClassicEndgamePST), K = DefaultKing and, with
// SelfAdaptive, every sigma DefaultSigma.
func New(sizes []int, flags Flags) (*Net, error) {
	n := &Net{sizes: slices.Clone(sizes), flags: flags, king: DefaultKing}
	count, err := n.layout()
	if err != nil {
		return nil, fmt.Errorf("new net %v: %w", sizes, err)
	}
	n.w = make([]float64, count)
	copy(n.pieceValues(), defaultPieceValues(n.sizes[0]))
	if t := n.pst(); t != nil {
		copy(t, defaultPST(n.sizes[0]))
		if flags&TaperedTables != 0 {
			eg := ClassicEndgamePST()
			copy(t[NumPSTValues:], eg[:])
		}
	}
	if flags&SelfAdaptive != 0 {
		n.sigma = make([]float64, count)
		for i := range n.sigma {
			n.sigma[i] = DefaultSigma
		}
	}
	return n, nil
}

// Random returns a net like New's with every weight drawn uniformly from
// [-InitRange, InitRange], as Blondie24 initialised its population, except
// the piece values of EvolvePieceValues, which start at their game's
// classic values (as New's) so that generation 0 already counts material,
// the tables of EvolvePST, which start as New's (rounded to float32, as
// every value of a random net), and the positional terms of EvolveTerms,
// which start at 0. It draws exactly one value from rng per weight of the
// net's own (the layers' weights and biases and PieceDiff's direct
// weights) in storage order, and none for the tables, terms and piece
// values after them. A Perspective net's output weights and bias are
// then scaled by 1/sqrt(2N), N its width. Every value is then rounded to the nearest float32,
// as the variation operators round theirs (see Float32Exact).
func Random(sizes []int, flags Flags, rng *rand.Rand) (*Net, error) {
	n, err := New(sizes, flags)
	if err != nil {
		return nil, err
	}
	random := n.w[:len(n.w)-len(n.pieceValues())-len(n.terms())-len(n.pst())]
	for i := range random {
		random[i] = float64(rng.Float64()*(2*InitRange)) - InitRange
	}
	if flags&Perspective != 0 {
		// The output sums 2N clipped sums: scaled by 1/sqrt(2N), its
		// weights keep a random net's value within a few tenths of a
		// pawn at any width, as a tanh net's output is.
		last := len(n.sizes) - 1
		scale := 1 / math.Sqrt(float64(n.fanIn(last)))
		for i := n.offset[last-1]; i <= n.BiasIndex(last, 0); i++ {
			random[i] = float64(random[i] * scale)
		}
	}
	// Like every value the variation operators make, the values of a
	// random net are float32s (see Float32Exact).
	for i := range n.w {
		n.w[i] = round32(n.w[i])
	}
	for i := range n.sigma {
		n.sigma[i] = round32(n.sigma[i])
	}
	n.king = round32(n.king)
	return n, nil
}

// layout checks the sizes and flags of n, fills n.offset and returns the
// number of weights.
func (n *Net) layout() (int, error) {
	if len(n.sizes) < 2 || len(n.sizes) > MaxLayers {
		return 0, fmt.Errorf("%w: %d layers, want 2 to %d", ErrArchitecture, len(n.sizes), MaxLayers)
	}
	if unknown := n.flags &^ knownFlags; unknown != 0 {
		return 0, fmt.Errorf("%w: %#x", ErrFlags, uint32(unknown))
	}
	if err := n.checkPerspective(); err != nil {
		return 0, err
	}
	n.offset = make([]int, len(n.sizes)-1)
	var count int64 // int64: layer products overflow a 32-bit int before the check
	for l, size := range n.sizes {
		if size < 1 || size > MaxLayerSize {
			return 0, fmt.Errorf("%w: layer %d has %d nodes, want 1 to %d", ErrArchitecture, l, size, MaxLayerSize)
		}
		if l > 0 {
			n.offset[l-1] = int(count)
			count += int64(size) * int64(n.fanIn(l)+1)
		}
		if l == len(n.sizes)-1 && n.flags&PieceDiff != 0 {
			count += int64(size)
		}
		if l == len(n.sizes)-1 && n.flags&EvolvePST != 0 {
			if pstCount(n.sizes[0]) == 0 {
				return 0, fmt.Errorf("%w: %v on a net of %d inputs: piece-square tables are for chess (%d inputs) and xiangqi (%d inputs) nets",
					ErrArchitecture, EvolvePST, n.sizes[0], NumChessInputs, NumXiangqiInputs)
			}
			count += int64(n.pstWeights())
		}
		if l == len(n.sizes)-1 && n.flags&TaperedTables != 0 && (n.flags&EvolvePST == 0 || n.sizes[0] != NumChessInputs) {
			return 0, fmt.Errorf("%w: %v on a net of %d inputs with flags %v: the tapered tables are %v's on chess nets (%d inputs)",
				ErrArchitecture, TaperedTables, n.sizes[0], n.flags, EvolvePST, NumChessInputs)
		}
		if l == len(n.sizes)-1 && n.flags&EvolveTerms != 0 {
			if n.sizes[0] != NumChessInputs && n.sizes[0] != NumXiangqiInputs {
				return 0, fmt.Errorf("%w: %v on a net of %d inputs: positional terms are for chess (%d inputs) and xiangqi (%d inputs) nets",
					ErrArchitecture, EvolveTerms, n.sizes[0], NumChessInputs, NumXiangqiInputs)
			}
			count += int64(n.termWeights())
		}
		if l == len(n.sizes)-1 && n.flags&EvolveKingDanger != 0 && (n.flags&EvolveMoreTerms == 0 || n.flags&EvolveTerms == 0 || n.sizes[0] != NumChessInputs) {
			return 0, fmt.Errorf("%w: %v on a net of %d inputs with flags %v: the king danger table follows %v on chess nets (%d inputs)",
				ErrArchitecture, EvolveKingDanger, n.sizes[0], n.flags, EvolveMoreTerms, NumChessInputs)
		}
		if l == len(n.sizes)-1 && n.flags&TaperedTerms != 0 && (n.flags&EvolveTerms == 0 || n.sizes[0] != NumChessInputs) {
			return 0, fmt.Errorf("%w: %v on a net of %d inputs with flags %v: the tapered terms are %v's on chess nets (%d inputs)",
				ErrArchitecture, TaperedTerms, n.sizes[0], n.flags, EvolveTerms, NumChessInputs)
		}
		if l == len(n.sizes)-1 && n.flags&EvolveMoreTerms != 0 && (n.flags&EvolveTerms == 0 || n.sizes[0] != NumChessInputs && n.sizes[0] != NumXiangqiInputs) {
			return 0, fmt.Errorf("%w: %v on a net of %d inputs with flags %v: the more terms follow %v on chess (%d inputs) and xiangqi (%d inputs) nets",
				ErrArchitecture, EvolveMoreTerms, n.sizes[0], n.flags, EvolveTerms, NumChessInputs, NumXiangqiInputs)
		}
		if l == len(n.sizes)-1 && n.flags&EvolvePieceValues != 0 {
			count += int64(pieceValueCount(n.sizes[0]))
		}
		if count > MaxWeights {
			return 0, fmt.Errorf("%w: more than %d weights", ErrArchitecture, MaxWeights)
		}
	}
	return int(count), nil
}

// checkPerspective checks the sizes and flags of a net with Perspective:
// [NumChessInputs, N, 1] (or the xiangqi or draughts perspective inputs),
// N at most MaxPerspectiveHidden, no PieceDiff.
func (n *Net) checkPerspective() error {
	if n.flags&Perspective == 0 {
		return nil
	}
	if len(n.sizes) != 3 || perspectiveSquares(n.sizes[0]) == 0 || n.sizes[2] != 1 || n.sizes[1] < 1 || n.sizes[1] > MaxPerspectiveHidden || n.flags&PieceDiff != 0 {
		return fmt.Errorf("%w: %v on sizes %v with flags %v: a perspective net is a chess, xiangqi or draughts net of sizes [%d N 1], [%d N 1] or [%d N 1], N 1 to %d, without %v",
			ErrArchitecture, Perspective, n.sizes, n.flags, NumChessInputs, NumXiangqiInputs, NumDraughtsPerspectiveInputs, MaxPerspectiveHidden, PieceDiff)
	}
	return nil
}

// fanIn returns the number of incoming weights of each node of layer l
// (1 <= l < len(sizes)): the size of layer l-1, twice that for the output
// of a perspective net, which sees both points of view's sums.
func (n *Net) fanIn(l int) int {
	if l == len(n.sizes)-1 && n.flags&Perspective != 0 {
		return 2 * n.sizes[l-1]
	}
	return n.sizes[l-1]
}

// pieceValueCount returns the number of piece values that EvolvePieceValues
// adds to a net with the given number of inputs. The inputs tell which
// game a net encodes, and the game which pieces have values: a xiangqi net
// (NumXiangqiInputs) has NumXiangqiPieceValues, every other net
// NumPieceValues, as every net had before xiangqi nets existed, so that the
// layout (and the serialised form) of every chess and draughts genome is
// unchanged.
func pieceValueCount(inputs int) int {
	if inputs == NumXiangqiInputs {
		return NumXiangqiPieceValues
	}
	return NumPieceValues
}

// defaultPieceValues returns the classic piece values of the game of a net
// with the given number of inputs, pieceValueCount(inputs) of them.
func defaultPieceValues(inputs int) []float64 {
	if inputs == NumXiangqiInputs {
		v := ClassicXiangqiPieceValues()
		return v[:]
	}
	v := ClassicPieceValues()
	return v[:]
}

// pieceValues returns the evolvable piece values of n, the last
// pieceValueCount weights, aliasing n.w; nil without EvolvePieceValues.
func (n *Net) pieceValues() []float64 {
	if n.flags&EvolvePieceValues == 0 {
		return nil
	}
	return n.w[len(n.w)-pieceValueCount(n.sizes[0]):]
}

// pst returns the piece-square tables of EvolvePST, the pstWeights
// weights before the terms and piece values (with TaperedTables the
// middlegame's, then the endgame's), aliasing n.w; nil without EvolvePST.
func (n *Net) pst() []float64 {
	if n.flags&EvolvePST == 0 {
		return nil
	}
	end := len(n.w) - len(n.pieceValues()) - len(n.terms())
	return n.w[end-n.pstWeights() : end]
}

// pstWeights returns the number of the tables' weights: pstCount of the
// net's inputs, twice that with TaperedTables.
func (n *Net) pstWeights() int {
	if n.flags&TaperedTables != 0 {
		return 2 * pstCount(n.sizes[0])
	}
	return pstCount(n.sizes[0])
}

// terms returns the positional terms' weights of EvolveTerms, the
// termWeights weights before the piece values (with TaperedTerms the
// middlegame's, then the endgame's), aliasing n.w; nil without
// EvolveTerms.
func (n *Net) terms() []float64 {
	if n.flags&EvolveTerms == 0 {
		return nil
	}
	end := len(n.w) - len(n.pieceValues())
	return n.w[end-n.termWeights() : end]
}

// termWeights returns the number of the terms' weights: TermCount, twice
// that with TaperedTerms.
func (n *Net) termWeights() int {
	if n.flags&TaperedTerms != 0 {
		return 2 * n.TermCount()
	}
	return n.TermCount()
}

// TermCount returns the number of n's positional terms: 0 without
// EvolveTerms, NumXiangqiTerms for a xiangqi net with EvolveMoreTerms,
// NumBasicXiangqiTerms without, NumChessTerms for a
// chess net with EvolveMoreTerms and EvolveKingDanger, NumMoreChessTerms
// with EvolveMoreTerms alone, otherwise NumBasicChessTerms.
func (n *Net) TermCount() int {
	switch {
	case n.flags&EvolveTerms == 0:
		return 0
	case n.isXiangqi() && n.flags&EvolveMoreTerms != 0:
		return NumXiangqiTerms
	case n.isXiangqi():
		return NumBasicXiangqiTerms
	case n.flags&EvolveMoreTerms != 0 && n.flags&EvolveKingDanger != 0:
		return NumChessTerms
	case n.flags&EvolveMoreTerms != 0:
		return NumMoreChessTerms
	}
	return NumBasicChessTerms
}

// isXiangqi reports whether n's inputs are those of the xiangqi encoding.
func (n *Net) isXiangqi() bool { return n.sizes[0] == NumXiangqiInputs }

// validate checks the parameter values of a net whose layout is known.
func (n *Net) validate() error {
	if math.IsNaN(n.king) || math.IsInf(n.king, 0) || n.king <= 0 {
		return fmt.Errorf("%w: king value %v", ErrValue, n.king)
	}
	for i, w := range n.w {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("%w: weight %d is %v", ErrValue, i, w)
		}
	}
	for i, s := range n.sigma {
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			return fmt.Errorf("%w: sigma %d is %v", ErrValue, i, s)
		}
	}
	return nil
}

// Sizes returns a copy of the layer sizes, inputs first.
func (n *Net) Sizes() []int { return slices.Clone(n.sizes) }

// Flags returns the net's extras.
func (n *Net) Flags() Flags { return n.flags }

// King returns K, the value of a king relative to a man in game encodings.
func (n *Net) King() float64 { return n.king }

// WithKing returns a copy of n with K set to k, which must be positive and
// finite.
func (n *Net) WithKing(k float64) (*Net, error) {
	c := n.Clone()
	c.king = k
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("set king value: %w", err)
	}
	return c, nil
}

// NumWeights returns the number of weights, biases and direct weights
// included: the K of the mutation formula.
func (n *Net) NumWeights() int { return len(n.w) }

// Weights returns a copy of all weights in storage order (see Net).
func (n *Net) Weights() []float64 { return slices.Clone(n.w) }

// Sigmas returns a copy of the per-weight step sizes in storage order, or
// nil without SelfAdaptive.
func (n *Net) Sigmas() []float64 { return slices.Clone(n.sigma) }

// WithWeights returns a copy of n with the given weights (storage order,
// NumWeights of them, finite). It is how hand-made nets (baselines, tests)
// are built.
func (n *Net) WithWeights(w []float64) (*Net, error) {
	if len(w) != len(n.w) {
		return nil, fmt.Errorf("set weights: %w: %d weights, want %d", ErrArchitecture, len(w), len(n.w))
	}
	c := n.Clone()
	copy(c.w, w)
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("set weights: %w", err)
	}
	return c, nil
}

// WeightIndex returns the storage index of the weight from node from of
// layer l-1 into node to of layer l (1 <= l < len(Sizes)). Into the
// output of a Perspective net, from counts the side to move's sums 0 to
// N-1, then the other side's N to 2N-1.
func (n *Net) WeightIndex(l, to, from int) int {
	return n.offset[l-1] + to*n.fanIn(l) + from
}

// BiasIndex returns the storage index of the bias of node i of layer l
// (1 <= l < len(Sizes)).
func (n *Net) BiasIndex(l, i int) int {
	return n.offset[l-1] + n.sizes[l]*n.fanIn(l) + i
}

// DirectIndex returns the storage index of the direct (PieceDiff) weight
// into output node i: right after the output layer's biases. It is
// meaningful only with PieceDiff.
func (n *Net) DirectIndex(i int) int {
	last := len(n.sizes) - 1
	return n.BiasIndex(last, 0) + n.sizes[last] + i
}

// Quieted returns a copy of n whose output layer's weights and biases are
// 0, so that the net's output is Tanh(0) = 0 (plus, with PieceDiff, the
// direct weight's term, which it keeps): a chess or xiangqi net then
// evaluates by its piece values, tables and terms alone, and a draughts
// net with PieceDiff by the piece difference. The hidden layers keep their
// weights, so the net's say grows back from 0 as mutation moves the output
// layer and selection keeps what helps.
func (n *Net) Quieted() *Net {
	c := n.Clone()
	last := len(c.sizes) - 1
	from := c.offset[last-1]
	clear(c.w[from : from+c.sizes[last]*(c.fanIn(last)+1)])
	return c
}

// Clone returns a deep copy of n.
func (n *Net) Clone() *Net {
	return &Net{
		sizes:  slices.Clone(n.sizes),
		flags:  n.flags,
		king:   n.king,
		w:      slices.Clone(n.w),
		sigma:  slices.Clone(n.sigma),
		offset: slices.Clone(n.offset),
	}
}

// Equal reports whether n and m are the same genome: the same
// architecture, flags, K, weights and sigmas, compared bit for bit (so a
// weight of -0 differs from one of +0, as it does in the binary format).
func (n *Net) Equal(m *Net) bool {
	if !slices.Equal(n.sizes, m.sizes) || n.flags != m.flags ||
		math.Float64bits(n.king) != math.Float64bits(m.king) ||
		len(n.w) != len(m.w) || len(n.sigma) != len(m.sigma) {
		return false
	}
	for i := range n.w {
		if math.Float64bits(n.w[i]) != math.Float64bits(m.w[i]) {
			return false
		}
	}
	for i := range n.sigma {
		if math.Float64bits(n.sigma[i]) != math.Float64bits(m.sigma[i]) {
			return false
		}
	}
	return true
}

// Forward computes the net's outputs for the inputs in and appends them to
// dst; len(in) must be Sizes()[0], or Forward panics. direct is the value
// fed straight to the output nodes with PieceDiff (for draughts, the piece
// differential); it is ignored otherwise. Node i of layer l computes
// tanh(dot(row i, previous layer) + bias i [+ direct weight * direct]),
// in the order of operations documented at affine.
//
// Forward is the plain reference: it allocates. Game evaluators are the
// fast paths. It panics for a Perspective net, which sees the board from
// both sides: its reference is Net.Perspective's PerspectiveNet.Evaluate.
func (n *Net) Forward(dst, in []float64, direct float64) []float64 {
	if n.flags&Perspective != 0 {
		panic("nnet: Forward of a perspective net")
	}
	if len(in) != n.sizes[0] {
		panic(fmt.Sprintf("nnet: Forward with %d inputs, net has %d", len(in), n.sizes[0]))
	}
	a := in
	last := len(n.sizes) - 1
	for l := 1; l <= last; l++ {
		out := make([]float64, n.sizes[l])
		affine(out, n.w[n.WeightIndex(l, 0, 0):], n.w[n.BiasIndex(l, 0):], a)
		if l == last && n.flags&PieceDiff != 0 {
			for i := range out {
				out[i] += float64(n.w[n.DirectIndex(i)] * direct)
			}
		}
		tanhAll(out)
		a = out
	}
	return append(dst, a...)
}

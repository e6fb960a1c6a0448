package nnet_test

import (
	"fmt"
	"math/rand/v2"

	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/nnet"
)

// A search evaluates the positions along its path with one accumulator per
// goroutine, sharing the evaluator; the values equal from-scratch ones.
func ExampleDraughtsAccumulator() {
	rng := rand.New(rand.NewPCG(1, 2))
	net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff, rng)
	if err != nil {
		panic(err)
	}
	eval, err := nnet.NewDraughtsEval(net)
	if err != nil {
		panic(err)
	}
	acc := eval.NewAccumulator()
	root := draughts.Start()
	acc.Reset(root)
	for _, m := range root.Moves(nil)[:3] {
		p := root.Play(m)
		acc.Push(p)
		v := acc.Evaluate(p.Side) // for the side to move, as negamax wants it
		fmt.Printf("%+.6f %v\n", v, v == eval.Evaluate(p, p.Side))
		acc.Pop()
	}
	// Output:
	// +0.084256 true
	// +0.137543 true
	// +0.184588 true
}

// The GA's offspring: two reciprocal children by node-swap crossover, then
// mutation.
func ExampleCrossover() {
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := []int{nnet.NumDraughtsInputs, 40, 10, 1}
	first, _ := nnet.Random(sizes, nnet.PieceDiff|nnet.EvolveKing|nnet.SelfAdaptive, rng)
	second, _ := nnet.Random(sizes, nnet.PieceDiff|nnet.EvolveKing|nnet.SelfAdaptive, rng)
	child1, child2, node, err := nnet.Crossover(first, second, rng)
	if err != nil {
		panic(err)
	}
	fmt.Println("swapped", node)
	fmt.Println(child1.Mutated(rng).NumWeights(), child2.NumWeights())
	// Output:
	// swapped layer 1 node 39
	// 4102 4102
}

// A xiangqi net's value is the material, in pawns, plus the net's output,
// within one pawn; generation 0 thus already sees a horse lost. A search
// that knows its moves pushes them with PushMove, the fastest way.
func ExampleXiangqiAccumulator() {
	rng := rand.New(rand.NewPCG(5, 6))
	net, err := nnet.RandomXiangqi([]int{32, 8}, nnet.PieceDiff, rng)
	if err != nil {
		panic(err)
	}
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		panic(err)
	}
	acc := eval.NewAccumulator()
	root := xiangqi.Start()
	acc.Reset(root)
	for _, uci := range []string{"h3e3", "b3b10", "h1g3"} {
		m, err := root.ParseUCI(uci)
		if err != nil {
			panic(err)
		}
		acc.PushMove(m)
		p := acc.Position()
		v := acc.Evaluate(p.Side()) // for the side to move, as negamax wants it
		fmt.Printf("%s %+.6f %v\n", uci, v, v == eval.Evaluate(p, p.Side()))
		acc.Pop()
	}
	// Output:
	// h3e3 +0.149611 true
	// b3b10 -3.184158 true
	// h1g3 +0.008328 true
}

package daemon

import (
	"evolved/cluster"
	"evolved/population"
	"evolved/storage"
)

// This file converts between what the daemon's parts hold and the rows
// storage keeps, so that storage knows neither the GA nor the cluster.

// PopulationRows returns st as the rows storage keeps: its agents (with
// their learning settings) and, without their nets, its champions. The rows share st's nets and parent
// lists.
func PopulationRows(st *population.State) storage.Population {
	p := storage.Population{Game: st.Game, Seed: st.Seed, Generation: st.Generation, NextID: st.NextID, Nodes: st.Nodes}
	if st.Agents != nil {
		p.Agents = make([]storage.AgentRow, len(st.Agents))
	}
	for i, a := range st.Agents {
		p.Agents[i] = storage.AgentRow{ID: a.ID, Origin: string(a.Origin), Parents: a.Parents, Node: a.Node, Net: a.Net,
			Recipe: a.Recipe, PastPoints: a.PastPoints, PastGames: a.PastGames}
		if l := a.Learner; l != nil {
			p.Agents[i].Learner = &storage.Learner{Rate: l.Rate, Results: l.Results}
		}
	}
	if st.Champions != nil {
		p.Champions = make([]storage.ChampionRow, len(st.Champions))
	}
	for i, c := range st.Champions {
		p.Champions[i] = storage.ChampionRow{Generation: c.Generation, AgentID: c.AgentID, Fitness: c.Points}
	}
	return p
}

// PopulationState returns the GA's state of the rows p, its champions
// without their nets: the daemon's Env reads them from the database
// (storage.DB.ChampionNet) when a generation plays against them. The
// state shares p's nets and parent lists.
func PopulationState(p storage.Population) *population.State {
	st := &population.State{Game: p.Game, Seed: p.Seed, Generation: p.Generation, NextID: p.NextID, Nodes: p.Nodes}
	if p.Agents != nil {
		st.Agents = make([]population.Agent, len(p.Agents))
	}
	for i, a := range p.Agents {
		st.Agents[i] = population.Agent{ID: a.ID, Net: a.Net, Origin: population.Origin(a.Origin), Parents: a.Parents,
			Node: a.Node, Recipe: a.Recipe, PastPoints: a.PastPoints, PastGames: a.PastGames}
		if l := a.Learner; l != nil {
			st.Agents[i].Learner = &population.Learner{Rate: l.Rate, Results: l.Results}
		}
	}
	if p.Champions != nil {
		st.Champions = make([]population.Champion, len(p.Champions))
	}
	for i, c := range p.Champions {
		st.Champions[i] = population.Champion{Generation: c.Generation, AgentID: c.AgentID, Points: c.Fitness}
	}
	return st
}

// workerRows returns what the coordinator saw of its workers as the rows
// storage adds to their records.
func workerRows(seen []cluster.WorkerGames) []storage.WorkerGames {
	out := make([]storage.WorkerGames, len(seen))
	for i, w := range seen {
		out[i] = storage.WorkerGames{Name: w.Name, Games: w.Games, Refused: w.Refused, First: w.First, Latest: w.Latest}
	}
	return out
}

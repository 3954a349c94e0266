package service

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/benchkit"
	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// BenchmarkOneSceneUnfenced is BenchmarkOneScene with writes that expect
// no revision: 64 agents each moving a box of its own with a Write (as
// update_elements does) on one scene of 1,000 boxes, never refused, their
// commits shared (group commit, group.go); against one agent alone.
// Reported: alone-writes/s, shared-writes/s, shared/alone (goal ≥ 0.8)
// and writes/commit (how many writes a commit carried on average).
func BenchmarkOneSceneUnfenced(b *testing.B) {
	const agents, successes = 64, 32
	s, _ := newTestService(b, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "shared", Elements: boxes(1000)}); err != nil {
		b.Fatal(err)
	}
	var x atomic.Int64
	agent := func(g int, want int64, won *atomic.Int64) error {
		id := fmt.Sprintf("r%d", g)
		for won.Load() < want {
			// Within its own cell of the grid (boxes are 80 wide, 100
			// apart): the agents' boxes never come to overlap.
			ops, err := engine.DecodeOps(updateOf(id, (g%100)*100+int(x.Add(1)%10)))
			if err != nil {
				return err
			}
			if _, err := s.Write(ctx, WriteRequest{Name: "shared"}, func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
				return PlanResult{Targets: []string{id}}, tx.Apply(ops)
			}); err != nil {
				return err
			}
			won.Add(1)
		}
		return nil
	}
	var aloneTime, sharedTime time.Duration
	var aloneN, sharedN, sharedCommits, sharedWrites int64
	b.ResetTimer()
	for b.Loop() {
		var won atomic.Int64
		aloneTime += benchkit.Together(b, 1, func(int) error { return agent(0, successes, &won) })
		aloneN += won.Load()
		won.Store(0)
		commits, writes := s.groups.commits.Load(), s.groups.writes.Load()
		sharedTime += benchkit.Together(b, agents, func(g int) error { return agent(g, successes, &won) })
		sharedN += won.Load()
		sharedCommits += s.groups.commits.Load() - commits
		sharedWrites += s.groups.writes.Load() - writes
	}
	b.StopTimer()
	alone, shared := float64(aloneN)/aloneTime.Seconds(), float64(sharedN)/sharedTime.Seconds()
	b.ReportMetric(alone, "alone-writes/s")
	b.ReportMetric(shared, "shared-writes/s")
	b.ReportMetric(shared/alone, "shared/alone")
	b.ReportMetric(float64(sharedWrites)/float64(max(sharedCommits, 1)), "writes/commit")
}

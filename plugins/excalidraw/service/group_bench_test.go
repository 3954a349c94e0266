package service

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/benchkit"
	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// BenchmarkOneSceneUnfenced is BenchmarkOneScene with writes that expect
// no revision: 64 agents each moving a box of its own with a Write (as
// update_elements does) on one scene of 1,000 boxes, never refused, their
// commits shared (group commit, group.go); against one agent alone.
// Reported: alone-writes/s, shared-writes/s, shared/alone (goal ≥ 0.8),
// conflicts/success (none) and writes/commit (how many writes a commit carried on average).
func BenchmarkOneSceneUnfenced(b *testing.B) {
	const agents, successes = 64, 32
	s, _ := newTestService(b, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "shared", Elements: boxes(1000)}); err != nil {
		b.Fatal(err)
	}
	var x atomic.Int64
	agent := func(g int, want int64, won, _ *atomic.Int64) error {
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
	var commits, writes int64
	benchkit.AloneVsShared(b, agents, successes, agent, func() func() {
		c, w := s.groups.commits.Load(), s.groups.writes.Load()
		return func() { commits, writes = commits+s.groups.commits.Load()-c, writes+s.groups.writes.Load()-w }
	})
	b.ReportMetric(float64(writes)/float64(max(commits, 1)), "writes/commit")
}

package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/benchkit"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Concurrency goals of issue 13, each a ratio against a baseline measured
// in the same benchmark, in alternating rounds (so a machine that slows
// down or speeds up during the run moves both sides alike):
//
//	go test ./plugins/excalidraw/service/ -run '^$' -bench 'Concurrent|OneScene' -benchtime 20x
//
// Each iteration is one round of each side; the figures are totals over
// all rounds. ns/op is the time of one round of both and means little.

// concurrentWriters is how many writers BenchmarkConcurrentWriters runs,
// each on its own scene; writesPerRound how many writes each makes per
// round.
const (
	concurrentWriters = 16
	writesPerRound    = 4
)

// BenchmarkConcurrentWriters is 16 writers on 16 different scenes of
// 1,000 boxes: the disk's rate (each goroutine doing the durable write
// floor of BenchmarkDurableWrite, the bytes a one-element apply stores,
// on its own file in the drawings directory) against dsh's (each doing a
// one-element Service.Apply on its own scene). Reported: disk-writes/s,
// dsh-writes/s and dsh/disk (goal ≥ 0.5).
func BenchmarkConcurrentWriters(b *testing.B) {
	s, dir := newTestService(b, scene.Limits{})
	names := make([]string, concurrentWriters)
	for i := range names {
		names[i] = fmt.Sprintf("w%02d", i)
		if _, err := s.Create(ctx, CreateRequest{Name: names[i], Elements: boxes(1000)}); err != nil {
			b.Fatal(err)
		}
	}
	// The bytes a one-element apply stores.
	if _, err := s.Apply(ctx, ApplyRequest{Name: names[0], ExpectedRevision: 1, Operations: updateX(1)}); err != nil {
		b.Fatal(err)
	}
	data := fileBytes(b, dir, names[0])
	d, err := os.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	revs := make([]int64, concurrentWriters)
	for i := range revs {
		revs[i] = 1
	}
	revs[0] = 2
	var diskTime, dshTime time.Duration
	var diskN, dshN int
	b.ResetTimer()
	for r := 0; b.Loop(); r++ {
		diskTime += benchkit.Floor(b, d, dir, concurrentWriters, writesPerRound, data)
		diskN += concurrentWriters * writesPerRound
		dshTime += benchkit.Together(b, concurrentWriters, func(g int) error {
			for i := range writesPerRound {
				res, err := s.Apply(ctx, ApplyRequest{Name: names[g], ExpectedRevision: revs[g],
					Operations: updateX(r*writesPerRound + i + 2)})
				if err != nil {
					return err
				}
				revs[g] = res.Revision
			}
			return nil
		})
		dshN += concurrentWriters * writesPerRound
	}
	b.StopTimer()
	disk, dsh := float64(diskN)/diskTime.Seconds(), float64(dshN)/dshTime.Seconds()
	b.ReportMetric(disk, "disk-writes/s")
	b.ReportMetric(dsh, "dsh-writes/s")
	b.ReportMetric(dsh/disk, "dsh/disk")
}

// BenchmarkOneScene is 64 agents on one scene of 1,000 boxes, each in a
// loop: read the head revision, apply a one-element change expecting it,
// count a success, start over on a conflict; against one agent alone
// doing the same. Each round runs until the agents together have made
// as many successful writes as the lone agent made in its half of the
// round. Reported: alone-writes/s, shared-writes/s (successful, all
// agents together), shared/alone (goal ≥ 0.8) and conflicts per success.
func BenchmarkOneScene(b *testing.B) {
	const agents, successes = 64, 32
	s, _ := newTestService(b, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "shared", Elements: boxes(1000)}); err != nil {
		b.Fatal(err)
	}
	var x atomic.Int64
	agent := func(_ int, want int64, won, lost *atomic.Int64) error {
		for won.Load() < want {
			h, err := s.Head(ctx, "shared")
			if err != nil {
				return err
			}
			_, err = s.Apply(ctx, ApplyRequest{Name: "shared", ExpectedRevision: h.Revision,
				Operations: updateX(int(x.Add(1)))})
			var se *sceneerr.Error
			switch {
			case err == nil:
				won.Add(1)
			case errors.As(err, &se) && se.Code == sceneerr.RevisionConflict:
				lost.Add(1)
			default:
				return err
			}
		}
		return nil
	}
	benchkit.AloneVsShared(b, agents, successes, agent, nil)
}

// boxes are the inputs of benchN's scene: n rectangles r0, r1, ...
func boxes(n int) []json.RawMessage {
	inputs := make([]json.RawMessage, n)
	for i := range inputs {
		inputs[i] = json.RawMessage(fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":%d,"width":80,"height":40}`, i, (i%100)*100, (i/100)*60))
	}
	return inputs
}

// updateX is BenchmarkApplyOne's operation: box r500 moved to x.
func updateX(x int) []json.RawMessage { return updateOf("r500", x) }

// updateOf is the operation moving box id to x.
func updateOf(id string, x int) []json.RawMessage {
	return []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"op":"update","id":%q,"patch":{"x":%d}}`, id, x))}
}

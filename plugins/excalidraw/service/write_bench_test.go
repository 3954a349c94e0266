package service

import (
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// moveOne is a Write plan that moves one element by dx.
func moveOne(id string, dx float64) Plan {
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		_, err := tx.Move([]string{id}, dx, 0, "/ids")
		return PlanResult{Targets: []string{id}}, err
	}
}

// BenchmarkWriteOneLintTouched is a one-element move on a 1,000-element
// scene through Write with the default lint (the touched region, before
// and after); BenchmarkWriteOneLintOff is the same write without lint, so
// their ratio is what lint costs a write.
func BenchmarkWriteOneLintTouched(b *testing.B) { benchWriteOne(b, LintTouched) }
func BenchmarkWriteOneLintOff(b *testing.B)     { benchWriteOne(b, LintOff) }

// BenchmarkWriteOne10k is the default write (lint of the touched region)
// on a 10,000-element scene: compare BenchmarkApplyOne/10000.
func BenchmarkWriteOne10k(b *testing.B) {
	s, _ := benchN(b, 10000)
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Write(ctx, WriteRequest{Name: "big", Named: []string{"r500"}}, moveOne("r500", float64(1-2*(i%2)))); err != nil {
			b.Fatal(err)
		}
	}
	benchReport(b, s)
}

func benchWriteOne(b *testing.B, lint string) {
	s, _ := bench1000(b)
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		dx := 1.0
		if i%2 == 1 {
			dx = -1
		}
		if _, err := s.Write(ctx, WriteRequest{Name: "big", Options: WriteOptions{Lint: lint}, Named: []string{"r500"}}, moveOne("r500", dx)); err != nil {
			b.Fatal(err)
		}
	}
	benchReport(b, s)
}

// elementInputs are n labelled boxes with ids prefix0…, in a grid.
func elementInputs(prefix string, n int) []json.RawMessage {
	out := make([]json.RawMessage, n)
	for i := range out {
		out[i] = json.RawMessage(fmt.Sprintf(`{"type":"rectangle","id":"%s%d","x":%d,"y":%d,"width":120,"height":60,"label":{"text":"Box %d"}}`,
			prefix, i, (i%40)*200, (i/40)*120, i))
	}
	return out
}

// BenchmarkBatchCreate1000 creates 1,000 labelled boxes in one Write
// (batch_create), durable; BenchmarkBatchCreate10x100 in ten Writes of
// 100; BenchmarkContractCreate1000 with the contract's create of a new
// scene, the baseline.
func BenchmarkBatchCreate1000(b *testing.B) {
	s, _ := newTestService(b, scene.Limits{})
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		name := fmt.Sprintf("s%d", i)
		if _, err := s.Create(ctx, CreateRequest{Name: name}); err != nil {
			b.Fatal(err)
		}
		inputs := elementInputs("b", 1000)
		if _, err := s.Write(ctx, WriteRequest{Name: name}, func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
			_, err := tx.Create(inputs, "/elements")
			return PlanResult{}, err
		}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBatchCreate10x100(b *testing.B) {
	s, _ := newTestService(b, scene.Limits{})
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		name := fmt.Sprintf("s%d", i)
		if _, err := s.Create(ctx, CreateRequest{Name: name}); err != nil {
			b.Fatal(err)
		}
		for k := 0; k < 10; k++ {
			inputs := elementInputs(fmt.Sprintf("b%d-", k), 100)
			if _, err := s.Write(ctx, WriteRequest{Name: name}, func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
				_, err := tx.Create(inputs, "/elements")
				return PlanResult{}, err
			}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkContractCreate1000(b *testing.B) {
	s, _ := newTestService(b, scene.Limits{})
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Create(ctx, CreateRequest{Name: fmt.Sprintf("s%d", i), Elements: elementInputs("b", 1000)}); err != nil {
			b.Fatal(err)
		}
	}
}

// processCPU is the CPU time this process has used, user and system, on
// every thread: a write's lint runs beside its commit, so wall time per
// operation leaves it out.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU starts counting the process's CPU and returns the function
// that reports it per operation as "cpu-µs/op" (call it after the loop).
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
		}
	}
}

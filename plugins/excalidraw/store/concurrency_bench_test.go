package store

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/benchkit"
)

// BenchmarkConcurrentSaves is the store's share of issue 13's "16
// concurrent writers on different scenes": 16 goroutines each saving its
// own scene (670 KB, the size of a 1,000-box scene; the cheap countCodec,
// so the figure is the store's I/O and not a parser) against 16 each
// doing the durable write floor of the same bytes on its own file in the
// drawings directory, in alternating rounds of the same run. Reported:
// disk-writes/s, store-writes/s and store/disk.
//
//	go test ./plugins/excalidraw/store/ -run '^$' -bench ConcurrentSaves -benchtime 20x
func BenchmarkConcurrentSaves(b *testing.B) {
	const writers, perRound = 16, 4
	s := testStore(b, func(o *Options) { o.Codec = countCodec{}; o.Logger = nil })
	docs := [2][]byte{benchDoc(670<<10, 'a'), benchDoc(670<<10, 'b')}
	revs := make([]int64, writers)
	for g := range writers {
		if _, err := s.Create(bg, CreateRequest{Name: fmt.Sprintf("w%02d", g), Data: docs[1], Actor: ActorAgent}); err != nil {
			b.Fatal(err)
		}
		revs[g] = 1
	}
	dir := s.Dir()
	d, err := os.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var diskTime, storeTime time.Duration
	var n int
	b.ResetTimer()
	for b.Loop() {
		diskTime += benchkit.Together(b, writers, func(g int) error {
			for i := range perRound {
				if err := benchkit.DurableWrite(d, filepath.Join(dir, fmt.Sprintf(".floor%02d.tmp", g)), filepath.Join(dir, fmt.Sprintf("floor%02d.bin", g)), docs[i%2]); err != nil {
					return err
				}
			}
			return nil
		})
		storeTime += benchkit.Together(b, writers, func(g int) error {
			for range perRound {
				res, err := s.Save(bg, SaveRequest{Name: fmt.Sprintf("w%02d", g), ExpectedRevision: revs[g], Data: docs[revs[g]%2], Actor: ActorAgent})
				if err != nil {
					return err
				}
				revs[g] = res.Revision
			}
			return nil
		})
		n += writers * perRound
	}
	b.StopTimer()
	disk, store := float64(n)/diskTime.Seconds(), float64(n)/storeTime.Seconds()
	b.ReportMetric(disk, "disk-writes/s")
	b.ReportMetric(store, "store-writes/s")
	b.ReportMetric(store/disk, "store/disk")
}

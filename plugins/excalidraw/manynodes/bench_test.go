package manynodes

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// BenchmarkWriteThroughput is one node against two on the same database
// (and one node on the file store, the one-machine baseline), with 16 and
// 64 concurrent writers, each saving its own scene over HTTP; with two
// nodes the writers alternate between them. writes/s is the figure to
// compare within one run:
//
//	go test -run x -bench WriteThroughput -benchtime 2000x ./plugins/excalidraw/manynodes
func BenchmarkWriteThroughput(b *testing.B) {
	for _, setup := range []struct {
		name  string
		nodes int
		fs    bool
	}{{"fs-1node", 1, true}, {"pg-1node", 1, false}, {"pg-2nodes", 2, false}} {
		for _, writers := range []int{16, 64} {
			b.Run(fmt.Sprintf("%s/writers=%d", setup.name, writers), func(b *testing.B) {
				var c *cluster
				if setup.fs {
					c = &cluster{t: b, bin: dshtest.Build(b), http: http.DefaultClient}
					c.nodes = []*dshtest.Process{dshtest.Start(b, c.bin, fsYAML)}
					c.mintToken()
				} else {
					c = newCluster(b, setup.nodes)
				}
				for w := range writers {
					if st := c.call(c.nodes[w%len(c.nodes)], http.MethodPost, "/scenes", map[string]any{"name": fmt.Sprintf("s%d", w)}, nil); st != http.StatusCreated {
						b.Fatalf("create: %d", st)
					}
				}
				var next atomic.Int64
				var failed atomic.Int64
				b.ResetTimer()
				var wg sync.WaitGroup
				for w := range writers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						node := c.nodes[w%len(c.nodes)]
						rev := int64(1)
						for next.Add(1) <= int64(b.N) {
							var ans saveAnswer
							if st := c.callQuiet(node, http.MethodPut, fmt.Sprintf("/scenes/s%d", w), map[string]any{
								"scene": scene(fmt.Sprintf("w%d-%d", w, rev), int(rev)), "expected_revision": rev}, &ans); st != http.StatusOK {
								failed.Add(1)
								return
							}
							rev = ans.Revision
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				if failed.Load() > 0 {
					b.Fatalf("%d writers failed", failed.Load())
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
			})
		}
	}
}

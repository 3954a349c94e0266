package manynodes

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// A plain round-robin proxy in front of two nodes (no sticky sessions):
// one MCP client session (the Go SDK's) whose requests alternate between
// them creates, edits and reads a board end to end.
func TestMCPBehindRoundRobin(t *testing.T) {
	c := newCluster(t, 2)
	var backends []*url.URL
	for _, n := range c.nodes {
		u, _ := url.Parse(n.URL)
		backends = append(backends, u)
	}
	var turn atomic.Int64
	hits := make([]atomic.Int64, len(backends))
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		i := turn.Add(1) % int64(len(backends))
		hits[i].Add(1)
		r.SetURL(backends[i])
		r.Out.Host = r.In.Host // as a load balancer passes it: the nodes' allowedHosts take loopback
	}})
	t.Cleanup(proxy.Close)

	cs := c.agent(proxy.URL + "/mcp")
	tool(t, cs, "excalidraw_scene_create", map[string]any{"name": "rr", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 100, "height": 60}}})
	for i := range 6 {
		tool(t, cs, "excalidraw_scene_apply", map[string]any{"name": "rr", "expected_revision": i + 1, "operations": []any{
			map[string]any{"op": "add", "element": map[string]any{"type": "ellipse", "id": fmt.Sprintf("e%d", i), "x": 150 * i, "y": 100, "width": 50, "height": 50}}}})
	}
	out := tool(t, cs, "excalidraw_scene_read", map[string]any{"name": "rr"})
	if out["revision"] != 7.0 {
		t.Fatalf("read after 1 create and 6 applies: %v", out)
	}
	for i := range hits {
		if hits[i].Load() < 3 {
			t.Fatalf("node %d got %d requests: the proxy should spread the session over both", i, hits[i].Load())
		}
	}
}

// kill -9 of one node while writers commit through both: every write
// that was acknowledged is there afterwards, the other node keeps
// serving throughout, and the killed node, started again, serves what
// was committed while it was gone.
func TestKillOneNodeUnderWriters(t *testing.T) {
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	const writers = 6
	for w := range writers {
		if st := c.call(a, http.MethodPost, "/scenes", map[string]any{"name": fmt.Sprintf("w%d", w)}, nil); st != http.StatusCreated && st != http.StatusOK {
			t.Fatalf("create w%d: %d", w, st)
		}
	}
	var mu sync.Mutex
	acked := map[string]int64{} // scene → the highest acknowledged revision
	var failedOnB, doneOnA atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("w%d", w)
			rev := int64(1)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				node := a
				if w%2 == 1 && failedOnB.Load() == 0 {
					node = b // half the writers go through B until it dies
				}
				var ans saveAnswer
				st := c.callQuiet(node, http.MethodPut, "/scenes/"+name, map[string]any{
					"scene": scene(fmt.Sprintf("%s-%d", name, i), i), "expected_revision": rev, "request_id": fmt.Sprintf("%s-%d", name, i)}, &ans)
				switch {
				case st == http.StatusOK:
					rev = ans.Revision
					mu.Lock()
					acked[name] = rev
					mu.Unlock()
					if node == a {
						doneOnA.Add(1)
					}
				case st == 0 && node == b:
					failedOnB.Add(1) // B is gone: this write was never acknowledged
					i--              // the same write again, on A, with the same request id
				case st == http.StatusConflict:
					// A write B committed but could not answer: read where it is.
					var head struct{ Revision int64 }
					c.call(a, http.MethodGet, "/scenes/"+name, nil, &head)
					rev = head.Revision
				default:
					t.Errorf("%s on %s: %d %+v", name, node.URL, st, ans)
					return
				}
			}
		}()
	}
	waitFor(t, "writes through both nodes", func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) == writers })
	if exit := b.Stop(syscall.SIGKILL); exit.Code != -1 {
		t.Fatalf("kill -9: exit %+v", exit.Code)
	}
	before := doneOnA.Load()
	waitFor(t, "node A to keep serving after B died", func() bool { return doneOnA.Load() > before+30 })
	close(stop)
	wg.Wait()
	if failedOnB.Load() == 0 {
		t.Fatal("no write met the dead node: the kill came too late to test anything")
	}

	b2 := c.start()
	for name, rev := range acked {
		for _, n := range []*dshtest.Process{a, b2} {
			var head struct{ Revision int64 }
			if st := c.call(n, http.MethodGet, "/scenes/"+name, nil, &head); st != http.StatusOK || head.Revision < rev {
				t.Fatalf("%s on %s: %d revision %d, but revision %d was acknowledged", name, n.URL, st, head.Revision, rev)
			}
			var log struct {
				Entries []struct{ Revision int64 } `json:"entries"`
			}
			c.call(n, http.MethodGet, "/scenes/"+name+"/log?limit=1", nil, &log)
			if len(log.Entries) != 1 || log.Entries[0].Revision != head.Revision {
				t.Fatalf("%s on %s: the journal's newest entry %+v, the scene at %d", name, n.URL, log.Entries, head.Revision)
			}
		}
	}
}

// The database restarted underneath a running node: while it is down a
// write fails with a clear, retryable io_error and changes nothing; once
// it is back the same write succeeds, and the node hears other nodes'
// commits again.
func TestDatabaseRestartUnderNode(t *testing.T) {
	c := newCluster(t, 1)
	if err := pgtest.Restartable(); err != nil {
		testenv.Missing(t, err.Error()) // an outside server (DSH_PG_DSN): fails under CI
	}
	a := c.nodes[0]
	c.call(a, http.MethodPost, "/scenes", map[string]any{"name": "db"}, nil)
	var down saveAnswer
	var downStatus, readyStatus int
	var notReady string
	pgtest.Restart(t, func() {
		downStatus = c.call(a, http.MethodPut, "/scenes/db", map[string]any{"scene": scene("while-down", 1), "expected_revision": 1, "request_id": "r1"}, &down)
		readyStatus, notReady = c.readyz(a)
	})
	// The node says it is not ready, naming the store checks that failed.
	if readyStatus != http.StatusServiceUnavailable || !strings.Contains(notReady, "storage") || !strings.Contains(notReady, "excalidraw.store") {
		t.Fatalf("/readyz while the database is down: %d %s", readyStatus, notReady)
	}
	// Admission cannot check the token (store_unavailable, 503), or the
	// scene store cannot commit (io_error): either says try again.
	if (downStatus != http.StatusServiceUnavailable || down.Error.Code != "store_unavailable") &&
		(downStatus != http.StatusInternalServerError || down.Error.Code != "io_error") || down.Error.Details["retryable"] != true {
		t.Fatalf("a write while the database is down: %d %+v", downStatus, down)
	}
	var up saveAnswer
	waitFor(t, "the same write to succeed once the database is back", func() bool {
		return c.callQuiet(a, http.MethodPut, "/scenes/db", map[string]any{"scene": scene("while-down", 1), "expected_revision": 1, "request_id": "r1"}, &up) == http.StatusOK
	})
	if up.Revision != 2 {
		t.Fatalf("after the restart: revision %d, want 2 (the refused write changed nothing)", up.Revision)
	}
	c.awaitReady(a)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

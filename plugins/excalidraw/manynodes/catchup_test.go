package manynodes

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// relay is a TCP relay to the database that can be cut (every
// connection through it closed, new ones refused) and mended: a node
// behind it loses its database while the others keep theirs.
type relay struct {
	l      net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  []net.Conn
	wg     sync.WaitGroup
}

func newRelay(t *testing.T, target string) *relay {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{l: l, target: target}
	r.wg.Go(func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			refused := r.cut
			r.mu.Unlock()
			if refused {
				in.Close()
				continue
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			r.mu.Lock()
			if r.cut { // cut while this one was dialling: it goes too
				r.mu.Unlock()
				in.Close()
				out.Close()
				continue
			}
			r.conns = append(r.conns, in, out)
			r.mu.Unlock()
			pipe := func(dst, src net.Conn) { _, _ = io.Copy(dst, src); dst.Close(); src.Close() }
			r.wg.Go(func() { pipe(in, out) })
			r.wg.Go(func() { pipe(out, in) })
		}
	})
	t.Cleanup(func() { r.l.Close(); r.setCut(true); r.wg.Wait() })
	return r
}

// setCut cuts (true: closes every connection, refuses new ones) or
// mends the relay.
func (r *relay) setCut(cut bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cut = cut
	if cut {
		for _, c := range r.conns {
			c.Close()
		}
		r.conns = nil
	}
}

// through is dsn by way of the relay.
func (r *relay) through(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = r.l.Addr().String()
	return u.String()
}

// revisions follows a scene's event stream on node p: each revision it
// announces.
func (c *cluster) revisions(t *testing.T, p *dshtest.Process, name string) <-chan int64 {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/dsh-excalidraw/api/scenes/"+name+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := (&http.Client{Transport: c.http.Transport}).Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("event stream on %s: %v %v", p.URL, resp, err)
	}
	out := make(chan int64, 64)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ch struct{ Revision int64 }
			if json.Unmarshal([]byte(data), &ch) == nil && ch.Revision > 0 {
				out <- ch.Revision
			}
		}
	}()
	return out
}

// awaitRevision waits for rev on a stream, skipping older ones.
func awaitRevision(t *testing.T, ch <-chan int64, rev int64, what string) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case got := <-ch:
			if got >= rev {
				return
			}
		case <-deadline:
			t.Fatalf("waited a minute for revision %d: %s", rev, what)
		}
	}
}

// A node that loses the database misses the notifications of what other
// nodes commit meanwhile; once it is back it catches up: its open event
// streams get the commit they missed, and later ones as they come.
func TestNodeCatchesUpAfterLosingTheDatabase(t *testing.T) {
	c := newCluster(t, 1)
	b := c.nodes[0]
	u, _ := url.Parse(c.dsn)
	r := newRelay(t, u.Host)
	a := dshtest.Start(t, c.bin, nodeYAML, "DSH_STORE_DSN="+r.through(t, c.dsn))
	c.call(b, http.MethodPost, "/scenes", map[string]any{"name": "away"}, nil)
	events := c.revisions(t, a, "away")
	awaitRevision(t, events, 1, "the stream's first event, the head")

	r.setCut(true)
	var ans saveAnswer
	if st := c.call(b, http.MethodPut, "/scenes/away", map[string]any{"scene": scene("while-away", 1), "expected_revision": 1}, &ans); st != http.StatusOK {
		t.Fatalf("a commit on B while A is cut off: %d %+v", st, ans)
	}
	select {
	case rev := <-events:
		t.Fatalf("A announced revision %d while cut off from the database", rev)
	case <-time.After(300 * time.Millisecond):
	}
	r.setCut(false)
	awaitRevision(t, events, 2, "the commit A missed, once it is back")
	if st := c.call(b, http.MethodPut, "/scenes/away", map[string]any{"scene": scene("after", 2), "expected_revision": 2}, &ans); st != http.StatusOK {
		t.Fatalf("a commit on B after: %d %+v", st, ans)
	}
	awaitRevision(t, events, 3, "a commit after the catch-up")
}

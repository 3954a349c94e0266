package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/benchkit"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/thumbnail"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// BenchmarkThumbnailsBesideWrites is an agent's one-element write on a
// 2,000-element board with viewers of the board list open, in three ways
// in one run: writes alone; each viewer asking render.png for every
// revision (the list page before the thumbnail cache); each asking
// thumbnail.png for every revision (more than the page now does: at most
// every 3 s). The viewers' requests for a revision race the next write.
// Metrics: process CPU per write (getrusage, everything the server and
// the loopback clients did), the write's p50 and p90 latency, renders per
// write (the thumbnail row counts the render of the newest revision the
// cache makes after the last write). Thumbnail CPU per write is a row's
// cpu-ms/write less the writes-alone row's; with the cache it falls with
// the write rate (one render per board every 3 s at most).
//
//	go test ./plugins/excalidraw/httpapi -run '^$' -bench BenchmarkThumbnailsBesideWrites -benchtime 8s -count 1
func BenchmarkThumbnailsBesideWrites(b *testing.B) {
	if editor.Fonts() == nil {
		b.Skip("the editor is not built; run make editor")
	}
	for _, c := range []struct {
		name    string
		viewers int
		path    string
	}{
		{"writes-alone", 0, ""},
		{"viewers=1/render.png-per-revision", 1, "render.png"},
		{"viewers=4/render.png-per-revision", 4, "render.png"},
		{"viewers=4/thumbnail.png", 4, "thumbnail.png"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var mu sync.Mutex
			renders := 0
			base, svc := benchServer(b, 1, thumbnail.Options{OnRender: func(thumbnail.Key) { mu.Lock(); renders++; mu.Unlock() }})
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
			ask := func(rev int64) {
				url := fmt.Sprintf("%s%s/scenes/big/%s?max_pixels=96000&dark=false&rev=%d", base, api, c.path, rev)
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("X-Scene-Revision", fmt.Sprint(rev)) // as the list page asks
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("%s: %d", url, resp.StatusCode)
				}
			}
			rev := int64(1)
			if c.viewers > 0 {
				ask(rev) // the first picture, before the clock
			}
			mu.Lock()
			renders = 0
			mu.Unlock()
			var lat []time.Duration
			cpu0 := benchkit.CPUTime()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				// The viewers of the current revision ask while the
				// next write runs.
				var now sync.WaitGroup
				for range c.viewers {
					now.Go(func() { ask(rev) })
				}
				start := time.Now()
				res, err := svc.Apply(context.Background(), service.ApplyRequest{Name: "big", ExpectedRevision: rev,
					Operations: []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"op":"update","id":"r1000","patch":{"x":%d}}`, 5000+i%7))}})
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				rev = res.Revision
				now.Wait()
			}
			// The cache draws the newest revision after the writes: its
			// render is counted too (the viewers ask until it is in).
			for deadline := time.Now().Add(15 * time.Second); c.path == "thumbnail.png" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				resp, err := client.Get(fmt.Sprintf("%s%s/scenes/big/thumbnail.png?max_pixels=96000&dark=false", base, api))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.Header.Get("X-Scene-Revision") == fmt.Sprint(rev) {
					break
				}
			}
			cpu := benchkit.CPUTime() - cpu0
			b.StopTimer()
			slices.Sort(lat)
			n := float64(len(lat))
			b.ReportMetric(float64(cpu.Microseconds())/1000/n, "cpu-ms/write")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "write-p50-ms")
			b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "write-p90-ms")
			mu.Lock()
			if c.path == "thumbnail.png" {
				b.ReportMetric(float64(renders)/n, "renders/write")
			} else {
				b.ReportMetric(float64(c.viewers), "renders/write")
			}
			mu.Unlock()
		})
	}
}

// benchServer is a server with the plugin's routes over a service holding
// boards "big", "big1", "big2", …, 2,000 elements each: rectangles, every
// fourth labelled, and arrows.
func benchServer(b *testing.B, boards int, o thumbnail.Options) (string, *service.Service) {
	dir := filepath.Join(b.TempDir(), "drawings")
	svc, err := service.New(service.Config{DrawingsDir: dir, Limits: scene.Limits{MaxElements: 5000}, LockTimeout: 5 * time.Second,
		Rand: rand.New(rand.NewPCG(1, 2)), Fonts: editor.Fonts()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = svc.Close() })
	stop := make(chan struct{})
	b.Cleanup(func() { close(stop) })
	srv := webserver.New(webserver.Config{Listen: "127.0.0.1:0", MaxBodyBytes: 8 << 20}, nil, func() connection.Admitter { return admitAll{} })
	if err := srv.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	o2 := Options{Service: svc, Thumbnails: o, Stop: stop}
	if _, err := srv.Mount("excalidraw", Routes(o2)...); err != nil {
		b.Fatal(err)
	}
	var els []json.RawMessage
	for i := range 1600 {
		el := map[string]any{"type": "rectangle", "id": fmt.Sprintf("r%d", i), "x": (i % 40) * 120, "y": (i / 40) * 80, "width": 100, "height": 50}
		if i%4 == 0 {
			el["label"] = map[string]any{"text": fmt.Sprintf("node %d", i)}
		}
		els = append(els, benchJSON(b, el))
	}
	for i := range 2000 - 1600 - 400 {
		els = append(els, benchJSON(b, map[string]any{"type": "arrow", "id": fmt.Sprintf("a%d", i), "startElementId": fmt.Sprintf("r%d", i*3), "endElementId": fmt.Sprintf("r%d", i*3+1)}))
	}
	for i := range boards {
		if _, err := svc.Create(context.Background(), service.CreateRequest{Name: boardName(i), Elements: els}); err != nil {
			b.Fatal(err)
		}
	}
	return srv.URL(), svc
}

func benchJSON(b *testing.B, v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func boardName(i int) string {
	if i == 0 {
		return "big"
	}
	return fmt.Sprintf("big%d", i)
}

// BenchmarkThumbnailsFiftyBoards is agents' one-element writes to 50
// boards of 2,000 elements in turn, with a viewer of each board's
// thumbnail asking after every write (the list page asks at most every
// 3 s), against the same writes alone: the renders (all 50 boards want
// one every 3 s, more than the worker pool draws) must leave writes their
// share of the processors. Metrics as BenchmarkThumbnailsBesideWrites.
//
//	go test ./plugins/excalidraw/httpapi -run '^$' -bench BenchmarkThumbnailsFiftyBoards -benchtime 8s -count 1
func BenchmarkThumbnailsFiftyBoards(b *testing.B) {
	if editor.Fonts() == nil {
		b.Skip("the editor is not built; run make editor")
	}
	const boards = 50
	for _, viewers := range []bool{false, true} {
		name := "writes-alone"
		if viewers {
			name = "viewer-per-board"
		}
		b.Run(name, func(b *testing.B) {
			var mu sync.Mutex
			renders := 0
			base, svc := benchServer(b, boards, thumbnail.Options{OnRender: func(thumbnail.Key) { mu.Lock(); renders++; mu.Unlock() }})
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
			revs := make([]int64, boards)
			for i := range revs {
				revs[i] = 1
			}
			var asks sync.WaitGroup
			var lat []time.Duration
			cpu0 := benchkit.CPUTime()
			for i := 0; b.Loop(); i++ {
				k := i % boards
				start := time.Now()
				res, err := svc.Apply(context.Background(), service.ApplyRequest{Name: boardName(k), ExpectedRevision: revs[k],
					Operations: []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"op":"update","id":"r1000","patch":{"x":%d}}`, 5000+i%7))}})
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				revs[k] = res.Revision
				if viewers {
					asks.Go(func() {
						req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s%s/scenes/%s/thumbnail.png?max_pixels=96000&dark=false", base, api, boardName(k)), nil)
						req.Header.Set("X-Scene-Revision", fmt.Sprint(res.Revision))
						resp, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					})
				}
			}
			asks.Wait()
			cpu := benchkit.CPUTime() - cpu0
			b.StopTimer()
			slices.Sort(lat)
			n := float64(len(lat))
			b.ReportMetric(float64(cpu.Microseconds())/1000/n, "cpu-ms/write")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "write-p50-ms")
			b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "write-p90-ms")
			mu.Lock()
			b.ReportMetric(float64(renders)/n, "renders/write")
			mu.Unlock()
		})
	}
}

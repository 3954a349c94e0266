package manynodes

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/metrics/metricstest"
)

// lagObservations is how many commits of other nodes h has published
// (dsh_excalidraw_notification_lag_seconds' count), from its /metrics.
func lagObservations(t *testing.T, h *dsh.Host) uint64 {
	t.Helper()
	fams := metricstest.Scrape(t, hosttest.Client(t), h.URL()+"/metrics", h.Token())
	f := fams["dsh_excalidraw_notification_lag_seconds"]
	if f == nil || len(f.GetMetric()) != 1 {
		t.Fatalf("no dsh_excalidraw_notification_lag_seconds: %v", f)
	}
	return f.GetMetric()[0].GetHistogram().GetSampleCount()
}

// TestNotificationLagMetric: two hosts in this process on one database;
// a commit on the first reaches the second over PostgreSQL
// notifications, which times it.
func TestNotificationLagMetric(t *testing.T) {
	dsn := pgtest.DSN(t)
	node := func() *dsh.Host {
		yaml := hosttest.ConfigYAML(t.TempDir(), "  store: {kind: postgres, dsn: '"+dsn+"'}\n",
			`  - {id: excalidraw, name: excalidraw, config: {exports: {secret: "`+exportsSecret+`"}}}`+"\n")
		h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)))
		if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
			t.Fatal(err)
		}
		return h
	}
	a, b := node(), node()
	// b may not be listening yet when a commits (it catches up by
	// listing, untimed): commit again until b has timed one.
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; lagObservations(t, b) == 0; i++ {
		if time.Now().After(deadline) {
			t.Fatal("b never timed a commit of a's")
		}
		res := a.Tools.Call(hosttest.Context(t), "excalidraw_scene_create", json.RawMessage(fmt.Sprintf(`{"name":"n%d","elements":[]}`, i)))
		if !res.OK {
			t.Fatalf("create on a: %s", res.JSON)
		}
		for range 20 {
			if lagObservations(t, b) > 0 {
				break
			}
			time.Sleep(25 * time.Millisecond) // polling b's scrape
		}
	}
}

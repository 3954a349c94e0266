package httpapi

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// delta decodes a delta event.
func (ev sseEvent) delta(t *testing.T) (service.Delta, []string) {
	t.Helper()
	if ev.event != "delta" {
		t.Fatalf("event %q, want delta: %+v", ev.event, ev)
	}
	var d service.Delta
	if err := json.Unmarshal([]byte(ev.data), &d); err != nil {
		t.Fatalf("data %q: %v", ev.data, err)
	}
	var ids []string
	for _, raw := range d.Elements {
		var el struct {
			ID        string `json:"id"`
			IsDeleted bool   `json:"isDeleted"`
		}
		if err := json.Unmarshal(raw, &el); err != nil {
			t.Fatal(err)
		}
		if el.IsDeleted {
			el.ID += " (deleted)"
		}
		ids = append(ids, el.ID)
	}
	return d, ids
}

func (e *eventsEnv) apply(t *testing.T, rev int64, op string) *service.WriteResult {
	t.Helper()
	res, err := e.svc.Apply(context.Background(), service.ApplyRequest{Name: "flow", ExpectedRevision: rev,
		Operations: []json.RawMessage{json.RawMessage(op)}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSceneEventsDeltas: a stream opened with since sends each commit's
// changed elements (a deletion as a tombstone) from the revision it sent
// before; one opened behind the head starts with the union since then;
// revisions the hub coalesced come as one delta from the last one sent.
func TestSceneEventsDeltas(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	e.create(t, "flow")
	s := e.openPath(t, api+"/scenes/flow/events?since=1")
	if c := s.next(t, false).change(t); c.Revision != 1 {
		t.Fatalf("head %+v", c)
	}
	moved := e.apply(t, 1, `{"op":"update","id":"r","patch":{"x":50}}`)
	ev := s.next(t, false)
	d, ids := ev.delta(t)
	if d.From != 1 || d.Revision != 2 || d.SHA256 != moved.SHA256 || ev.id != "2" || !slices.Equal(ids, []string{"r"}) {
		t.Fatalf("delta %+v (id %q) ids %v", d, ev.id, ids)
	}
	e.apply(t, 2, `{"op":"add","element":{"type":"ellipse","id":"o","x":100,"y":0,"width":10,"height":10}}`)
	if d, ids := s.next(t, false).delta(t); d.From != 2 || d.Revision != 3 || !slices.Equal(ids, []string{"o"}) {
		t.Fatalf("add: %+v ids %v", d, ids)
	}
	e.apply(t, 3, `{"op":"delete","id":"o"}`)
	if d, ids := s.next(t, false).delta(t); d.From != 3 || !slices.Equal(ids, []string{"o (deleted)"}) {
		t.Fatalf("delete: %+v ids %v", d, ids)
	}

	// A page that shows revision 1 opens: the union since then.
	late := e.openPath(t, api+"/scenes/flow/events?since=1")
	if d, ids := late.next(t, false).delta(t); d.From != 1 || d.Revision != 4 || !slices.Equal(ids, []string{"r", "o (deleted)"}) {
		t.Fatalf("catch-up: %+v ids %v", d, ids)
	}

	// Two commits land before the stream reads (another process's, say:
	// the hub hears only of the second): one delta from 4.
	other, err := service.New(service.Config{DrawingsDir: e.dir, LockTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Apply(context.Background(), service.ApplyRequest{Name: "flow", ExpectedRevision: 4,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"update","id":"r","patch":{"y":5}}`)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Apply(context.Background(), service.ApplyRequest{Name: "flow", ExpectedRevision: 5,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"add","element":{"type":"diamond","id":"k","x":0,"y":90,"width":10,"height":10}}`)}}); err != nil {
		t.Fatal(err)
	}
	e.hub.Publish(live.Change{Name: "flow", Revision: 6})
	for _, st := range []*stream{s, late} {
		if d, ids := st.next(t, false).delta(t); d.From != 4 || d.Revision != 6 || !slices.Equal(ids, []string{"r", "k"}) {
			t.Fatalf("coalesced: %+v ids %v", d, ids)
		}
	}
}

// TestSceneEventsResync: a page whose revision the journal no longer
// reaches, or that names a revision the scene never had, is told to read
// the scene; a stream without since is as before.
func TestSceneEventsResync(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	e.create(t, "flow")
	e.apply(t, 1, `{"op":"update","id":"r","patch":{"x":50}}`)
	s := e.openPath(t, api+"/scenes/flow/events?since=7")
	ev := s.next(t, false)
	var c live.Change
	if err := json.Unmarshal([]byte(ev.data), &c); err != nil || ev.event != "resync" || c.Revision != 2 || ev.id != "2" {
		t.Fatalf("got %+v (%v)", ev, err)
	}
	plain := e.openPath(t, api+"/scenes/flow/events?since=x")
	if c := plain.next(t, false).change(t); c.Revision != 2 {
		t.Fatalf("plain %+v", c)
	}
	e.apply(t, 2, `{"op":"update","id":"r","patch":{"x":60}}`)
	if c := plain.next(t, false).change(t); c.Revision != 3 {
		t.Fatalf("plain %+v", c)
	}
}

package service

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// edited is the stored element id as a collaborator's editor would send
// it after an edit: its members changed and its version moved to v with
// versionNonce n.
func edited(t testing.TB, doc *scene.Document, id string, v, n float64, set map[string]any) json.RawMessage {
	t.Helper()
	el := element(t, doc, id).Clone()
	for k, val := range set {
		el.Set(k, val)
	}
	el.Set("version", v).Set("versionNonce", n)
	b, err := json.Marshal(el)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMergeTakesNewerElementsOnly(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	doc := checkStored(t, dir, "flow")
	va := scene.NumberOf(element(t, doc, "a"), "version")
	nb := scene.NumberOf(element(t, doc, "b"), "versionNonce")
	vb := scene.NumberOf(element(t, doc, "b"), "version")
	res, err := s.Merge(ctx, MergeRequest{Name: "flow", Attribution: store.Attribution{Via: "room", Name: "erin"}, Elements: []json.RawMessage{
		edited(t, doc, "a", va+1, 5, map[string]any{"x": 40.0}),   // newer: taken
		edited(t, doc, "b", vb, nb+1, map[string]any{"x": 999.0}), // same version, higher nonce: stale
		edited(t, doc, "b", 3, 7, map[string]any{"id": "new", "y": 300.0, "index": "a9", "boundElements": nil}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Write == nil || res.Stale != 1 || fmt.Sprint(res.Taken) != "[a new]" {
		t.Fatalf("merge %+v", res)
	}
	after := checkStored(t, dir, "flow")
	if x := scene.NumberOf(element(t, after, "a"), "x"); x != 40 {
		t.Fatalf("a.x = %v, want the merged 40", x)
	}
	if x := scene.NumberOf(element(t, after, "b"), "x"); x == 999 {
		t.Fatal("a stale element was stored")
	}
	if v := scene.NumberOf(element(t, after, "new"), "version"); v != 3 {
		t.Fatalf("a new element's version %v changed on the way in", v)
	}
	// The label of a moved with it only if the sender moved it: a merge
	// stores what was sent, and the journal names the sender.
	log, err := s.Log(ctx, LogRequest{Name: "flow"})
	if err != nil {
		t.Fatal(err)
	}
	if top := log.Entries[0]; top.Via != "room" || top.Name != "erin" {
		t.Fatalf("journal top %+v", top)
	}
	// The same elements again: nothing newer, nothing written.
	again, err := s.Merge(ctx, MergeRequest{Name: "flow", Elements: []json.RawMessage{edited(t, doc, "a", va+1, 5, map[string]any{"x": 40.0})}})
	if err != nil || again.Write != nil || again.Stale != 1 {
		t.Fatalf("again %+v %v", again, err)
	}
	// A tie on version goes to the lower nonce, on every peer alike.
	tie, err := s.Merge(ctx, MergeRequest{Name: "flow", Elements: []json.RawMessage{edited(t, doc, "a", va+1, 4, map[string]any{"x": 41.0})}})
	if err != nil || tie.Write == nil {
		t.Fatalf("tie %+v %v", tie, err)
	}
}

func TestMergeRefusesBadElementsBeforeReading(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	before := fileBytes(t, dir, "flow")
	for _, els := range [][]json.RawMessage{
		{json.RawMessage(`{"type":"rectangle","x":0}`)},
		{json.RawMessage(`[1,2]`)},
		{json.RawMessage(`{"type":"unicorn","id":"u","version":9}`)},
	} {
		_, err := s.Merge(ctx, MergeRequest{Name: "flow", Elements: els})
		if c := sceneerr.CodeOf(err); c != sceneerr.InvalidScene && c != sceneerr.UnsupportedElement {
			t.Fatalf("%s: %v", els[0], err)
		}
	}
	_, err := s.Merge(ctx, MergeRequest{Name: "nope", Elements: raws(`{"type":"rectangle","id":"r"}`)})
	wantCode(t, err, sceneerr.NotFound)
	if string(fileBytes(t, dir, "flow")) != string(before) {
		t.Fatal("a refused merge changed the scene")
	}
}

// A merge racing agents' writes loses nothing: each merge is fenced on
// the revision it read and merges again after a commit in between.
func TestMergeBesideWritesLosesNothing(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	var wg sync.WaitGroup
	const n = 12
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := s.Merge(ctx, MergeRequest{Name: "flow", Elements: raws(fmt.Sprintf(
				`{"type":"rectangle","id":"m%d","x":%d,"y":400,"width":20,"height":20,"version":2,"versionNonce":1}`, i, i*30))})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := s.Edit(ctx, WriteRequest{Name: "flow"}, CreateElements{Elements: raws(fmt.Sprintf(
				`{"type":"ellipse","id":"g%d","x":%d,"y":600,"width":20,"height":20}`, i, i*30))})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	doc := checkStored(t, dir, "flow")
	for i := range n {
		element(t, doc, fmt.Sprintf("m%d", i))
		element(t, doc, fmt.Sprintf("g%d", i))
	}
}

// A merge also carries what a room does not: the stored appState subset
// and attachments; a bad appState member is refused and changes nothing.
func TestMergeAppStateAndFiles(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	png := `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==`
	res, err := s.Merge(ctx, MergeRequest{Name: "flow", AppState: json.RawMessage(`{"viewBackgroundColor":"#fff3bf"}`),
		Files: json.RawMessage(`{"f1":{"id":"f1","mimeType":"image/png","dataURL":"` + png + `","created":1}}`)})
	if err != nil || res.Write == nil {
		t.Fatalf("merge %+v %v", res, err)
	}
	doc := checkStored(t, dir, "flow")
	if c, _ := doc.AppState().String("viewBackgroundColor"); c != "#fff3bf" {
		t.Fatalf("background %q", c)
	}
	if !doc.Files().Has("f1") {
		t.Fatal("the file was not kept")
	}
	before := fileBytes(t, dir, "flow")
	_, err = s.Merge(ctx, MergeRequest{Name: "flow", AppState: json.RawMessage(`{"zoom":{"value":3}}`)})
	wantCode(t, err, sceneerr.InvalidOperation)
	if string(fileBytes(t, dir, "flow")) != string(before) {
		t.Fatal("a refused merge changed the scene")
	}
	// The same appState again: nothing to write.
	again, err := s.Merge(ctx, MergeRequest{Name: "flow", AppState: json.RawMessage(`{"viewBackgroundColor":"#fff3bf"}`)})
	if err != nil || again.Write != nil {
		t.Fatalf("again %+v %v", again, err)
	}
}

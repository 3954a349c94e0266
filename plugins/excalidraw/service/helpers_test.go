package service

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

var ctx = context.Background()

// newTestService opens a service on a fresh directory with a pinned
// clock and random source.
func newTestService(t testing.TB, lim scene.Limits) (*Service, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "drawings")
	return openAt(t, dir, lim), dir
}

func raws(items ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, s := range items {
		out[i] = json.RawMessage(s)
	}
	return out
}

// flowInputs are two shapes (one labelled) and an arrow bound to both by
// ids given in the same call.
func flowInputs() []json.RawMessage {
	return raws(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"Start"}}`,
		`{"type":"ellipse","id":"b","x":400,"y":0,"width":120,"height":80}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}`,
	)
}

func createFlow(t testing.TB, s *Service, name string) *WriteResult {
	t.Helper()
	res, err := s.Create(ctx, CreateRequest{Name: name, Elements: flowInputs()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func fileBytes(t testing.TB, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name+".excalidraw"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkStored asserts the contract's invariant of every write: the file
// validates with no errors and is a fixed point of scene.Normalize.
func checkStored(t testing.TB, dir, name string) *scene.Document {
	t.Helper()
	data := fileBytes(t, dir, name)
	if errs := scene.ValidateBytes(data, scene.Limits{}).Errors(); len(errs) > 0 {
		t.Fatalf("stored %s has errors: %v", name, errs)
	}
	doc, err := scene.Parse(data, scene.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if rep := scene.Normalize(doc.Clone()); rep.Changed != 0 {
		t.Fatalf("stored %s is not a Normalize fixed point: %+v", name, rep)
	}
	return doc
}

func element(t testing.TB, doc *scene.Document, id string) *ojson.Object {
	t.Helper()
	_, el := doc.Find(id)
	if el == nil {
		t.Fatalf("no element %q", id)
	}
	return el
}

func wantCode(t testing.TB, err error, code sceneerr.Code) *sceneerr.Error {
	t.Helper()
	var se *sceneerr.Error
	if !errors.As(err, &se) {
		t.Fatalf("want %s, got %v (%T)", code, err, err)
	}
	if se.Code != code {
		t.Fatalf("want %s, got %v", code, err)
	}
	return se
}

// str reads the string at a path of members, "" where one is missing:
// str(el, "id"), or str(arrow, "endBinding", "elementId") for the element
// an arrow's end is bound to.
func str(o *ojson.Object, path ...string) string {
	last := len(path) - 1
	for _, k := range path[:last] {
		if o, _ = o.Object(k); o == nil {
			return ""
		}
	}
	s, _ := o.String(path[last])
	return s
}

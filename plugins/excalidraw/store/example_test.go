package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// elementsCodec is the smallest useful Codec: a JSON object whose
// "elements" array is counted.
type elementsCodec struct{}

func (elementsCodec) Inspect(data []byte) (int, error) {
	var doc struct {
		Elements []json.RawMessage `json:"elements"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return 0, err
	}
	if doc.Elements == nil {
		return 0, errors.New(`no "elements"`)
	}
	return len(doc.Elements), nil
}

func Example() {
	base, _ := os.MkdirTemp("", "store-example")
	defer os.RemoveAll(base)
	ctx := context.Background()

	s, err := store.Open(store.Options{Dir: filepath.Join(base, "drawings"), Codec: elementsCodec{}})
	if err != nil {
		panic(err)
	}
	defer s.Close()

	created, _ := s.Create(ctx, store.CreateRequest{Name: "architecture",
		Data: []byte(`{"elements":[]}`), Actor: store.ActorAgent})
	fmt.Println("created revision", created.Revision, "verified", created.Verified)

	// An atomic read-modify-write, fenced on the revision we saw.
	res, _ := s.Update(ctx, store.UpdateRequest{Name: "architecture", ExpectedRevision: created.Revision,
		Actor: store.ActorAgent, RequestID: "agent-1",
		Mutate: func(cur *store.Scene) ([]byte, error) {
			return []byte(`{"elements":[{"id":"box"}]}`), nil
		}})
	fmt.Println("updated to revision", res.Revision, "with", res.ElementCount, "element")

	// A retry of the same request is answered from history.
	again, _ := s.Update(ctx, store.UpdateRequest{Name: "architecture", ExpectedRevision: created.Revision,
		Actor: store.ActorAgent, RequestID: "agent-1",
		Mutate: func(*store.Scene) ([]byte, error) { panic("not called again") }})
	fmt.Println("retry: revision", again.Revision, "duplicate", again.Duplicate)

	// A writer that missed the update gets a conflict with the current revision.
	_, err = s.Save(ctx, store.SaveRequest{Name: "architecture", ExpectedRevision: 1,
		Data: []byte(`{"elements":[]}`), Actor: store.ActorUI})
	var se *store.Error
	if errors.As(err, &se) {
		fmt.Println(se.Code, se.Status, "current", se.Details["currentRevision"])
	}
	// Output:
	// created revision 1 verified true
	// updated to revision 2 with 1 element
	// retry: revision 2 duplicate true
	// revision_conflict 409 current 2
}

// Names are one safe path component.
func ExampleValidName() {
	for _, name := range []string{"architecture", "../etc", "Design"} {
		fmt.Println(name, store.CodeOf(store.ValidName(name)) == "")
	}
	// Output:
	// architecture true
	// ../etc false
	// Design false
}

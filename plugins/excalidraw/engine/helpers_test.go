package engine

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// limits are the default limits a scene is written under.
var limits = scene.Limits{}.Effective()

// stored is one scene kept as the service keeps it: the bytes of a
// document normalized, validated and encoded after every write. So an
// edit under test starts from what the engine meets in use (a parsed
// stored file), and its result is checked as every write is. The clock
// and the random source are pinned as the service's tests pin them.
type stored struct {
	t    testing.TB
	rand *rand.Rand
	data []byte
}

func newStored(t testing.TB) *stored {
	t.Helper()
	return &stored{t: t, rand: rand.New(rand.NewPCG(7, 7))}
}

func (s *stored) begin(doc *scene.Document) *Txn {
	return Begin(doc, Config{
		Now:  func() time.Time { return time.UnixMilli(1793136000000) },
		Rand: s.rand, MaxTextLength: limits.MaxTextLength,
	})
}

// create stores a new scene of element inputs, as the service's Create
// does, and returns it.
func (s *stored) create(inputs ...string) *scene.Document {
	s.t.Helper()
	doc := scene.NewDocument()
	if _, err := s.begin(doc).Add(raws(inputs...), "/elements"); err != nil {
		s.t.Fatal(err)
	}
	if err := s.commit(doc); err != nil {
		s.t.Fatal(err)
	}
	return s.doc()
}

// save stores a whole scene as the editor saves it (the service's Save)
// and returns it.
func (s *stored) save(data []byte) *scene.Document {
	s.t.Helper()
	doc, err := scene.Parse(data, limits)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.commit(doc); err != nil {
		s.t.Fatal(err)
	}
	return s.doc()
}

// apply runs operations on the stored scene in one Txn and stores the
// result, as the service's Apply does; on an error nothing is stored.
func (s *stored) apply(ops ...string) (Result, error) {
	s.t.Helper()
	decoded, err := DecodeOps(raws(ops...))
	if err != nil {
		return Result{}, err
	}
	doc, err := scene.Parse(s.data, limits.ForReading())
	if err != nil {
		s.t.Fatal(err)
	}
	tx := s.begin(doc)
	if err := tx.Apply(decoded); err != nil {
		return Result{}, err
	}
	return tx.Result(), s.commit(doc)
}

// commit makes doc the stored scene: normalized, without validation
// errors, encoded under the limits.
func (s *stored) commit(doc *scene.Document) error {
	scene.Normalize(doc)
	if errs := scene.Validate(doc, limits).Errors(); len(errs) > 0 {
		return errs[0].Err()
	}
	data, err := scene.Codec{Limits: limits}.Encode(doc)
	if err != nil {
		return err
	}
	s.data = data
	return nil
}

// doc parses the stored scene and asserts that it is a fixed point of
// scene.Normalize, as every stored scene is.
func (s *stored) doc() *scene.Document {
	s.t.Helper()
	doc, err := scene.Parse(s.data, limits)
	if err != nil {
		s.t.Fatal(err)
	}
	if rep := scene.Normalize(doc.Clone()); rep.Changed != 0 {
		s.t.Fatalf("stored scene is not a Normalize fixed point: %+v", rep)
	}
	return doc
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
var flowInputs = []string{
	`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"Start"}}`,
	`{"type":"ellipse","id":"b","x":400,"y":0,"width":120,"height":80}`,
	`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}`,
}

func element(t testing.TB, doc *scene.Document, id string) *ojson.Object {
	t.Helper()
	_, el := doc.Find(id)
	if el == nil {
		t.Fatalf("no element %q", id)
	}
	return el
}

// boundIDs lists the ids in el's boundElements, of the given types (all
// of them when none is given).
func boundIDs(el *ojson.Object, types ...string) []string {
	var ids []string
	list, _ := el.Array("boundElements")
	for _, entry := range list {
		if o, ok := entry.(*ojson.Object); ok && (len(types) == 0 || slices.Contains(types, scene.StringOf(o, "type"))) {
			ids = append(ids, scene.StringOf(o, "id"))
		}
	}
	return ids
}

// labelID is the id of container's label, the text it lists as bound.
func labelID(t testing.TB, doc *scene.Document, container string) string {
	t.Helper()
	ids := boundIDs(element(t, doc, container), "text")
	if len(ids) == 0 {
		t.Fatalf("%s has no label", container)
	}
	return ids[0]
}

// hasBound reports whether el's boundElements lists id.
func hasBound(el *ojson.Object, id string) bool { return slices.Contains(boundIDs(el), id) }

func wantCode(t testing.TB, err error, code sceneerr.Code) *sceneerr.Error {
	t.Helper()
	var se *sceneerr.Error
	if !errors.As(err, &se) || se.Code != code {
		t.Fatalf("want %s, got %v (%T)", code, err, err)
	}
	return se
}

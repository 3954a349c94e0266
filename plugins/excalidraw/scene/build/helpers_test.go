package build

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// fixedNow is the clock tests build with.
var fixedNow = time.UnixMilli(1_700_000_000_000)

// testContext is a deterministic context over existing elements.
func testContext(existing ...*ojson.Object) Context {
	return Context{
		Existing: existing,
		FileIDs:  map[string]bool{"file-1": true},
		Rand:     rand.New(rand.NewPCG(1, 2)),
		Now:      func() time.Time { return fixedNow },
	}
}

// raws turns JSON texts into inputs.
func raws(texts ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(texts))
	for i, t := range texts {
		out[i] = json.RawMessage(t)
	}
	return out
}

// mustBuild builds or fails the test.
func mustBuild(t *testing.T, ctx Context, texts ...string) *Result {
	t.Helper()
	res, err := Build(raws(texts...), ctx)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return res
}

// byID finds an element.
func byID(t *testing.T, els []*ojson.Object, id string) *ojson.Object {
	t.Helper()
	for _, el := range els {
		if s, _ := el.String("id"); s == id {
			return el
		}
	}
	t.Fatalf("no element %q", id)
	return nil
}

// numberOf reads a numeric field or fails.
func numberOf(t *testing.T, el *ojson.Object, k string) float64 {
	t.Helper()
	f, ok := el.Number(k)
	if !ok {
		t.Fatalf("field %q is not a number: %v", k, mustJSON(el))
	}
	return f
}

// mustJSON renders a value for messages.
func mustJSON(v any) string {
	b, err := ojson.MarshalIndent(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// parseObject decodes an existing element from JSON.
func parseObject(t *testing.T, s string) *ojson.Object {
	t.Helper()
	v, err := ojson.Decode([]byte(s), ojson.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return v.(*ojson.Object)
}

package scene

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
)

func TestSplitElementsMatchesParse(t *testing.T) {
	files := testcorpus.Files(t)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Parse(data, Limits{}.Effective())
		if err != nil {
			continue
		}
		out, err := doc.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		raws, err := SplitElements(out)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(path), err)
		}
		els := doc.Elements()
		if len(raws) != len(els) {
			t.Fatalf("%s: %d raw elements, %d parsed", filepath.Base(path), len(raws), len(els))
		}
		for i, el := range els {
			id, _ := el.String("id")
			del, _ := el.Bool("isDeleted")
			v, _ := el.Number("version")
			r := raws[i]
			if r.ID != id || r.Deleted != del || r.Version != int64(v) {
				t.Fatalf("%s #%d: raw %q/%v/%d, parsed %q/%v/%v", filepath.Base(path), i, r.ID, r.Deleted, r.Version, id, del, v)
			}
			var back map[string]any
			if err := json.Unmarshal(r.Raw, &back); err != nil || back["id"] != id {
				t.Fatalf("%s #%d: raw bytes are not the element: %v", filepath.Base(path), i, err)
			}
			if !bytes.Contains(out, r.Raw) {
				t.Fatalf("%s #%d: raw is not a slice of the document", filepath.Base(path), i)
			}
		}
	}
}

func TestSplitElementsRefusesNonObjects(t *testing.T) {
	for _, doc := range []string{`[]`, `{"elements":[1]}`, `{"elements":[{"id":"a"}`} {
		if _, err := SplitElements([]byte(doc)); err == nil {
			t.Errorf("%s: no error", doc)
		}
	}
	sp, err := SplitDocument([]byte(`{"type":"excalidraw", "elements":[{"x":1,"id":"a","version":3,"isDeleted":true}],"files": {}}`))
	if err != nil || len(sp.Elements) != 1 || sp.Elements[0].ID != "a" || sp.Elements[0].Version != 3 || !sp.Elements[0].Deleted {
		t.Fatalf("got %+v, %v", sp, err)
	}
	if len(sp.Members) != 2 || sp.Members[0].Name != "type" || string(sp.Members[0].Raw) != `"excalidraw"` ||
		sp.Members[1].Name != "files" || string(sp.Members[1].Raw) != `{}` {
		t.Fatalf("members %q", sp.Members)
	}
}

func BenchmarkSplitElements(b *testing.B) {
	data := syntheticScene(b, 1000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := SplitElements(data); err != nil {
			b.Fatal(err)
		}
	}
}

package scene

import (
	"bytes"
	"os"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
)

// seedFuzz adds the small corpus files (the generated ones, and the
// shared ones when DSH_CORPUS is set) and a few hand-made scenes that
// reach the validator's branches.
func seedFuzz(f *testing.F) {
	f.Helper()
	for _, path := range testcorpus.Seeds(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 16<<10 {
			f.Add(data)
		}
	}
	scene, err := validScene().Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(scene)
	f.Add([]byte(`{"type":"excalidraw","version":2}`))
	f.Add([]byte(`{"type":"excalidraw","version":2,"elements":[{"type":"arrow","id":"a","points":[[0,0,1]],"startBinding":{"elementId":"a"},"index":"a0"},{"type":"text","id":"t","containerId":"a","index":"Zz","text":"x","fontSize":1e999}],"files":{"f":{"id":"f","mimeType":"image/png","dataURL":"data:image/png;base64,AAAA"}}}`))
}

// FuzzParse: Parse never panics, and what it accepts, Marshal writes in a
// form Parse accepts again and that is a fixed point.
func FuzzParse(f *testing.F) {
	seedFuzz(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data, Limits{})
		if err != nil {
			return
		}
		out, err := d.Marshal()
		if err != nil {
			t.Fatalf("Marshal after Parse: %v", err)
		}
		d2, err := Parse(out, Limits{})
		if err != nil {
			t.Fatalf("Parse of our own output: %v\n%s", err, out)
		}
		if d2.ElementCount() != d.ElementCount() {
			t.Fatalf("element count %d became %d", d.ElementCount(), d2.ElementCount())
		}
		out2, err := d2.Marshal()
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("second round trip differs (%v)\n%s\n----\n%s", err, out, out2)
		}
	})
}

// FuzzValidate: ValidateBytes never panics, its verdict matches its
// diagnostics, and it agrees with Parse on the element count.
func FuzzValidate(f *testing.F) {
	seedFuzz(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		r := ValidateBytes(data, Limits{})
		if r.Valid != (len(r.Errors()) == 0) {
			t.Fatalf("Valid %v with %d errors", r.Valid, len(r.Errors()))
		}
		d, err := Parse(data, Limits{})
		if err != nil {
			return
		}
		if r.Stats.Elements != d.ElementCount() {
			t.Fatalf("stats count %d, ElementCount %d", r.Stats.Elements, d.ElementCount())
		}
	})
}

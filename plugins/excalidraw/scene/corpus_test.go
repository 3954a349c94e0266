package scene

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// TestCorpusRoundTrip reads every real scene, writes it and reads it back:
// every element must come back deeply equal (unknown fields included), as
// must the document-level members other than appState, which must be
// reduced to the three round-tripped members.
func TestCorpusRoundTrip(t *testing.T) {
	files := testcorpus.Files(t)
	identical, identicalButNewline := 0, 0
	for _, path := range files {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Parse(data, Limits{})
		if err != nil {
			t.Errorf("%s: Parse: %v", name, err)
			continue
		}
		out, err := doc.Marshal()
		if err != nil {
			t.Errorf("%s: Marshal: %v", name, err)
			continue
		}
		back, err := Parse(out, Limits{})
		if err != nil {
			t.Errorf("%s: Parse after Marshal: %v", name, err)
			continue
		}
		compareDocuments(t, name, data, back)
		switch a, b := withoutAppState(data), withoutAppState(out); {
		case bytes.Equal(a, b):
			identical++
		case bytes.Equal(bytes.TrimRight(a, "\n"), b):
			identicalButNewline++
		default:
			t.Logf("%s: not byte-identical after the round trip", name)
		}
	}
	t.Logf("%d of %d files byte-identical after the round trip apart from appState; %d more differ only by a trailing newline (the rest were not written by JSON.stringify(v, null, 2))", identical, len(files), identicalButNewline)
}

// compareDocuments checks back (read from our output) against the
// original bytes, decoded independently.
func compareDocuments(t *testing.T, name string, orig []byte, back *Document) {
	t.Helper()
	raw, err := ojson.Decode(orig, ojson.Limits{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	root := raw.(*ojson.Object)
	els, _ := root.Array("elements")
	if len(els) != back.ElementCount() {
		t.Errorf("%s: %d elements, want %d", name, back.ElementCount(), len(els))
		return
	}
	for i, e := range els {
		if !reflect.DeepEqual(e, back.Elements()[i]) {
			t.Errorf("%s: element %d differs after the round trip", name, i)
		}
	}
	for _, k := range root.Keys() {
		if reservedMember(k) {
			continue
		}
		want, got := mustGet(root, k), any(nil)
		got, _ = back.Field(k)
		if k == keyType || k == keyVersion {
			got, _ = back.members.Get(k)
		}
		if k == keyVersion {
			want = versionValue // Marshal writes version 2, whatever was read
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: document member %q differs", name, k)
		}
	}
	if files, ok := root.Object(keyFiles); ok && !reflect.DeepEqual(files, back.Files()) {
		t.Errorf("%s: files differ", name)
	}
	if keys := back.AppState().Keys(); len(keys) != 3 || !isAppStateKey(keys[0]) || !isAppStateKey(keys[1]) || !isAppStateKey(keys[2]) {
		t.Errorf("%s: appState after the round trip has %v", name, keys)
	}
	if !slices.Equal(root.Keys(), back.Keys()) {
		t.Errorf("%s: member order %v, want %v", name, back.Keys(), root.Keys())
	}
}

// withoutAppState cuts the appState member out of a file written with a
// two-space indent, the layout of every Excalidraw save.
func withoutAppState(b []byte) []byte {
	start := bytes.Index(b, []byte("\n  \"appState\": {"))
	if start < 0 {
		return b
	}
	end := bytes.Index(b[start+1:], []byte("\n  }"))
	if end < 0 {
		return b
	}
	return append(slices.Clone(b[:start]), b[start+1+end+4:]...)
}

// TestCorpusValidate validates every real scene. Real files carry warnings
// (old files lack fields restore fills in, back-references go stale), but
// an error means the file is broken, so each error seen here must be
// justified below.
func TestCorpusValidate(t *testing.T) {
	files := testcorpus.Files(t)
	counts := map[string]int{}
	perFile := map[string]int{}
	strict := 0
	for _, path := range files {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r := ValidateBytes(data, Limits{MaxDiagnostics: 1 << 30})
		for _, d := range r.Diagnostics {
			key := string(d.Severity) + " " + d.Code
			counts[key]++
			if perFile[key+" "+name] == 0 {
				perFile[key+" "+name] = 1
			}
			if d.Severity == SeverityError && !expectedCorpusError(name, d) {
				t.Errorf("%s: unexpected error %s", name, d)
			}
		}
		if r.Stats.Elements == 0 && len(data) > 1000 {
			t.Errorf("%s: no elements counted", name)
		}
		if _, err := ParseStrict(data, Limits{}); err == nil {
			strict++
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		nFiles := 0
		for pf := range perFile {
			if strings.HasPrefix(pf, k+" ") {
				nFiles++
			}
		}
		fmt.Fprintf(&b, "\n  %-32s %6d in %2d files", k, counts[k], nFiles)
	}
	t.Logf("diagnostics over %d corpus files:%s", len(files), b.String())
	t.Logf("%d of %d files pass ParseStrict (the rest hold the legacy draw type)", strict, len(files))
}

// expectedCorpusError lists the errors real files are known to carry
// because they really are broken. Empty: no corpus file has one.
func expectedCorpusError(file string, d Diagnostic) bool {
	return false
}

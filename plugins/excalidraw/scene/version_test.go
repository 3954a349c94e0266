package scene

import (
	"bytes"
	"os"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// legacyFixture is a version-1 scene as Excalidraw wrote it in 2020:
// strokeSharpness instead of roundness, boundElementIds instead of
// boundElements, a text's baseline, no index, frameId, updated, link or
// locked, and an appState of two members.
const legacyFixture = "testdata/legacy-v1-2020.excalidraw"

func readFixture(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestParseReadsEveryDocumentVersion: `type` is what makes a file a scene
// (Excalidraw 0.18.1's isValidExcalidrawData looks at nothing else), so
// an older, newer, missing or odd version is read, reported as a warning,
// and written as version 2 in the member's place.
func TestParseReadsEveryDocumentVersion(t *testing.T) {
	cases := map[string]string{
		"older":   `{"type":"excalidraw","version":1,"source":"s","elements":[]}`,
		"newer":   `{"type":"excalidraw","version":3,"source":"s","elements":[]}`,
		"string":  `{"type":"excalidraw","version":"2","source":"s","elements":[]}`,
		"missing": `{"type":"excalidraw","source":"s","elements":[]}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			doc, err := Parse([]byte(in), Limits{})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			rep := ValidateBytes([]byte(in), Limits{})
			if !rep.Valid || rep.Count(CodeDocumentVersion) != 1 {
				t.Fatalf("report: %+v", rep)
			}
			if d := rep.Diagnostics[0]; d.Severity != SeverityWarning || d.Pointer != "/version" {
				t.Fatalf("diagnostic: %+v", d)
			}
			out, err := doc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if want := "{\n  \"type\": \"excalidraw\",\n  \"version\": 2,\n  \"source\": \"s\",\n"; !bytes.HasPrefix(out, []byte(want)) {
				t.Fatalf("written:\n%s", out)
			}
			if again := ValidateBytes(out, Limits{}); again.Count(CodeDocumentVersion) != 0 {
				t.Fatalf("written scene still warns: %+v", again)
			}
		})
	}
	// A version-2 scene has nothing to say about its version.
	if rep := ValidateBytes([]byte(`{"type":"excalidraw","version":2,"elements":[]}`), Limits{}); rep.Count(CodeDocumentVersion) != 0 {
		t.Fatalf("version 2: %+v", rep)
	}
	// The type still decides: anything else is not a scene.
	if _, err := Parse([]byte(`{"type":"excalidrawlib","version":2,"elements":[]}`), Limits{}); err == nil {
		t.Fatal("a library parsed as a scene")
	}
}

// TestLegacyFixtureRoundTrip: the 2020 file is read, is valid, and once
// normalized is written as version 2 keeping every member of every
// element, except what restore migrates (boundElementIds becomes
// boundElements) and the version bump of the elements it re-indexes.
func TestLegacyFixtureRoundTrip(t *testing.T) {
	data := readFixture(t, legacyFixture)
	if rep := ValidateBytes(data, Limits{}); !rep.Valid {
		t.Fatalf("fixture is not valid: %v", rep.Errors())
	}
	doc, err := Parse(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	orig := doc.Clone()
	Normalize(doc)
	out, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back := mustParse(t, out)
	if rep := Validate(back, Limits{}); !rep.Valid || rep.Count(CodeDocumentVersion) != 0 {
		t.Fatalf("written scene: %+v", rep)
	}
	if v, _ := back.members.Get(keyVersion); v != jsNumber(2) {
		t.Fatalf("version written %v", v)
	}
	if src, _ := back.Field("source"); src != "https://excalidraw.com" {
		t.Fatalf("source %v", src)
	}
	wantLegacyKept(t, orig, back)
}

// wantLegacyKept fails unless every element of orig is in back, in the
// same place, with every member it had, equal, except the ones Normalize
// is documented to rewrite: a boundElementIds list (migrated to
// boundElements, which must list the same ids; a null one is kept) and the
// version, versionNonce and updated of an element whose index it
// regenerates.
func wantLegacyKept(t *testing.T, orig, back *Document) {
	t.Helper()
	if len(back.Elements()) != len(orig.Elements()) {
		t.Fatalf("%d elements written, %d read", len(back.Elements()), len(orig.Elements()))
	}
	bumped := map[string]bool{"version": true, "versionNonce": true, "updated": true}
	for i, o := range orig.Elements() {
		b := back.Elements()[i]
		id, _ := o.String("id")
		for _, k := range o.Keys() {
			ov, _ := o.Get(k)
			switch {
			case k == "boundElementIds" && ov != nil:
				if b.Has(k) {
					t.Errorf("%s: boundElementIds kept", id)
				}
				wantBoundIDs(t, id, ov, mustGet(b, "boundElements"))
			case bumped[k]:
				if !b.Has(k) {
					t.Errorf("%s: %s dropped", id, k)
				}
			default:
				if bv, ok := b.Get(k); !ok || !ojson.Equal(ov, bv, false) {
					t.Errorf("%s: %s was %v, written %v", id, k, ov, bv)
				}
			}
		}
	}
}

// wantBoundIDs checks that a migrated boundElements names the ids of the
// legacy boundElementIds.
func wantBoundIDs(t *testing.T, id string, legacy, bound any) {
	t.Helper()
	var want, got []string
	ids, _ := legacy.([]any)
	for _, x := range ids {
		want = append(want, x.(string))
	}
	entries, _ := bound.([]any)
	for _, e := range entries {
		got = append(got, entryID(e))
	}
	if len(want) != len(got) {
		t.Errorf("%s: boundElementIds %v became boundElements %v", id, want, got)
		return
	}
	for i := range want {
		if want[i] != got[i] {
			t.Errorf("%s: boundElementIds %v became boundElements %v", id, want, got)
		}
	}
}

package testcorpus

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/dshgo/dsh/internal/testcorpus/gen"
)

// The committed corpus is what the generator makes now: regenerating into
// a fresh folder gives the same files, byte for byte, and no others.
func TestGeneratedIsCurrent(t *testing.T) {
	tmp := t.TempDir()
	if err := gen.Write(tmp); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Glob(filepath.Join(tmp, "*.excalidraw"))
	got := Files(t)
	if Shared() != "" {
		got = list(t, Generated(t))
	}
	base := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = filepath.Base(p)
		}
		return out
	}
	if !slices.Equal(base(got), base(want)) {
		t.Fatalf("testdata holds %q, the generator makes %q: run go generate ./internal/testcorpus/...", base(got), base(want))
	}
	for i := range want {
		a, _ := os.ReadFile(want[i])
		b, _ := os.ReadFile(got[i])
		if !bytes.Equal(a, b) {
			t.Errorf("%s is stale: run go generate ./internal/testcorpus/...", filepath.Base(got[i]))
		}
	}
	// and a second run in the same process makes the same bytes
	again := gen.Scenes()
	for i, s := range gen.Scenes() {
		if !bytes.Equal(s.Data, again[i].Data) {
			t.Errorf("%s: two runs differ", s.Name)
		}
	}
}

type element struct {
	Type               string
	Index              *string
	ContainerID        *string `json:"containerId"`
	FrameID            *string `json:"frameId"`
	GroupIDs           []string
	FontFamily         float64
	Text               string
	Angle              *float64
	Opacity            *float64
	Roughness          *float64
	FillStyle          string
	StartBinding       *struct{ FixedPoint []float64 }
	Elbowed            bool
	Pressures          []float64
	LastCommittedPoint []float64
	FileID             string `json:"fileId"`
	IsDeleted          bool
	Locked             bool
	Link               *string
	raw                map[string]json.RawMessage
}

// TestCoverage holds the generated corpus to what the real drawings
// exercise, so that a change to the generator cannot quietly drop it.
func TestCoverage(t *testing.T) {
	seen := map[string]int{}
	mark := func(k string) { seen[k]++ }
	for _, path := range list(t, Generated(t)) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Version  float64
			Elements []json.RawMessage
			AppState struct{ ViewBackgroundColor string }
			Files    map[string]struct {
				ID, MimeType, DataURL string
			}
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if doc.Version == 1 {
			mark("version 1")
		}
		if strings.HasPrefix(doc.AppState.ViewBackgroundColor, "#1") || strings.HasPrefix(doc.AppState.ViewBackgroundColor, "#2") {
			mark("dark background")
		}
		if len(doc.Elements) >= 2000 {
			mark("2000 elements")
		}
		if len(doc.Elements) == 0 {
			mark("empty")
		}
		used := map[string]bool{}
		for _, raw := range doc.Elements {
			var el element
			if err := json.Unmarshal(raw, &el); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			json.Unmarshal(raw, &el.raw)
			mark("type " + el.Type)
			for _, k := range []string{"boundElementIds", "strokeSharpness", "baseline", "customData"} {
				if _, ok := el.raw[k]; ok {
					mark(k)
				}
			}
			for _, k := range []string{"angle", "opacity", "roughness", "strokeWidth", "lineHeight"} {
				if v, ok := el.raw[k]; ok && string(v) == "null" {
					mark("null number")
				}
			}
			if el.Index == nil {
				mark("no index")
			}
			if el.ContainerID != nil {
				mark("bound text")
			}
			if el.FrameID != nil {
				mark("frame child")
			}
			if len(el.GroupIDs) > 1 {
				mark("nested groups")
			}
			if el.Type == "text" {
				mark("font " + string(rune('0'+int(el.FontFamily))))
				for _, r := range el.Text {
					switch {
					case unicode.Is(unicode.Han, r):
						mark("Han")
					case unicode.Is(unicode.Arabic, r):
						mark("Arabic")
					case r >= 0x1F300:
						mark("emoji")
					}
				}
			}
			if el.Angle != nil && *el.Angle != 0 {
				mark("rotated")
			}
			if el.Opacity != nil && *el.Opacity < 100 {
				mark("translucent")
			}
			if el.Roughness != nil {
				mark("roughness " + string(rune('0'+int(*el.Roughness))))
			}
			if el.FillStyle != "" {
				mark("fill " + el.FillStyle)
			}
			if el.StartBinding != nil {
				mark("bound arrow")
			}
			if el.Elbowed && el.StartBinding != nil && len(el.StartBinding.FixedPoint) == 2 {
				mark("bound elbow arrow")
			}
			if el.Type == "freedraw" && len(el.Pressures) > 0 {
				mark("pressures")
			}
			if el.Type == "freedraw" && el.LastCommittedPoint != nil {
				mark("committed stroke")
			}
			if el.IsDeleted {
				mark("deleted")
			}
			if el.Locked {
				mark("locked")
			}
			if el.Link != nil {
				mark("link")
			}
			if el.Type == "image" {
				used[el.FileID] = true
			}
		}
		for id, f := range doc.Files {
			b64, ok := strings.CutPrefix(f.DataURL, "data:image/png;base64,")
			raw, err := base64.StdEncoding.DecodeString(b64)
			if !ok || err != nil || f.ID != id || f.MimeType != "image/png" {
				t.Errorf("%s: file %s is not a PNG data URL (%v)", path, id, err)
				continue
			}
			if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
				t.Errorf("%s: file %s: %v", path, id, err)
			}
			if !used[id] {
				t.Errorf("%s: file %s is used by no image", path, id)
			}
			mark("image file")
		}
		for id := range used {
			if _, ok := doc.Files[id]; !ok {
				t.Errorf("%s: image of a missing file %s", path, id)
			}
		}
	}
	var want []string
	for _, typ := range []string{"rectangle", "diamond", "ellipse", "arrow", "line", "freedraw", "text", "image", "frame", "magicframe", "embeddable", "iframe", "draw"} {
		want = append(want, "type "+typ)
	}
	for _, f := range "12356789" {
		want = append(want, "font "+string(f))
	}
	want = append(want, "version 1", "dark background", "2000 elements", "empty", "boundElementIds", "strokeSharpness", "baseline",
		"customData", "null number", "no index", "bound text", "frame child", "nested groups", "Han", "Arabic", "emoji", "rotated",
		"translucent", "roughness 0", "roughness 1", "roughness 2", "fill solid", "fill hachure", "fill cross-hatch", "fill zigzag",
		"bound arrow", "bound elbow arrow", "pressures", "committed stroke", "deleted", "locked", "link", "image file")
	for _, k := range want {
		if seen[k] == 0 {
			t.Errorf("the generated corpus has no %s", k)
		}
	}
}

// DSH_CORPUS points Files at another folder; Read and Seeds still read
// the generated corpus.
func TestSharedOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "real.excalidraw"), []byte(`{"type":"excalidraw"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, dir)
	if got := Files(t); len(got) != 1 || filepath.Base(got[0]) != "real.excalidraw" {
		t.Fatalf("Files with %s set: %q", Env, got)
	}
	if b := Read(t, "single-text.excalidraw"); !bytes.Contains(b, []byte(`"Hello"`)) {
		t.Fatal("Read did not read the generated scene")
	}
	seeds := Seeds(t)
	if n := len(list(t, Generated(t))); len(seeds) != n+1 || filepath.Base(seeds[n]) != "real.excalidraw" {
		t.Fatalf("Seeds: %d files, want the %d generated and the shared one", len(seeds), n)
	}
	t.Setenv(Env, "")
	if got := Files(t); filepath.Dir(got[0]) != Generated(t) || len(got) < 30 {
		t.Fatalf("Files without %s: %d in %s", Env, len(got), filepath.Dir(got[0]))
	}
}

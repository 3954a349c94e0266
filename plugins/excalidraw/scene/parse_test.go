package scene

import (
	"errors"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestParseRejections(t *testing.T) {
	big := `{"type":"excalidraw","version":2,"elements":[],"pad":"` + strings.Repeat("x", 200) + `"}`
	deep := `{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","customData":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}]}`
	twoRects := `{"type":"excalidraw","version":2,"elements":[{"type":"rectangle"},{"type":"rectangle"}]}`
	badFile := `{"type":"excalidraw","version":2,"elements":[],"files":{"f":{"id":"f","mimeType":"image/png","dataURL":"data:image/png;base64,@@"}}}`
	cases := []struct {
		name, in string
		lim      Limits
		code     sceneerr.Code
		pointer  string
	}{
		{"unsafe key", `{"type":"excalidraw","version":2,"elements":[{"constructor":1}]}`, Limits{}, sceneerr.InvalidScene, "/elements/0"},
		{"proto key at top", `{"__proto__":{"x":1}}`, Limits{}, sceneerr.InvalidScene, ""},
		{"duplicate key", `{"type":"excalidraw","version":2,"version":2}`, Limits{}, sceneerr.InvalidScene, ""},
		{"too deep", deep, Limits{}, sceneerr.InvalidScene, "/elements/0/customData" + strings.Repeat("/0", 61)},
		{"too large", big, Limits{MaxSceneBytes: 100}, sceneerr.TooLarge, ""},
		{"too many elements", twoRects, Limits{MaxElements: 1}, sceneerr.TooManyElements, "/elements"},
		{"not an object", `"excalidraw"`, Limits{}, sceneerr.InvalidScene, ""},
		{"syntax", `{"type":"excalidraw",}`, Limits{}, sceneerr.InvalidScene, ""},
		{"trailing data", `{"type":"excalidraw","version":2,"elements":[]} x`, Limits{}, sceneerr.InvalidScene, ""},
		{"wrong type field", `{"type":"excalidrawlib","version":2,"elements":[]}`, Limits{}, sceneerr.InvalidScene, "/type"},
		{"no type field", `{"version":2,"elements":[]}`, Limits{}, sceneerr.InvalidScene, "/type"},
		{"elements not an array", `{"type":"excalidraw","version":2,"elements":"x"}`, Limits{}, sceneerr.InvalidScene, "/elements"},
		{"element not an object", `{"type":"excalidraw","version":2,"elements":[[]]}`, Limits{}, sceneerr.InvalidScene, "/elements/0"},
		{"element without type", `{"type":"excalidraw","version":2,"elements":[{"id":"a"}]}`, Limits{}, sceneerr.InvalidScene, "/elements/0/type"},
		{"appState not an object", `{"type":"excalidraw","version":2,"elements":[],"appState":[]}`, Limits{}, sceneerr.InvalidScene, "/appState"},
		{"bad attachment", badFile, Limits{}, sceneerr.InvalidScene, "/files/f"},
		{"too many files", validFilesScene(2), Limits{MaxFiles: 1}, sceneerr.TooLarge, "/files"},
		{"files too large", validFilesScene(1), Limits{MaxFileBytes: 5}, sceneerr.TooLarge, "/files"},
		{"text too long", `{"type":"excalidraw","version":2,"elements":[{"type":"text","text":"abcdef"}]}`, Limits{MaxTextLength: 3}, sceneerr.TooLarge, "/elements/0/text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse([]byte(c.in), c.lim)
			if err == nil {
				t.Fatalf("Parse accepted it: %v", d.Keys())
			}
			var se *sceneerr.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *sceneerr.Error", err, err)
			}
			if se.Code != c.code {
				t.Errorf("code %s, want %s (%v)", se.Code, c.code, err)
			}
			if se.Details["pointer"] != c.pointer {
				t.Errorf("pointer %q, want %q (%v)", se.Details["pointer"], c.pointer, err)
			}
		})
	}
}

func validFilesScene(n int) string {
	d := NewDocument()
	for i := range n {
		id := string(rune('a' + i))
		d.Files().Set(id, fileEntry(id))
	}
	b, _ := d.Marshal()
	return string(b)
}

func TestParseDecodeErrorCarriesOffset(t *testing.T) {
	_, err := Parse([]byte(`{"type":"excalidraw","version":2,"elements":[{"id":"a","id":"b"}]}`), Limits{})
	var se *sceneerr.Error
	if !errors.As(err, &se) || se.Details["offset"] == nil || se.Details["diagnostic"] != CodeDuplicateKey {
		t.Fatalf("%#v", err)
	}
	if off, _ := se.Details["offset"].(int); off <= 40 {
		t.Errorf("offset %v should point into the element", se.Details["offset"])
	}
}

// TestParseAcceptsWhatRestoreRepairs: the lenient reader must load damaged
// but readable scenes; their problems are the validator's to report.
func TestParseAcceptsWhatRestoreRepairs(t *testing.T) {
	accepted := []string{
		`{"type":"excalidraw","version":2,"elements":[]}`,
		`{"type":"excalidraw","version":2}`,
		`{"type":"excalidraw","version":2,"elements":null,"appState":null,"files":null}`,
		`{"type":"excalidraw","version":2.0,"elements":[{"type":"table","id":"x"}]}`,
		`{"type":"excalidraw","version":2,"elements":[{"type":"arrow","id":"a","startBinding":{"elementId":"gone"}}]}`,
		`{"type":"excalidraw","version":2,"elements":[{"type":"image","id":"a","fileId":"missing"},{"type":"rectangle","id":"a"}]}`,
		`{"type":"excalidraw","version":2,"elements":[],"appState":{"zoom":{"value":1},"gridSize":"x"}}`,
	}
	for _, in := range accepted {
		if _, err := Parse([]byte(in), Limits{}); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestParseKeepsUnknownMembers(t *testing.T) {
	in := `{"type":"excalidraw","extra":{"b":1,"a":[true]},"version":2,"source":"s","elements":[{"type":"rectangle","zz":1,"id":"r"}],"appState":{},"plugin":"x"}`
	d := mustParse(t, []byte(in))
	if got := strings.Join(d.Keys(), ","); got != "type,extra,version,source,elements,appState,plugin" {
		t.Errorf("keys %s", got)
	}
	if v, ok := d.Field("plugin"); !ok || v != "x" {
		t.Errorf("plugin %v", v)
	}
	if got := strings.Join(d.Elements()[0].Keys(), ","); got != "type,zz,id" {
		t.Errorf("element keys %s", got)
	}
}

package scene

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// validScene is a scene using every creatable type, bound text, a bound
// arrow, a frame and an image: it must validate without a single
// diagnostic, so each case below can break exactly one thing.
func validScene() *Document {
	r1, r2 := rect("r1"), rect("r2")
	r2.Set("x", num(300))
	label := textEl("t1", "r1")
	a := arrow("a1", "r1", "r2")
	bind(r1, "t1", "text")
	bind(r1, "a1", "arrow")
	bind(r2, "a1", "arrow")
	f := frameEl("f1")
	img := imageEl("i1", "file1")
	img.Set("frameId", "f1")
	d := docOf(f, r1, label, r2, a, baseElement("e1", "ellipse", 0, 100, 50, 50),
		baseElement("d1", "diamond", 0, 200, 50, 50), linear("l1", "line", "", ""),
		freedrawEl("fd1"), textEl("t2", ""), img)
	d.Files().Set("file1", fileEntry("file1"))
	return d
}

func TestValidSceneHasNoDiagnostics(t *testing.T) {
	d := validScene()
	r := Validate(d, Limits{})
	if !r.Valid || len(r.Diagnostics) != 0 {
		t.Fatalf("valid scene: %v", r.Diagnostics)
	}
	if r2 := ValidateBytes(mustMarshal(t, d), Limits{}); !r2.Valid || len(r2.Diagnostics) != 0 {
		t.Fatalf("valid scene bytes: %v", r2.Diagnostics)
	}
}

type diagCase struct {
	name string
	lim  Limits
	data func(t *testing.T) []byte
	code string
	sev  Severity
	ptr  string
}

// edit returns a case input: the valid scene after f changed it.
func edit(f func(d *Document)) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		d := validScene()
		f(d)
		return mustMarshal(t, d)
	}
}

func raw(s string) func(t *testing.T) []byte { return func(*testing.T) []byte { return []byte(s) } }

func el(d *Document, id string) *ojson.Object {
	_, e := d.Find(id)
	if e == nil {
		panic("no element " + id)
	}
	return e
}

// diagCases has at least one minimal document per diagnostic code.
var diagCases = []diagCase{
	{"syntax", Limits{}, raw(`{"type":`), CodeInvalidJSON, SeverityError, "/type"},
	{"duplicate key", Limits{}, raw(`{"type":"excalidraw","version":2,"elements":[{"id":"a","id":"b"}]}`), CodeDuplicateKey, SeverityError, "/elements/0"},
	{"unsafe key", Limits{}, raw(`{"type":"excalidraw","version":2,"elements":[{"__proto__":{}}]}`), CodeUnsafeKey, SeverityError, "/elements/0"},
	{"too deep", Limits{MaxDepth: 8}, raw(`{"type":"excalidraw","version":2,"elements":[{"customData":{"a":[[[[[[1]]]]]]}}]}`), CodeTooDeep, SeverityError, "/elements/0/customData/a/0/0/0/0"},
	{"too large", Limits{MaxSceneBytes: 100}, edit(func(*Document) {}), CodeTooLarge, SeverityError, ""},
	{"top level not an object", Limits{}, raw(`[]`), CodeInvalidDocument, SeverityError, ""},
	{"wrong document type", Limits{}, raw(`{"type":"excalidrawlib","version":2,"elements":[]}`), CodeInvalidDocument, SeverityError, "/type"},
	{"version not 2", Limits{}, raw(`{"type":"excalidraw","version":1,"elements":[]}`), CodeDocumentVersion, SeverityWarning, "/version"},
	{"elements not an array", Limits{}, raw(`{"type":"excalidraw","version":2,"elements":{}}`), CodeInvalidDocument, SeverityError, "/elements"},
	{"files not an object", Limits{}, raw(`{"type":"excalidraw","version":2,"elements":[],"files":[]}`), CodeInvalidDocument, SeverityError, "/files"},
	{"element not an object", Limits{}, raw(`{"type":"excalidraw","version":2,"elements":[1]}`), CodeInvalidElement, SeverityError, "/elements/0"},
	{"element without type", Limits{}, edit(func(d *Document) { el(d, "r1").Delete("type") }), CodeMissingField, SeverityError, "/elements/1/type"},
	{"element without id", Limits{}, edit(func(d *Document) { el(d, "r1").Delete("id") }), CodeMissingField, SeverityError, "/elements/1/id"},
	{"text without fontSize", Limits{}, edit(func(d *Document) { el(d, "t2").Delete("fontSize") }), CodeMissingField, SeverityError, "/elements/9/fontSize"},
	{"freedraw without points", Limits{}, edit(func(d *Document) { el(d, "fd1").Delete("points") }), CodeMissingField, SeverityError, "/elements/8/points"},
	{"defaulted fields", Limits{}, edit(func(d *Document) { el(d, "r1").Delete("updated"); el(d, "r1").Set("locked", nil) }), CodeMissingField, SeverityWarning, "/elements/1"},
	{"type not a string", Limits{}, edit(func(d *Document) { el(d, "r1").Set("type", num(3)) }), CodeInvalidField, SeverityError, "/elements/1/type"},
	{"id empty", Limits{}, edit(func(d *Document) { el(d, "e1").Set("id", "") }), CodeInvalidField, SeverityError, "/elements/5/id"},
	{"x a string", Limits{}, edit(func(d *Document) { el(d, "r1").Set("x", "12") }), CodeInvalidField, SeverityError, "/elements/1/x"},
	{"groupIds of numbers", Limits{}, edit(func(d *Document) { el(d, "r1").Set("groupIds", []any{num(1)}) }), CodeInvalidField, SeverityError, "/elements/1/groupIds/0"},
	{"boundElements entry without id", Limits{}, edit(func(d *Document) { el(d, "r2").Set("boundElements", []any{ojson.New().Set("type", "arrow")}) }), CodeInvalidField, SeverityError, "/elements/3/boundElements/0/id"},
	{"point not a pair", Limits{}, edit(func(d *Document) { el(d, "a1").Set("points", []any{[]any{num(0)}}) }), CodeInvalidField, SeverityError, "/elements/4/points/0"},
	{"binding without elementId", Limits{}, edit(func(d *Document) { el(d, "l1").Set("startBinding", ojson.New()) }), CodeInvalidField, SeverityError, "/elements/7/startBinding/elementId"},
	{"scale not a pair", Limits{}, edit(func(d *Document) { el(d, "i1").Set("scale", num(1)) }), CodeInvalidField, SeverityError, "/elements/10/scale"},
	{"isDeleted a string", Limits{}, edit(func(d *Document) { el(d, "e1").Set("isDeleted", "false") }), CodeInvalidField, SeverityError, "/elements/5/isDeleted"},
	{"unknown fillStyle", Limits{}, edit(func(d *Document) { el(d, "r1").Set("fillStyle", "dots") }), CodeInvalidField, SeverityWarning, "/elements/1/fillStyle"},
	{"unknown fontFamily", Limits{}, edit(func(d *Document) { el(d, "t2").Set("fontFamily", num(42)) }), CodeInvalidField, SeverityWarning, "/elements/9/fontFamily"},
	{"line with a binding", Limits{}, edit(func(d *Document) { el(d, "l1").Set("startBinding", binding("r1")) }), CodeInvalidField, SeverityWarning, "/elements/7/startBinding"},
	{"appState gridModeEnabled a string", Limits{}, edit(func(d *Document) { d.AppState().Set("gridModeEnabled", "yes") }), CodeInvalidField, SeverityWarning, "/appState/gridModeEnabled"},
	{"opacity over 100", Limits{}, edit(func(d *Document) { el(d, "r1").Set("opacity", num(150)) }), CodeOutOfBounds, SeverityError, "/elements/1/opacity"},
	{"x far away", Limits{}, edit(func(d *Document) { el(d, "r1").Set("x", num(2e7)) }), CodeOutOfBounds, SeverityError, "/elements/1/x"},
	{"number overflows", Limits{}, edit(func(d *Document) { el(d, "r1").Set("y", json.Number("1e999")) }), CodeOutOfBounds, SeverityError, "/elements/1/y"},
	{"fontSize zero", Limits{}, edit(func(d *Document) { el(d, "t2").Set("fontSize", num(0)) }), CodeOutOfBounds, SeverityError, "/elements/9/fontSize"},
	{"point far away", Limits{}, edit(func(d *Document) { el(d, "fd1").Set("points", []any{[]any{num(0), num(-3e7)}}) }), CodeOutOfBounds, SeverityError, "/elements/8/points/0/1"},
	{"negative width", Limits{}, edit(func(d *Document) { el(d, "e1").Set("width", num(-5)) }), CodeOutOfBounds, SeverityWarning, "/elements/5/width"},
	{"duplicate id", Limits{}, edit(func(d *Document) { el(d, "d1").Set("id", "e1") }), CodeDuplicateID, SeverityError, "/elements/6/id"},
	{"unsupported type", Limits{}, edit(func(d *Document) { el(d, "d1").Set("type", "table") }), CodeUnsupportedType, SeverityError, "/elements/6/type"},
	{"legacy draw type", Limits{}, edit(func(d *Document) { el(d, "l1").Set("type", "draw") }), CodeUnsupportedType, SeverityWarning, "/elements/7/type"},
	{"text too long", Limits{MaxTextLength: 5}, edit(func(d *Document) { el(d, "t2").Set("text", "héllo!") }), CodeTextTooLong, SeverityError, "/elements/9/text"},
	{"index malformed", Limits{}, edit(func(d *Document) { el(d, "d1").Set("index", "a0!") }), CodeInvalidIndex, SeverityWarning, "/elements/6/index"},
	{"index a number", Limits{}, edit(func(d *Document) { el(d, "d1").Set("index", num(3)) }), CodeInvalidIndex, SeverityWarning, "/elements/6/index"},
	{"index out of order", Limits{}, edit(func(d *Document) { el(d, "d1").Set("index", "a0") }), CodeIndexOrder, SeverityWarning, "/elements/6/index"},
	{"arrow binds nothing", Limits{}, edit(func(d *Document) { el(d, "a1").Set("endBinding", binding("gone")) }), CodeDanglingBinding, SeverityError, "/elements/4/endBinding/elementId"},
	{"text contained by nothing", Limits{}, edit(func(d *Document) { el(d, "t2").Set("containerId", "gone") }), CodeDanglingBinding, SeverityError, "/elements/9/containerId"},
	{"arrow binds a deleted element", Limits{}, edit(func(d *Document) { el(d, "r2").Set("isDeleted", true) }), CodeDanglingBinding, SeverityWarning, "/elements/4/endBinding/elementId"},
	{"boundElements lists nothing", Limits{}, edit(func(d *Document) { bind(el(d, "e1"), "gone", "arrow") }), CodeDanglingBinding, SeverityWarning, "/elements/5/boundElements/0"},
	{"arrow not listed by target", Limits{}, edit(func(d *Document) { el(d, "r2").Set("boundElements", nil) }), CodeOneSidedBinding, SeverityWarning, "/elements/4/endBinding"},
	{"listed arrow does not bind", Limits{}, edit(func(d *Document) { bind(el(d, "e1"), "a1", "arrow") }), CodeOneSidedBinding, SeverityWarning, "/elements/5/boundElements/0"},
	{"text not listed by container", Limits{}, edit(func(d *Document) {
		el(d, "r1").Set("boundElements", []any{ojson.New().Set("id", "a1").Set("type", "arrow")})
	}), CodeOneSidedBinding, SeverityWarning, "/elements/2/containerId"},
	{"text in a line", Limits{}, edit(func(d *Document) { el(d, "t2").Set("containerId", "l1"); bind(el(d, "l1"), "t2", "text") }), CodeInvalidContainer, SeverityError, "/elements/9/containerId"},
	{"frame missing", Limits{}, edit(func(d *Document) { el(d, "r1").Set("frameId", "gone") }), CodeDanglingFrame, SeverityError, "/elements/1/frameId"},
	{"frame not a frame", Limits{}, edit(func(d *Document) { el(d, "r1").Set("frameId", "e1") }), CodeDanglingFrame, SeverityError, "/elements/1/frameId"},
	{"frame deleted", Limits{}, edit(func(d *Document) { el(d, "f1").Set("isDeleted", true) }), CodeDanglingFrame, SeverityWarning, "/elements/10/frameId"},
	{"attachment not base64", Limits{}, edit(func(d *Document) {
		d.Files().Set("file1", fileEntry("file1").Set("dataURL", "data:image/png;base64,%%%%"))
	}), CodeInvalidAttachment, SeverityError, "/files/file1"},
	{"attachment not an image", Limits{}, edit(func(d *Document) {
		d.Files().Set("file1", fileEntry("file1").Set("mimeType", "text/html").Set("dataURL", "data:text/html;base64,PGI+"))
	}), CodeInvalidAttachment, SeverityError, "/files/file1"},
	{"image file missing", Limits{}, edit(func(d *Document) { el(d, "i1").Set("fileId", "nope") }), CodeMissingFile, SeverityError, "/elements/10/fileId"},
	{"image without fileId", Limits{}, edit(func(d *Document) { el(d, "i1").Set("fileId", nil) }), CodeMissingFile, SeverityError, "/elements/10/fileId"},
	{"deleted image file missing", Limits{}, edit(func(d *Document) { el(d, "i1").Set("fileId", "nope").Set("isDeleted", true) }), CodeMissingFile, SeverityWarning, "/elements/10/fileId"},
	{"unused file", Limits{}, edit(func(d *Document) { d.Files().Set("file2", fileEntry("file2")) }), CodeUnusedFile, SeverityWarning, "/files/file2"},
	{"too many elements", Limits{MaxElements: 3}, edit(func(*Document) {}), CodeTooManyElements, SeverityError, "/elements"},
	{"too many files", Limits{MaxFiles: 1}, edit(func(d *Document) { d.Files().Set("file2", fileEntry("file2")) }), CodeTooManyFiles, SeverityError, "/files"},
	{"files too large", Limits{MaxFileBytes: 10}, edit(func(*Document) {}), CodeFilesTooLarge, SeverityError, "/files"},
}

func TestDiagnosticCases(t *testing.T) {
	for _, c := range diagCases {
		t.Run(c.name, func(t *testing.T) {
			r := ValidateBytes(c.data(t), c.lim)
			var found bool
			for _, d := range r.Diagnostics {
				if d.Code == c.code && d.Severity == c.sev && d.Pointer == c.ptr {
					found = true
				}
				if d.Message == "" {
					t.Errorf("diagnostic without a message: %+v", d)
				}
			}
			if !found {
				t.Fatalf("want %s %s at %q, got:\n%s", c.sev, c.code, c.ptr, dump(r.Diagnostics))
			}
			if r.Valid != (c.sev != SeverityError && len(r.Errors()) == 0) {
				t.Errorf("Valid = %v with errors %v", r.Valid, r.Errors())
			}
		})
	}
}

func TestEveryCodeHasACase(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range diagCases {
		covered[c.code] = true
	}
	for _, code := range Codes() {
		if !covered[code] {
			t.Errorf("no test case for %s", code)
		}
	}
}

func dump(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("  " + d.String() + "\n")
	}
	return b.String()
}

func TestValidateNilAndEmpty(t *testing.T) {
	if r := Validate(nil, Limits{}); !r.Valid || r.Diagnostics == nil {
		t.Fatalf("nil document: %+v", r)
	}
	d := NewDocument()
	d.SetElements([]*ojson.Object{nil})
	d.files = nil
	d.appState = nil
	r := Validate(d, Limits{})
	if r.Valid || r.Count(CodeInvalidElement) != 1 {
		t.Fatalf("nil element: %v", r.Diagnostics)
	}
}

func TestValidateDoesNotModify(t *testing.T) {
	d := validScene()
	el(d, "r1").Delete("updated")
	before := mustMarshal(t, d)
	Validate(d, Limits{})
	if string(mustMarshal(t, d)) != string(before) {
		t.Fatal("Validate modified the document")
	}
}

func TestValidateBytesKeepsGoingAfterDocumentErrors(t *testing.T) {
	r := ValidateBytes([]byte(`{"type":"x","version":2,"elements":[{"id":"a","type":"table"}]}`), Limits{})
	if r.Count(CodeInvalidDocument) != 1 || r.Count(CodeUnsupportedType) != 1 || r.Stats.Elements != 1 {
		t.Fatalf("%s", dump(r.Diagnostics))
	}
}

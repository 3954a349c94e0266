package scene

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestNewDocument(t *testing.T) {
	d := NewDocument()
	want := `{
  "type": "excalidraw",
  "version": 2,
  "source": "https://github.com/dshgo/dsh",
  "elements": [],
  "appState": {
    "viewBackgroundColor": "#ffffff",
    "gridSize": null,
    "gridModeEnabled": false
  },
  "files": {}
}`
	if got := string(mustMarshal(t, d)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if d.ElementCount() != 0 || d.Files().Len() != 0 || d.AppState().Len() != 3 {
		t.Fatal("empty document")
	}
}

func TestDocumentElements(t *testing.T) {
	d := NewDocument()
	d.SetElements([]*ojson.Object{rect("a"), rect("b").Set("isDeleted", true)})
	if d.ElementCount() != 2 {
		t.Fatalf("count %d: tombstones count", d.ElementCount())
	}
	if i, el := d.Find("b"); i != 1 || el == nil {
		t.Errorf("Find(b) = %d", i)
	}
	if i, el := d.Find("zz"); i != -1 || el != nil {
		t.Errorf("Find(zz) = %d", i)
	}
	d.SetElements(nil)
	if d.Elements() == nil || d.ElementCount() != 0 {
		t.Error("SetElements(nil) must leave an empty array")
	}
}

func TestDocumentFields(t *testing.T) {
	d := NewDocument()
	if err := d.SetField("plugin", "x"); err != nil {
		t.Fatal(err)
	}
	if v, ok := d.Field("plugin"); !ok || v != "x" {
		t.Fatalf("Field = %v", v)
	}
	for _, k := range []string{"elements", "appState", "files", "type", "version", "__proto__", "constructor"} {
		if err := d.SetField(k, 1); err == nil {
			t.Errorf("SetField(%q) must fail", k)
		}
	}
	if _, ok := d.Field("elements"); ok {
		t.Error("Field(elements) must not expose the placeholder")
	}
	d.DeleteField("type")
	if v, _ := d.Field("type"); v != "excalidraw" {
		t.Error("type cannot be deleted")
	}
	d.DeleteField("plugin")
	if _, ok := d.Field("plugin"); ok {
		t.Error("DeleteField")
	}
	if !strings.Contains(string(mustMarshal(t, d)), `"source"`) {
		t.Error("source lost")
	}
}

func TestDocumentCloneIsDeep(t *testing.T) {
	d := validScene()
	c := d.Clone()
	if !reflect.DeepEqual(mustMarshal(t, d), mustMarshal(t, c)) {
		t.Fatal("clone differs")
	}
	el(c, "r1").Set("x", num(999))
	c.Files().Delete("file1")
	c.AppState().Set("viewBackgroundColor", "#000")
	c.SetField("extra", true)
	if x, _ := el(d, "r1").Number("x"); x == 999 {
		t.Error("element shared")
	}
	if !d.Files().Has("file1") {
		t.Error("files shared")
	}
	if v, _ := d.AppState().String("viewBackgroundColor"); v != "#ffffff" {
		t.Error("appState shared")
	}
	if _, ok := d.Field("extra"); ok {
		t.Error("members shared")
	}
}

package scene

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestExportAppStateFiltersAndKeepsOrder(t *testing.T) {
	in := ojson.New().
		Set("gridSize", json.Number("20")).
		Set("gridStep", json.Number("5")).
		Set("viewBackgroundColor", "#000").
		Set("zoom", ojson.New().Set("value", json.Number("1")))
	out := exportAppState(in)
	if want := []string{"gridSize", "viewBackgroundColor", "gridModeEnabled"}; !slices.Equal(out.Keys(), want) {
		t.Fatalf("keys %v, want %v", out.Keys(), want)
	}
	if v, _ := out.Get("gridSize"); v != json.Number("20") {
		t.Errorf("gridSize %v", v)
	}
	if v, _ := out.Get("gridModeEnabled"); v != false {
		t.Errorf("gridModeEnabled default %v", v)
	}
	if !in.Has("zoom") {
		t.Error("exportAppState must not modify its input")
	}
}

func TestExportAppStateDefaults(t *testing.T) {
	for _, in := range []*ojson.Object{nil, ojson.New()} {
		out := exportAppState(in)
		b, _ := ojson.Marshal(out)
		if string(b) != `{"viewBackgroundColor":"#ffffff","gridSize":null,"gridModeEnabled":false}` {
			t.Errorf("defaults: %s", b)
		}
	}
}

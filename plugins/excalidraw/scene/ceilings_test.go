package scene_test

import (
	"encoding/json"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestCeilingsAreTheConfigMaxima: the ceilings stored scenes are read
// under are the largest values the plugin's configuration accepts, so a
// scene written under any configuration stays readable under any other.
func TestCeilingsAreTheConfigMaxima(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Maximum int64 `json:"maximum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(excalidraw.ConfigSchema, &schema); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]int64{
		"maxSceneBytes": scene.CeilingSceneBytes,
		"maxElements":   scene.CeilingElements,
		"maxTextLength": scene.CeilingTextLength,
		"maxFiles":      scene.DefaultMaxFiles,
	} {
		if got := schema.Properties[key].Maximum; got != want {
			t.Errorf("config %s maximum %d, ceiling %d", key, got, want)
		}
	}
}

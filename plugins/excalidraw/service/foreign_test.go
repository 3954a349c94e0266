package service

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// opacityPlan sets the opacity of one element with the contract's update.
func opacityPlan(id string, opacity int) Plan {
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		b, _ := json.Marshal(map[string]any{"op": "update", "id": id, "patch": map[string]any{"opacity": opacity}})
		ops, err := engine.DecodeOps([]json.RawMessage{b})
		if err != nil {
			return PlanResult{}, err
		}
		return PlanResult{Targets: []string{id}}, tx.Apply(ops)
	}
}

// A scene another program wrote (no fractional indices, boundElements
// null where Excalidraw's restore makes it a list) is brought to the
// stored form by its first write here. An opacity-only update then
// reports the one element it changed: finishing the scene re-laid out,
// re-routed and moved nothing, so no label, arrow or other element is
// collateral (they are counted as normalized).
func TestFirstWriteToAForeignSceneReportsOnlyItsEffects(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "made")
	doc, err := scene.Parse(fileBytes(t, dir, "made"), scene.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range doc.Elements() {
		el.Delete("index")
		if l, ok := el.Array("boundElements"); ok && len(l) == 0 {
			el.Set("boundElements", nil)
		}
	}
	data, err := scene.Codec{}.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "foreign.excalidraw"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	env, err := s.Write(ctx, WriteRequest{Name: "foreign"}, opacityPlan("b", 40))
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Rerouted)+len(env.RelaidOut)+len(env.Collateral) != 0 {
		t.Fatalf("an opacity update reported rerouted %v, relaidOut %v, collateral %v", env.Rerouted, env.RelaidOut, env.Collateral)
	}
	if env.Normalized == 0 || !slices.Contains(env.Changed.Updated, "b") {
		t.Fatalf("changed %+v, normalized %d", env.Changed, env.Normalized)
	}
	checkStored(t, dir, "foreign")
	// What the write did is still told: a move of the labelled shape
	// re-routes its arrow and carries its label.
	env, err = s.Write(ctx, WriteRequest{Name: "foreign"}, moveOne("a", 30))
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Rerouted) != 1 || env.Rerouted[0] != "ab" || env.Normalized != 0 {
		t.Fatalf("a move reported rerouted %v, collateral %v, normalized %d", env.Rerouted, env.Collateral, env.Normalized)
	}
}

package identity

import (
	"encoding/json"
	"testing"
)

// A grant is kept as its plugin gave it: a token record read and written
// again holds the same bytes, and the plugin decodes its own fields.
func TestGrantKeptVerbatim(t *testing.T) {
	const rec = `{"id":"tok_1","grant":{"role":"editor","boards":["plan"],"somethingNew":{"x":1}}}`
	var r struct {
		ID    string `json:"id"`
		Grant *Grant `json:"grant,omitempty"`
	}
	if err := json.Unmarshal([]byte(rec), &r); err != nil {
		t.Fatal(err)
	}
	back, err := json.Marshal(r)
	if err != nil || string(back) != rec {
		t.Fatalf("written again: %s %v", back, err)
	}
	var g struct {
		Role   string   `json:"role"`
		Boards []string `json:"boards"`
	}
	if err := r.Grant.Decode(&g); err != nil || g.Role != "editor" || len(g.Boards) != 1 || g.Boards[0] != "plan" {
		t.Fatalf("decoded %+v %v", g, err)
	}
	if err := json.Unmarshal([]byte(`{"grant":["editor"]}`), &r); err == nil {
		t.Fatal("a grant that is not an object was taken")
	}
	if err := (*Grant)(nil).Decode(&g); err == nil {
		t.Fatal("no grant decoded")
	}
	if got, _ := json.Marshal(NewGrant(map[string]any{"role": "viewer"})); string(got) != `{"role":"viewer"}` {
		t.Fatalf("NewGrant: %s", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a grant that is not an object: no panic")
		}
	}()
	NewGrant("editor")
}

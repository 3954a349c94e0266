package tools

import (
	"strings"
	"testing"
)

// suggestSchema is closed and declares both spellings of a key, as the
// Excalidraw target does.
const suggestSchema = `{"type":"object","additionalProperties":false,"properties":{
  "frame_ids":{"type":"array"},"frameIds":{"type":"array"},"text_contains":{"type":"string"},
  "type":{"type":"string"},"types":{"type":"array"},"id":{"type":"string"},
  "sub":{"type":"object","properties":{"name":{"type":"string"}},"unevaluatedProperties":false}}}`

// An unknown member near a declared one is answered with that one: a
// slip of a letter, another case or separator; a name near nothing, or
// too short to guess at, is only unknown.
func TestUnknownPropertyDidYouMean(t *testing.T) {
	r := schemaRegistry(t, suggestSchema)
	cases := []struct{ args, pointer, want string }{
		{`{"frameIdz":[]}`, "", `unknown property "frameIdz" (did you mean "frameIds"?)`},
		{`{"frame_idz":[]}`, "", `unknown property "frame_idz" (did you mean "frame_ids"?)`},
		{`{"TextContains":"x"}`, "", `unknown property "TextContains" (did you mean "text_contains"?)`},
		{`{"typ":"x"}`, "", `unknown property "typ" (did you mean "type"?)`},
		{`{"sub":{"nmae":"x"}}`, "/sub", `unknown property "nmae" (did you mean "name"?)`},
		{`{"colourfulness":1,"frameIdz":[]}`, "", `unknown properties "colourfulness", "frameIdz" (did you mean "frameIds"?)`},
	}
	for _, c := range cases {
		eo, ps := callUnion(t, r, c.args)
		wantOneProblem(t, eo, ps, c.pointer, c.want)
		if m := ps[0]["message"]; m != c.want {
			t.Errorf("%s: message %q, want %q", c.args, m, c.want)
		}
	}
	for _, args := range []string{`{"xy":1}`, `{"zzzzzzzz":1}`} {
		_, ps := callUnion(t, r, args)
		if m, _ := ps[0]["message"].(string); len(ps) != 1 || strings.Contains(m, "did you mean") {
			t.Errorf("%s: %v", args, ps)
		}
	}
}

func TestClosest(t *testing.T) {
	declared := []string{"frameIds", "frame_ids", "groupId", "group_id", "kind", "name"}
	for name, want := range map[string]string{
		"frameIdz": "frameIds", "frame_idz": "frame_ids", "groupid": "groupId", "GROUP_ID": "group_id",
		"kinds": "kind", "knd": "kind", "k": "", "slot": "", "nmae": "name", "xyz": "",
	} {
		if got := closest(name, declared); got != want {
			t.Errorf("closest(%q) = %q, want %q", name, got, want)
		}
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance = %d", d)
	}
}

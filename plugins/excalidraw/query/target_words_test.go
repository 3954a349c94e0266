package query

import (
	"encoding/json"
	"testing"
)

// decodeTarget decodes a target as the tools' arguments carry it.
func decodeTarget(t *testing.T, s string) Target {
	t.Helper()
	var tg Target
	if err := json.Unmarshal([]byte(s), &tg); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return tg
}

// The seed's spellings select as the tools' own do: "type" (one or a
// list) for "types", camelCase for snake_case.
func TestTargetSpellings(t *testing.T) {
	all := fixture(t)
	cases := []struct{ seed, tools string }{
		{`{"type":"ellipse"}`, `{"types":["ellipse"]}`},
		{`{"type":["ellipse","frame"]}`, `{"types":["ellipse","frame"]}`},
		{`{"frameIds":["f"]}`, `{"frame_ids":["f"]}`},
		{`{"frameName":"backend"}`, `{"frame_name":"backend"}`},
		{`{"groupId":"g1"}`, `{"group_id":"g1"}`},
		{`{"textContains":"CALLS"}`, `{"text_contains":"CALLS"}`},
		{`{"textRegex":"^S"}`, `{"text_regex":"^S"}`},
		{`{"hasLink":true}`, `{"has_link":true}`},
		{`{"includeDeleted":true,"type":"rectangle"}`, `{"include_deleted":true,"types":["rectangle"]}`},
	}
	for _, c := range cases {
		seed, tools := selectIDs(t, all, decodeTarget(t, c.seed)), selectIDs(t, all, decodeTarget(t, c.tools))
		if len(tools) == 0 {
			t.Fatalf("%s selects nothing: a case that cannot tell", c.tools)
		}
		wantIDs(t, c.seed, seed, tools...)
	}
}

// One key spelled both ways is refused at the alias, whatever the values;
// an unknown key is refused when decoding.
func TestTargetSpelledTwice(t *testing.T) {
	for s, ptr := range map[string]string{
		`{"frame_ids":["f"],"frameIds":["f"]}`:              "/frameIds",
		`{"types":["text"],"type":"text"}`:                  "/type",
		`{"include_deleted":false,"includeDeleted":true}`:   "/includeDeleted",
		`{"has_link":true,"hasLink":true,"groupId":"g1"}`:   "/hasLink",
		`{"text_contains":"a","textContains":"b","x":null}`: "",
	} {
		var tg Target
		err := json.Unmarshal([]byte(s), &tg)
		if ptr == "" {
			if err == nil {
				t.Errorf("%s: an unknown key decodes", s)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		wantInvalid(t, tg.Check(), ptr)
		if tg.IsZero() {
			t.Errorf("%s: a refused target is zero", s)
		}
	}
}

// kindFixture is a table cell with its label, a legend swatch, a diagram
// node and edge, an untagged box, and a table's cell that is a stack's
// item too (its stack tag beside the table's).
const kindFixture = `[
 {"id":"cell","type":"rectangle","x":0,"y":0,"width":100,"height":40,"customData":{"dsh":{"kind":"table","id":"tbl_1","slot":"cell"}},
  "boundElements":[{"type":"text","id":"cl"}]},
 {"id":"cl","type":"text","x":10,"y":10,"width":50,"height":20,"text":"A1","originalText":"A1","containerId":"cell"},
 {"id":"head","type":"rectangle","x":0,"y":-40,"width":100,"height":40,"customData":{"dsh":{"kind":"table","id":"tbl_1","slot":"header"}}},
 {"id":"sw","type":"rectangle","x":300,"y":0,"width":20,"height":20,"customData":{"dsh":{"kind":"legend","id":"lgd_1","slot":"swatch"}}},
 {"id":"n1","type":"rectangle","x":0,"y":300,"width":100,"height":40,"customData":{"dshDiagram":{"diagram":"dgAB","kind":"node","key":"api"}}},
 {"id":"e1","type":"arrow","x":100,"y":320,"width":100,"height":0,"points":[[0,0],[100,0]],"customData":{"dshDiagram":{"diagram":"dgAB","kind":"edge","key":"0"}}},
 {"id":"plain","type":"rectangle","x":500,"y":500,"width":10,"height":10,"customData":{"note":"mine"}},
 {"id":"both","type":"rectangle","x":0,"y":600,"width":100,"height":40,"customData":{"dsh":{"kind":"table","id":"tbl_2","slot":"cell"},
  "dshStack":{"kind":"stack","id":"stk_1","slot":"item"},"dshOther":{"kind":"legend","slot":"box"}}}
]`

func TestSelectKindAndSlot(t *testing.T) {
	all := elements(t, kindFixture)
	cases := []struct {
		name string
		tg   Target
		want []string
	}{
		{"kind table: its cells, header and a cell's label", Target{Kind: KindTable}, []string{"cell", "cl", "head", "both"}},
		{"kind stack: a tag beside another structure's", Target{Kind: KindStack}, []string{"both"}},
		{"kind stack, slot of the stack's tag", Target{Kind: KindStack, Slot: "item"}, []string{"both"}},
		{"kind stack, slot of the table's tag", Target{Kind: KindStack, Slot: "cell"}, nil},
		{"kind and slot", Target{Kind: KindTable, Slot: "header"}, []string{"head"}},
		{"kind legend", Target{Kind: KindLegend}, []string{"sw"}},
		{"kind diagram", Target{Kind: KindDiagram}, []string{"n1", "e1"}},
		{"diagram slot: the part's kind", Target{Kind: KindDiagram, Slot: "edge"}, []string{"e1"}},
		{"slot alone", Target{Slot: "cell"}, []string{"cell", "cl", "both"}},
		{"a dsh key not named for its kind is no tag", Target{Slot: "box"}, nil},
		{"kind none drew", Target{Kind: KindSlide}, nil},
		{"kind and role", Target{Kind: KindTable, Role: RoleLabel}, []string{"cl"}},
	}
	for _, c := range cases {
		wantIDs(t, c.name, selectIDs(t, all, c.tg), c.want...)
	}
	wantInvalid(t, Target{Kind: "tables"}.Check(), "/kind")
}

// after is resolved by the caller; unresolved, Select refuses it rather
// than select by nothing.
func TestSelectAfterNeedsResolving(t *testing.T) {
	all := fixture(t)
	tg := decodeTarget(t, `{"after":3,"type":"ellipse"}`)
	if _, err := Select(all, tg); err == nil {
		t.Fatal("an unresolved after selects")
	}
	tg.ChangedIDs = map[string]bool{"c": true, "a": true}
	wantIDs(t, "after, resolved", selectIDs(t, all, tg), "c")
	wantInvalid(t, Target{After: ptr(int64(-1))}.Check(), "/after")
}

package excalidraw_test

import (
	"encoding/json"
	"testing"
)

// TestApplyOpsPlannersOverMCP draws a table and its legend with one
// apply_ops call through a real MCP client: one commit, each step with
// the board's profile (the table's text at its body and subheading
// sizes, the legend from its roles), nothing found by the lint or by
// visual-qa; a bad planner step is refused at /ops/<i>/args/… and
// writes nothing, not even the steps before it.
func TestApplyOpsPlannersOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"ops","elements":[]}`)
	okCall(t, s, "set_board_profile", `{"scope":{"board":"ops"},"profile":{
		"typeScale":{"heading":30,"subheading":24,"body":20,"caption":15},"spacing":24,
		"roles":{"service":{"fill":"#a5d8ff","stroke":"#1971c2","meaning":"our services"},
			"database":{"fill":"#b2f2bb","stroke":"#2f9e44","meaning":"stores data"}}}}`)
	rev := okCall(t, s, "excalidraw_scene_read", `{"name":"ops"}`)["revision"].(float64)

	out := okCall(t, s, "apply_ops", `{"name":"ops","options":{"lint":"all"},"ops":[
		{"tool":"set_table","args":{"header":["Service","Store"],"rows":[["Orders API","PostgreSQL"],["Search","OpenSearch"]]}},
		{"tool":"set_legend","args":{"fromProfile":true,"title":"Legend"}}]}`)
	noFindings(t, out)
	if out["revision"] != rev+1 {
		t.Errorf("apply_ops took the board from revision %v to %v, want one commit", rev, out["revision"])
	}
	ops := asList(out["ops"])
	if len(ops) != 2 {
		t.Fatalf("ops: %v", out["ops"])
	}
	table, _ := ops[0].(map[string]any)["table"].(string)
	legend, _ := ops[1].(map[string]any)["legend"].(string)
	if len(table) < 5 || table[:4] != "tbl_" || len(legend) < 5 || legend[:4] != "lgd_" {
		t.Fatalf("the steps answered %v", ops)
	}
	if n := ops[1].(map[string]any)["entries"]; n != float64(2) {
		t.Errorf("the legend has %v entries, want the profile's 2 roles", n)
	}

	doc := okCall(t, s, "excalidraw_scene_read", `{"name":"ops","include":"full"}`)
	sizes := map[string]float64{}
	for _, e := range asList(doc["scene"].(map[string]any)["elements"]) {
		el := e.(map[string]any)
		if el["type"] != "text" || el["containerId"] == nil {
			continue
		}
		for _, c := range asList(doc["scene"].(map[string]any)["elements"]) {
			box := c.(map[string]any)
			cd, _ := box["customData"].(map[string]any)
			tag, _ := cd["dsh"].(map[string]any)
			if box["id"] == el["containerId"] && tag != nil && tag["kind"] == "table" {
				sizes[tag["slot"].(string)] = el["fontSize"].(float64)
			}
		}
	}
	if sizes["cell"] != 20 || sizes["header"] != 24 {
		t.Errorf("the table's text is at %v, want the profile's body 20 and subheading 24", sizes)
	}
	for _, args := range []string{`{"name":"ops"}`, `{"name":"ops","profile":"visual-qa"}`} {
		v := okCall(t, s, "validate_scene", args)
		if f := asList(v["lint"]); len(f) > 0 || v["skipped"] != nil {
			b, _ := json.Marshal(f)
			t.Errorf("validate_scene %s: skipped %v, findings %s", args, v["skipped"], b)
		}
	}
	renderPNG(t, s, "ops", "apply-ops-craft.png")

	rev = out["revision"].(float64)
	table1 := `{"tool":"set_table","args":{"rows":[["a","b"]]}}`
	failCall(t, s, "apply_ops", `{"name":"ops","ops":[`+table1+`,{"tool":"set_legend","args":{"entries":[{"label":"x","fill":"#12345"}]}}]}`,
		"invalid_operation", "/ops/1/args/entries/0/fill")
	failCall(t, s, "apply_ops", `{"name":"ops","ops":[`+table1+`,{"tool":"set_legend","args":{"legend":"lgd_nothere"}}]}`,
		"not_found", "/ops/1/args/legend")
	failCall(t, s, "apply_ops", `{"name":"ops","ops":[{"tool":"set_table","args":{"rows":[["a","b"]],"align":["left","middle"]}}]}`,
		"invalid_operation", "/ops/0/args/align/1")
	failCall(t, s, "apply_ops", `{"name":"ops","ops":[`+table1+`,{"tool":"create_stack","args":{"ids":["ghost"]}}]}`,
		"not_found", "/ops/1/args/ids/0")
	failCall(t, s, "apply_ops", `{"name":"ops","ops":[{"tool":"layout_frames","args":{"slides":[{"name":"x"}],"size":"a5"}}]}`,
		"invalid_operation", "/ops/0/args/size")
	if r := okCall(t, s, "excalidraw_scene_read", `{"name":"ops"}`); r["revision"] != rev {
		t.Errorf("refused apply_ops calls wrote: revision %v, want %v", r["revision"], rev)
	}
}

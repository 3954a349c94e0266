package excalidraw_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// folderProfile and boardProfile are the profiles the tests set: a
// folder's style, and a board's own over it.
const (
	folderProfile = `{"typeScale":{"title":32,"heading":24,"body":16,"caption":12},"spacing":24,
		"roles":{"database":{"fill":"#b2f2bb","stroke":"#1e1e1e","meaning":"stores data"},"external":{"fill":"#ffec99","stroke":"#1e1e1e","meaning":"outside our control"}},
		"strokes":{"dashed":"async call"}}`
	boardProfile = `{"typeScale":{"body":18},"roles":{"service":{"fill":"#a5d8ff","stroke":"#1971c2","meaning":"our services"}},"strokes":{"solid":"sync call"}}`
)

// TestBoardProfileOverMCP sets a folder's profile and a board's over it
// and reads back the board's own and the effective one (field by field);
// bad profiles are refused at their field and change nothing; null
// clears.
func TestBoardProfileOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	folder := okCall(t, s, "create_folder", `{"name":"Design"}`)["folderId"].(string)
	okCall(t, s, "excalidraw_scene_create", `{"name":"plan","elements":[]}`)
	okCall(t, s, "move_board_to_folder", `{"name":"plan","folderId":"`+folder+`"}`)

	out := okCall(t, s, "set_board_profile", `{"scope":{"folder":"`+folder+`"},"profile":`+folderProfile+`}`)
	if out["changed"] != true || prof(out, "profile")["spacing"] != 24.0 {
		t.Fatalf("folder profile answered %v", out)
	}
	okCall(t, s, "set_board_profile", `{"scope":{"board":"plan"},"profile":`+boardProfile+`}`)

	back := okCall(t, s, "set_board_profile", `{"scope":{"board":"plan"}}`)
	own, eff := prof(back, "profile"), prof(back, "effective")
	if own["spacing"] != nil || sub(own, "typeScale")["title"] != nil || sub(own, "typeScale")["body"] != 18.0 {
		t.Errorf("the board's own profile: %v", own)
	}
	ts := sub(eff, "typeScale")
	if ts["title"] != 32.0 || ts["body"] != 18.0 || ts["caption"] != 12.0 || eff["spacing"] != 24.0 {
		t.Errorf("effective type scale %v spacing %v: want the folder's with the board's body over it", ts, eff["spacing"])
	}
	roles, strokes := sub(eff, "roles"), sub(eff, "strokes")
	if len(roles) != 3 || len(strokes) != 2 {
		t.Errorf("effective roles %v strokes %v: want both profiles' keys", roles, strokes)
	}

	for _, c := range []struct{ profile, pointer string }{
		{`{"typeScale":{"body":4}}`, "/profile/typeScale/body"},
		{`{"typeScale":{"huge":40}}`, "/profile/typeScale/huge"},
		{`{"roles":{"db":{"fill":"#12345"}}}`, "/profile/roles/db/fill"},
		{`{"strokes":{"wavy":"x"}}`, "/profile/strokes/wavy"},
		{`{"spacing":500}`, "/profile/spacing"},
		{`{"noWrap":[` + strings.Repeat(`"w",`, 50) + `"w"]}`, "/profile/noWrap"},
	} {
		failCall(t, s, "set_board_profile", `{"scope":{"board":"plan"},"profile":`+c.profile+`}`, "invalid_operation", c.pointer)
	}
	failCall(t, s, "set_board_profile", `{"scope":{"board":"plan","folder":"`+folder+`"}}`, "invalid_operation", "/scope")
	failCall(t, s, "set_board_profile", `{"scope":{"folder":"fld_000000000000"}}`, "not_found", "/scope/folder")
	failCall(t, s, "set_board_profile", `{"scope":{"board":"ghost"},"profile":{}}`, "not_found", "/scope/board")
	if again := okCall(t, s, "set_board_profile", `{"scope":{"board":"plan"}}`); sub(prof(again, "profile"), "typeScale")["body"] != 18.0 {
		t.Errorf("a refused profile changed the board's: %v", again)
	}

	// null clears the board's own: the folder's is what is left.
	cleared := okCall(t, s, "set_board_profile", `{"scope":{"board":"plan"},"profile":null}`)
	if len(prof(cleared, "profile")) != 0 || sub(prof(cleared, "effective"), "typeScale")["body"] != 16.0 {
		t.Errorf("cleared: %v", cleared)
	}
	if f := okCall(t, s, "set_board_profile", `{"scope":{"folder":"`+folder+`"}}`); sub(prof(f, "profile"), "roles")["database"] == nil {
		t.Errorf("the folder's profile read back: %v", f)
	}
}

// TestLegendFromProfileOverMCP draws a legend from the board's profile in
// one call: one entry per role and per stroke meaning, no lint finding
// (every rule, and visual-qa against the same profile); drawn again in
// place by its id.
func TestLegendFromProfileOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"arch","elements":[]}`)
	okCall(t, s, "create_diagram", `{"name":"arch","nodes":[{"id":"api","label":"Orders API","role":"service"},{"id":"db","label":"Orders DB","role":"database","shape":"cylinder"}],"edges":[{"from":"api","to":"db"}]}`)
	okCall(t, s, "set_board_profile", `{"scope":{"board":"arch"},"profile":{"typeScale":{"heading":20,"body":18,"caption":14},
		"roles":{"service":{"fill":"#a5d8ff","stroke":"#1e1e1e","meaning":"our services"},"database":{"fill":"#b2f2bb","stroke":"#1e1e1e","meaning":"stores data"},"external":{"fill":"#ffec99","stroke":"#1e1e1e","meaning":"outside our control"}},
		"strokes":{"solid":"sync call","dashed":"async call"}}}`)

	out := okCall(t, s, "set_legend", `{"name":"arch","fromProfile":true,"title":"Legend","options":{"lint":"all"}}`)
	id, _ := out["legend"].(string)
	if !strings.HasPrefix(id, "lgd_") || out["entries"] != 5.0 {
		t.Fatalf("set_legend answered %v", out)
	}
	if lint, _ := out["lint"].(map[string]any); lint == nil || len(asList(lint["new"])) != 0 {
		t.Errorf("a fresh legend has lint findings: %v", out["lint"])
	}
	created := asList(out["changed"].(map[string]any)["created"])
	if len(created) != 1+1+2*5 {
		t.Errorf("created %d elements, want box, title and a swatch and a label per entry", len(created))
	}
	v := okCall(t, s, "validate_scene", `{"name":"arch","profile":"visual-qa"}`)
	for _, f := range asList(v["lint"]) {
		if ids := f.(map[string]any)["ids"]; slices.ContainsFunc(asList(ids), func(x any) bool { return slices.Contains(created, x) }) {
			t.Errorf("validate_scene finds on the legend: %v", f)
		}
	}
	legendPNG(t, s, "arch", "legend.png")

	// Drawn again in place from what it was drawn from.
	box := out["box"].(map[string]any)
	again := okCall(t, s, "set_legend", `{"name":"arch","legend":"`+id+`","title":"Key"}`)
	if again["legend"] != id || again["box"].(map[string]any)["x"] != box["x"] || len(asList(again["changed"].(map[string]any)["deleted"])) == 0 {
		t.Errorf("redrawn: %v (was at %v)", again, box)
	}
	doc := okCall(t, s, "excalidraw_scene_read", `{"name":"arch","include":"full"}`)
	live := 0
	for _, e := range asList(doc["scene"].(map[string]any)["elements"]) {
		el := e.(map[string]any)
		if cd, _ := el["customData"].(map[string]any); cd != nil && el["isDeleted"] != true {
			if tag, _ := cd["dsh"].(map[string]any); tag != nil && tag["id"] == id {
				live++
				// Sizes from the profile's type scale: labels body, the
				// title the next size up.
				if want := map[any]float64{"label": 18, "title": 20}[tag["slot"]]; want != 0 && el["fontSize"] != want {
					t.Errorf("legend %v is %v px, want %v", tag["slot"], el["fontSize"], want)
				}
			}
		}
	}
	if live != len(created) {
		t.Errorf("%d live legend elements after the redraw, want %d", live, len(created))
	}

	// Explicit entries, one naming a profile role, beside the rest.
	mine := okCall(t, s, "set_legend", `{"name":"arch","options":{"lint":"all"},"entries":[
		{"label":"stores data","role":"database"},{"label":"Cache","fill":"#d0bfff"},
		{"label":"async call","kind":"line","strokeStyle":"dashed"},{"label":"Alert","kind":"line","stroke":"#e03131","strokeStyle":"dotted"}]}`)
	if lint, _ := mine["lint"].(map[string]any); lint == nil || len(asList(lint["new"])) != 0 {
		t.Errorf("a legend of entries has lint findings: %v", mine["lint"])
	}
	if mine["box"].(map[string]any)["x"].(float64) <= box["x"].(float64) {
		t.Errorf("the second legend is at %v, over the first at %v", mine["box"], box)
	}
	ours := append(asList(again["changed"].(map[string]any)["created"]), asList(mine["changed"].(map[string]any)["created"])...)
	v = okCall(t, s, "validate_scene", `{"name":"arch","profile":"visual-qa"}`)
	for _, f := range asList(v["lint"]) {
		if ids := f.(map[string]any)["ids"]; slices.ContainsFunc(asList(ids), func(x any) bool { return slices.Contains(ours, x) }) {
			t.Errorf("visual-qa finds on the two legends: %v", f)
		}
	}
	legendPNG(t, s, "arch", "legends.png")

	// A changed profile shows when the legend is drawn again by its id.
	okCall(t, s, "set_board_profile", `{"scope":{"board":"arch"},"profile":{"typeScale":{"heading":20,"body":18,"caption":14},
		"roles":{"service":{"fill":"#a5d8ff","stroke":"#1e1e1e","meaning":"our services"},"queue":{"fill":"#ffd8a8","stroke":"#1e1e1e","meaning":"work waits here"}},
		"strokes":{"dashed":"async call"}}}`)
	if re := okCall(t, s, "set_legend", `{"name":"arch","legend":"`+id+`","options":{"lint":"all"}}`); re["entries"] != 3.0 || len(asList(re["lint"].(map[string]any)["new"])) != 0 {
		t.Errorf("redrawn after the profile changed: %v", re)
	}

	failCall(t, s, "set_legend", `{"name":"arch","entries":[{"label":"x","fill":"#12345"}]}`, "invalid_operation", "/entries/0/fill")
	failCall(t, s, "set_legend", `{"name":"arch","entries":[{"label":"x","role":"ghost"}]}`, "invalid_operation", "/entries/0/role")
	failCall(t, s, "set_legend", `{"name":"arch"}`, "invalid_operation", "/entries")
	failCall(t, s, "set_legend", `{"name":"arch","legend":"lgd_nothere"}`, "not_found", "/legend")
}

// TestVisualQAOverMCP: validate_scene {profile:"visual-qa"} finds an
// off-scale font size, a frame title smaller than its body, and a role
// drawn in another colour than the profile's; on a board without a
// profile the rules are skipped, and it says so.
func TestVisualQAOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"qa","elements":[]}`)
	okCall(t, s, "batch_create", `{"name":"qa","elements":[
		{"type":"text","id":"odd","x":0,"y":0,"text":"Odd size","fontSize":15},
		{"type":"text","id":"title","x":620,"y":20,"text":"Title","fontSize":16},
		{"type":"text","id":"body","x":620,"y":80,"text":"Much bigger body","fontSize":32}]}`)
	okCall(t, s, "create_frame", `{"name":"qa","ids":["title","body"],"frame_name":"Slide"}`)
	d := okCall(t, s, "create_diagram", `{"name":"qa","at":{"x":0,"y":300},"nodes":[{"id":"db","label":"Orders DB","role":"database"}]}`)
	dbID := d["nodes"].(map[string]any)["db"].(string)

	skipped := okCall(t, s, "validate_scene", `{"name":"qa","profile":"visual-qa"}`)
	if skipped["skipped"] != "no profile" || hasCode(skipped, "style_font_size_off_profile") {
		t.Errorf("without a profile: %v", skipped)
	}

	okCall(t, s, "set_board_profile", `{"scope":{"board":"qa"},"profile":{"typeScale":{"title":32,"heading":24,"body":16,"caption":12},
		"roles":{"database":{"fill":"#ffc9c9","meaning":"stores data"}}}}`)
	v := okCall(t, s, "validate_scene", `{"name":"qa","profile":"visual-qa"}`)
	if v["skipped"] != nil {
		t.Errorf("skipped with a profile: %v", v["skipped"])
	}
	for code, id := range map[string]string{"style_font_size_off_profile": "odd", "hierarchy_inverted": "title", "role_color_mismatch": dbID} {
		if !hasFinding(v, code, id) {
			t.Errorf("no %s on %s: %v", code, id, v["lint"])
		}
	}
	// A diagram drawn with the profile takes its roles' colours and its
	// body size; recoloured by hand, its node is found.
	d2 := okCall(t, s, "create_diagram", `{"name":"qa","at":{"x":0,"y":600},"nodes":[{"id":"db2","label":"Audit DB","role":"database"}]}`)
	db2 := d2["nodes"].(map[string]any)["db2"].(string)
	v = okCall(t, s, "validate_scene", `{"name":"qa","profile":"visual-qa"}`)
	for _, f := range asList(v["lint"]) {
		if slices.Contains(asList(f.(map[string]any)["ids"]), any(db2)) || strings.Contains(f.(map[string]any)["message"].(string), db2) {
			t.Errorf("a diagram drawn with the profile has a finding: %v", f)
		}
	}
	okCall(t, s, "update_elements", `{"name":"qa","updates":[{"id":"`+db2+`","patch":{"backgroundColor":"#a5d8ff"}}]}`)
	if v = okCall(t, s, "validate_scene", `{"name":"qa","profile":"visual-qa"}`); !hasFinding(v, "role_color_mismatch", db2) {
		t.Errorf("no role_color_mismatch on the recoloured %s: %v", db2, v["lint"])
	}

	// Plain validate_scene does not run them.
	if plain := okCall(t, s, "validate_scene", `{"name":"qa"}`); hasCode(plain, "hierarchy_inverted") || hasCode(plain, "role_color_mismatch") {
		t.Errorf("validate_scene without profile ran the visual-qa rules: %v", plain["lint"])
	}
	failCall(t, s, "validate_scene", `{"name":"qa","profile":"strict"}`, "invalid_operation", "")
}

func prof(out map[string]any, key string) map[string]any {
	m, _ := out[key].(map[string]any)
	return m
}

func sub(m map[string]any, key string) map[string]any {
	v, _ := m[key].(map[string]any)
	return v
}

func hasCode(v map[string]any, code string) bool {
	for _, f := range asList(v["lint"]) {
		if f.(map[string]any)["code"] == code {
			return true
		}
	}
	return false
}

func hasFinding(v map[string]any, code, id string) bool {
	for _, f := range asList(v["lint"]) {
		fm := f.(map[string]any)
		if fm["code"] == code && slices.Contains(asList(fm["ids"]), any(id)) {
			return true
		}
	}
	return false
}

// legendPNG renders board and, when DSH_LEGEND_PNG names a directory,
// writes the PNG there to be looked at.
func legendPNG(t *testing.T, s *mcp.ClientSession, board, file string) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "render", Arguments: json.RawMessage(`{"name":"` + board + `"}`)})
	decodeToolResult(t, "render", res, err)
	if len(res.Content) < 2 {
		t.Fatalf("render gave %d content blocks", len(res.Content))
	}
	im, ok := res.Content[1].(*mcp.ImageContent)
	if !ok || len(im.Data) == 0 {
		t.Fatalf("render: no image")
	}
	if dir := os.Getenv("DSH_LEGEND_PNG"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, file), im.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

package excalidraw_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The seed's words over real MCP: the target selector in the seed's
// spellings (type, camelCase keys), kind and slot, after as a selector
// key in reads and writes; a misspelt key answered "did you mean"; the
// ignored fields the envelope names; persisting findings listed.

// countOf is query_elements' count for a target on board.
func countOf(t *testing.T, s sessionCaller, target string) int {
	t.Helper()
	out := okCall(t, s.s, "query_elements", `{"name":"board","target":`+target+`}`)
	n, _ := out["count"].(float64)
	return int(n)
}

// rowIDs are the ids query_elements answers for a target on board.
func rowIDs(t *testing.T, s sessionCaller, target string) []string {
	t.Helper()
	out := okCall(t, s.s, "query_elements", `{"name":"board","fields":["id"],"target":`+target+`}`)
	var ids []string
	for _, r := range asList(out["rows"]) {
		ids = append(ids, r.(map[string]any)["id"].(string))
	}
	slices.Sort(ids)
	return ids
}

func TestSeedSelectorWordsOverMCP(t *testing.T) {
	session, closeMCP := elementHost(t)
	defer closeMCP()
	s := sessionCaller{session}
	okCall(t, session, "excalidraw_scene_create", `{"name":"board"}`)
	created := okCall(t, session, "batch_create", `{"name":"board","elements":[
		{"ref":"api","type":"rectangle","x":0,"y":0,"width":180,"height":80,"label":{"text":"API gateway"},"link":"https://example.com"},
		{"ref":"db","type":"ellipse","x":400,"y":0,"width":160,"height":80,"label":{"text":"Orders DB"}},
		{"ref":"note","type":"text","x":0,"y":200,"text":"Remember the cache"}]}`)
	refs := created["refs"].(map[string]any)
	api, db, note := refs["api"].(string), refs["db"].(string), refs["note"].(string)
	g := okCall(t, session, "group_elements", `{"name":"board","ids":["`+api+`","`+note+`"]}`)
	frame := okCall(t, session, "create_frame", `{"name":"board","ids":["`+db+`"],"frame_name":"Storage"}`)
	gid, fid := g["group_id"].(string), frame["frame_id"].(string)

	// Each seed spelling selects what the tools' own spelling does, and
	// something: a case that selects nothing could not tell them apart.
	for _, c := range []struct{ seed, tools string }{
		{`{"type":"rectangle"}`, `{"types":["rectangle"]}`},
		{`{"type":["rectangle","ellipse"]}`, `{"types":["rectangle","ellipse"]}`},
		{`{"frameIds":["` + fid + `"]}`, `{"frame_ids":["` + fid + `"]}`},
		{`{"frameName":"storage"}`, `{"frame_name":"storage"}`},
		{`{"groupId":"` + gid + `"}`, `{"group_id":"` + gid + `"}`},
		{`{"textContains":"orders"}`, `{"text_contains":"orders"}`},
		{`{"textRegex":"^Remember"}`, `{"text_regex":"^Remember"}`},
		{`{"hasLink":true}`, `{"has_link":true}`},
	} {
		want := rowIDs(t, s, c.tools)
		if got := rowIDs(t, s, c.seed); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s selects %v; %s selects %v", c.seed, got, c.tools, want)
		}
	}
	if got := rowIDs(t, s, `{"type":"rectangle"}`); !slices.Contains(got, api) || slices.Contains(got, db) {
		t.Errorf(`{"type":"rectangle"}: %v`, got)
	}
	// One key spelled both ways is refused at the alias.
	failCall(t, session, "query_elements", `{"name":"board","target":{"frame_ids":["x"],"frameIds":["x"]}}`, "invalid_operation", "/target/frameIds")
	failCall(t, session, "move_elements", `{"name":"board","target":{"types":["text"],"type":"text"},"dx":1}`, "invalid_operation", "/target/type")
	// A write tool takes the seed's words too: the text moves.
	mv := okCall(t, session, "move_elements", `{"name":"board","target":{"type":"text","textContains":"remember"},"dx":10,"dy":0}`)
	if upd := asList(mv["changed"].(map[string]any)["updated"]); len(upd) != 1 || upd[0] != note {
		t.Errorf("move by the seed's words changed %v", mv["changed"])
	}
	// includeDeleted reaches a tombstone.
	okCall(t, session, "delete_elements", `{"name":"board","ids":["`+note+`"]}`)
	if n := countOf(t, s, `{"ids":["`+note+`"],"includeDeleted":true}`); n != 1 {
		t.Errorf("includeDeleted: %d", n)
	}
}

func TestSelectorKindSlotAndAfterOverMCP(t *testing.T) {
	session, closeMCP := elementHost(t)
	defer closeMCP()
	s := sessionCaller{session}
	okCall(t, session, "excalidraw_scene_create", `{"name":"board"}`)
	d := okCall(t, session, "create_diagram", `{"name":"board","nodes":[{"id":"a","label":"Client"},{"id":"b","label":"Server"},{"id":"c","label":"DB"}],
		"edges":[{"from":"a","to":"b"},{"from":"b","to":"c"}]}`)
	okCall(t, session, "set_legend", `{"name":"board","entries":[{"label":"service"},{"label":"call","kind":"line"}],"title":"Legend"}`)
	if n := countOf(t, s, `{"kind":"diagram","slot":"edge"}`); n != 2 {
		t.Errorf("the diagram's edges: %d, want 2", n)
	}
	if n := countOf(t, s, `{"kind":"diagram","slot":"node","type":"rectangle"}`); n != 3 {
		t.Errorf("the diagram's node boxes: %d, want 3", n)
	}
	legend := countOf(t, s, `{"kind":"legend"}`)
	if legend == 0 || countOf(t, s, `{"kind":"legend","slot":"swatch"}`) != 2 {
		t.Errorf("legend: %d elements, swatches %d", legend, countOf(t, s, `{"kind":"legend","slot":"swatch"}`))
	}
	if n := countOf(t, s, `{"kind":"table"}`); n != 0 {
		t.Errorf("no table was drawn, %d selected", n)
	}
	failCall(t, session, "query_elements", `{"name":"board","target":{"kind":"tables"}}`, "invalid_operation", "/target/kind")
	// A write selects a structure: the legend moves whole.
	mv := okCall(t, session, "move_elements", `{"name":"board","target":{"kind":"legend"},"dx":0,"dy":200}`)
	if n := len(asList(mv["changed"].(map[string]any)["updated"])); n != legend {
		t.Errorf("moving the legend changed %d elements, want its %d", n, legend)
	}

	// after: what the commits after a revision changed.
	rev := int64(d["revision"].(float64))
	legendRev := rev + 1
	moved := okCall(t, session, "move_elements", `{"name":"board","target":{"kind":"diagram","slot":"node","textContains":"server"},"dx":30,"dy":0}`)
	movedRev := int64(moved["revision"].(float64))
	after := func(n int64, more string) []string {
		return rowIDs(t, s, fmt.Sprintf(`{"after":%d%s}`, n, more))
	}
	server := rowIDs(t, s, `{"kind":"diagram","slot":"node","type":"rectangle","textContains":"server"}`)
	if got := after(movedRev-1, `,"type":"rectangle","kind":"diagram"`); !slices.Equal(got, server) {
		t.Errorf("the rectangles changed after %d: %v, want the moved node %v", movedRev-1, got, server)
	}
	if got := after(movedRev, ""); len(got) != 0 {
		t.Errorf("nothing changed after the head, got %v", got)
	}
	if got := after(legendRev-1, `,"kind":"legend"`); len(got) != legend {
		t.Errorf("after %d: %d legend elements, want %d", legendRev-1, len(got), legend)
	}
	failCall(t, session, "query_elements", fmt.Sprintf(`{"name":"board","target":{"after":%d}}`, movedRev+5), "invalid_operation", "/target/after")
	// In write tools: on their own, in apply_ops' steps, in expect's
	// counts; a bad after points into the step.
	up := okCall(t, session, "delete_elements", fmt.Sprintf(`{"name":"board","target":{"after":%d,"kind":"legend"},"options":{"dryRun":true}}`, legendRev-1))
	if n := len(asList(up["changed"].(map[string]any)["deleted"])); n != legend {
		t.Errorf("delete after %d (dry run) deleted %d, want %d", legendRev-1, n, legend)
	}
	ops := okCall(t, session, "apply_ops", fmt.Sprintf(`{"name":"board","ops":[{"tool":"move_elements","args":{"target":{"after":%d,"type":"rectangle","kind":"diagram"},"dx":5}}],
		"options":{"expect":{"counts":[{"target":{"after":%d,"kind":"diagram"},"min":1}]}}}`, movedRev-1, movedRev-1))
	if upd := asList(ops["changed"].(map[string]any)["updated"]); !slices.Contains(upd, any(server[0])) {
		t.Errorf("apply_ops after %d changed %v", movedRev-1, upd)
	}
	failCall(t, session, "apply_ops", fmt.Sprintf(`{"name":"board","ops":[{"tool":"move_elements","args":{"target":{"after":%d},"dx":5}}]}`, movedRev+9),
		"invalid_operation", "/ops/0/args/target/after")
}

// A misspelt argument or selector key is answered with the key it most
// likely meant, in every tool (the host's schema explanation).
func TestDidYouMeanOverMCP(t *testing.T) {
	session, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, session, "excalidraw_scene_create", `{"name":"board"}`)
	for _, c := range []struct{ tool, args, pointer, want string }{
		{"query_elements", `{"name":"board","target":{"frameIdz":["f"]}}`, "/target", `unknown property "frameIdz" (did you mean "frameIds"?)`},
		{"move_elements", `{"name":"board","target":{"text_contain":"x"},"dx":1}`, "/target", `unknown property "text_contain" (did you mean "text_contains"?)`},
		{"delete_elements", `{"name":"board","ids":["x"],"expected_revison":1}`, "", `unknown property "expected_revison" (did you mean "expected_revision"?)`},
		{"batch_create", `{"name":"board","elements":[{"type":"rectangle","x":0,"y":0}],"options":{"dryrun":true}}`, "/options", `unknown property "dryrun" (did you mean "dryRun"?)`},
		{"query_elements", `{"name":"board","fromat":"md"}`, "", `unknown property "fromat" (did you mean "format"?)`},
	} {
		out, _ := rawCall(t, session, c.tool, c.args)
		eo, _ := out["error"].(map[string]any)
		if eo == nil || eo["code"] != "invalid_operation" {
			t.Errorf("%s(%s): %v", c.tool, c.args, out)
			continue
		}
		errs := asList(eo["details"].(map[string]any)["errors"])
		if len(errs) != 1 {
			t.Errorf("%s: problems %v", c.tool, errs)
			continue
		}
		p := errs[0].(map[string]any)
		if p["pointer"] != c.pointer || !strings.Contains(p["message"].(string), c.want) || !strings.Contains(eo["message"].(string), c.want) {
			t.Errorf("%s(%s): %v, want %q at %q", c.tool, c.args, eo, c.want, c.pointer)
		}
	}
}

// ignoredFields names what a write was given and did not apply; strict
// refuses it.
func TestIgnoredFieldsOverMCP(t *testing.T) {
	session, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, session, "excalidraw_scene_create", `{"name":"board"}`)
	out := okCall(t, session, "create_frame", `{"name":"board","box":{"x":0,"y":0,"width":300,"height":200},"padding":40}`)
	ig := asList(out["ignoredFields"])
	if len(ig) != 1 || ig[0].(map[string]any)["field"] != "/padding" || ig[0].(map[string]any)["id"] != out["frame_id"] {
		t.Errorf("create_frame with box and padding: ignoredFields %v", out["ignoredFields"])
	}
	failCall(t, session, "create_frame", `{"name":"board","box":{"x":0,"y":0,"width":300,"height":200},"padding":40,"options":{"strict":true}}`,
		"invalid_operation", "/options/strict")
	dry := okCall(t, session, "batch_create", `{"name":"board","elements":[{"type":"rectangle","x":0,"y":400}],"options":{"dryRun":true,"verify":true,"note":"try"}}`)
	var fields []string
	for _, f := range asList(dry["ignoredFields"]) {
		fields = append(fields, f.(map[string]any)["field"].(string))
	}
	if !slices.Equal(fields, []string{"/options/verify", "/options/note"}) || dry["persisted"] != false {
		t.Errorf("dry run with verify and note: %v", dry)
	}
	// Nothing ignored: no member.
	clean := okCall(t, session, "create_frame", `{"name":"board","box":{"x":0,"y":600,"width":300,"height":200}}`)
	if _, has := clean["ignoredFields"]; has {
		t.Errorf("ignoredFields without an ignored field: %v", clean)
	}
	// In apply_ops, the step's own pointer.
	ops := okCall(t, session, "apply_ops", `{"name":"board","ops":[{"tool":"create_frame","args":{"box":{"x":0,"y":900,"width":10,"height":10},"padding":5}}]}`)
	if ig := asList(ops["ignoredFields"]); len(ig) != 1 || ig[0].(map[string]any)["field"] != "/ops/0/args/padding" {
		t.Errorf("apply_ops: ignoredFields %v", ops["ignoredFields"])
	}
}

// persisting lists the findings a write left, as code:ids, with the total.
func TestPersistingListsFindingsOverMCP(t *testing.T) {
	session, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, session, "excalidraw_scene_create", `{"name":"board"}`)
	made := okCall(t, session, "batch_create", `{"name":"board","elements":[
		{"ref":"a","type":"rectangle","x":0,"y":0,"width":200,"height":100,"label":{"text":"One"}},
		{"ref":"b","type":"rectangle","x":10,"y":10,"width":200,"height":100,"label":{"text":"Two"}}]}`)
	refs := made["refs"].(map[string]any)
	out := okCall(t, session, "batch_create", `{"name":"board","elements":[{"type":"ellipse","x":900,"y":900,"width":50,"height":50}],"options":{"lint":"all"}}`)
	p, _ := out["lint"].(map[string]any)["persisting"].(map[string]any)
	findings := asList(p["findings"])
	if p == nil || p["total"] != float64(len(findings)) || len(findings) == 0 {
		t.Fatalf("persisting: %v", out["lint"])
	}
	key := regexp.MustCompile(`^[a-z_]+:[^,]+(,[^,]+)*$`)
	both := false
	for _, f := range findings {
		s := f.(string)
		if !key.MatchString(s) {
			t.Errorf("persisting finding %q is not code:id,id", s)
		}
		both = both || strings.Contains(s, refs["a"].(string)) && strings.Contains(s, refs["b"].(string))
	}
	if !both {
		t.Errorf("the two boxes on one spot are not among the persisting findings: %v", findings)
	}
}

// sessionCaller carries the MCP session to the helpers above.
type sessionCaller struct{ s *mcp.ClientSession }

// persistingTotal is how many findings a write's lint left as they were.
func persistingTotal(lint map[string]any) float64 {
	p, _ := lint["persisting"].(map[string]any)
	n, _ := p["total"].(float64)
	return n
}

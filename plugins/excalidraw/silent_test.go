package excalidraw_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The mistakes an agent's call used to make without a word (issue 27's
// "no silent mistakes"), each met over real MCP as an agent meets it.

// revisionOf is the board's current revision.
func revisionOf(t *testing.T, s *mcp.ClientSession, name string) float64 {
	t.Helper()
	return okCall(t, s, "excalidraw_scene_read", `{"name":"`+name+`","include":"summary"}`)["revision"].(float64)
}

// TestBadColourRefused: a colour the editor would not draw (it drew
// nothing: the element and its label vanished) is invalid_operation at
// the field, in every write that takes one, and changes nothing; the
// colours it draws pass.
func TestBadColourRefused(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	failCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[{"type":"rectangle","x":0,"y":0,"backgroundColor":"bleu"}]}`,
		"invalid_operation", "/elements/0/backgroundColor")
	failCall(t, s, "excalidraw_scene_create", `{"name":"board","app_state":{"viewBackgroundColor":"#ggg"}}`,
		"invalid_operation", "/app_state/viewBackgroundColor")
	failCall(t, s, "excalidraw_scene_read", `{"name":"board"}`, "not_found", "")

	created := okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[
		{"id":"box","type":"rectangle","x":0,"y":0,"strokeColor":"Red","backgroundColor":"transparent","label":{"text":"A","strokeColor":"#1e1e1e80"}},
		{"id":"dot","type":"ellipse","x":300,"y":0,"backgroundColor":"#fff"}]}`)
	rev := created["revision"].(float64)
	for _, c := range []struct{ tool, args, pointer string }{
		{"batch_create", `{"name":"board","elements":[{"type":"rectangle","x":0,"y":200,"strokeColor":"#12345"}]}`, "/elements/0/strokeColor"},
		{"batch_create", `{"name":"board","elements":[{"type":"rectangle","x":0,"y":200,"label":{"text":"B","strokeColor":"#12345"}}]}`, "/elements/0/label/strokeColor"},
		{"update_elements", `{"name":"board","updates":[{"id":"dot","patch":{"x":5}},{"id":"box","patch":{"backgroundColor":"#12345"}}]}`, "/updates/1/patch/backgroundColor"},
		{"update_elements", `{"name":"board","updates":[{"id":"box","patch":{"label":{"text":"C","strokeColor":"blu"}}}]}`, "/updates/0/patch/label/strokeColor"},
		{"excalidraw_scene_apply", `{"name":"board","expected_revision":1,"operations":[{"op":"add","element":{"type":"text","x":0,"y":0,"text":"x","strokeColor":"rgb(0,0"}}]}`, "/operations/0/element/strokeColor"},
		{"excalidraw_scene_apply", `{"name":"board","expected_revision":1,"operations":[{"op":"update","id":"box","patch":{"strokeColor":"#1234"}},{"op":"update","id":"dot","patch":{"strokeColor":"none"}}]}`, "/operations/1/patch/strokeColor"},
		{"excalidraw_scene_apply", `{"name":"board","expected_revision":1,"operations":[{"op":"delete","id":"dot"}],"app_state":{"viewBackgroundColor":"white "}}`, "/app_state/viewBackgroundColor"},
	} {
		failCall(t, s, c.tool, c.args, "invalid_operation", c.pointer)
	}
	if got := revisionOf(t, s, "board"); got != rev {
		t.Fatalf("a refused colour changed the board: revision %v, was %v", got, rev)
	}
	okCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"box","patch":{"backgroundColor":"#a5d8ff","strokeColor":"rebeccapurple"}}]}`)
	okCall(t, s, "excalidraw_scene_apply", `{"name":"board","expected_revision":2,"operations":[{"op":"update","id":"dot","patch":{"strokeColor":"#FFF"}}],"app_state":{"viewBackgroundColor":"#f8f9fa"}}`)
}

// TestUpdateMovesFrameChildren: a frame moved by update_elements (or an
// update operation) takes its children, their labels and the arrows
// between them along, as move_elements does; a child the same call
// places itself goes where its own patch says.
func TestUpdateMovesFrameChildren(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[
		{"id":"a","type":"rectangle","x":0,"y":0,"width":120,"height":60,"label":{"text":"A"}},
		{"id":"b","type":"rectangle","x":240,"y":0,"width":120,"height":60},
		{"id":"c","type":"rectangle","x":0,"y":200,"width":120,"height":60},
		{"id":"ab","type":"arrow","startElementId":"a","endElementId":"b"}]}`)
	fr := okCall(t, s, "create_frame", `{"name":"board","ids":["a","b","c"],"frame_name":"Slide"}`)
	fid := fr["frame_id"].(string)
	before := sceneElements(t, s)
	okCall(t, s, "update_elements", `{"name":"board","updates":[
		{"id":"`+fid+`","patch":{"x":`+num(before[fid]["x"].(float64)+500)+`,"y":`+num(before[fid]["y"].(float64)+100)+`}},
		{"id":"c","patch":{"x":700}}]}`)
	after := sceneElements(t, s)
	for id, el := range before {
		if id == "c" {
			continue
		}
		dx, dy := after[id]["x"].(float64)-el["x"].(float64), after[id]["y"].(float64)-el["y"].(float64)
		if dx != 500 || dy != 100 {
			t.Errorf("%s (%v) moved by %v, %v; want 500, 100 with its frame", id, el["type"], dx, dy)
		}
	}
	if c := after["c"]; c["x"].(float64) != 700 || c["y"].(float64) != 200 {
		t.Errorf("c placed by its own patch is at %v, %v; want 700, 200", c["x"], c["y"])
	}
	okCall(t, s, "excalidraw_scene_apply", `{"name":"board","expected_revision":3,"operations":[{"op":"update","id":"`+fid+`","patch":{"y":`+num(after[fid]["y"].(float64)-100)+`}}]}`)
	back := sceneElements(t, s)
	if d := back["a"]["y"].(float64) - after["a"]["y"].(float64); d != -100 {
		t.Errorf("an update operation moving the frame moved a by %v, want -100", d)
	}
	// arrange and move_elements, the other tools that move a frame, take
	// its children too.
	okCall(t, s, "batch_create", `{"name":"board","elements":[{"id":"d","type":"rectangle","x":2000,"y":2000,"width":100,"height":100}]}`)
	okCall(t, s, "arrange", `{"name":"board","ids":["d","`+fid+`"],"layout":"row","gap":50}`)
	okCall(t, s, "move_elements", `{"name":"board","ids":["`+fid+`"],"dx":30}`)
	final := sceneElements(t, s)
	f := final[fid]
	for _, id := range []string{"a", "b", "c"} {
		el := final[id]
		if el["x"].(float64) < f["x"].(float64) || el["x"].(float64)+el["width"].(float64) > f["x"].(float64)+f["width"].(float64) {
			t.Errorf("%s at x %v left its frame at %v–%v", id, el["x"], f["x"], f["x"].(float64)+f["width"].(float64))
		}
	}
}

// TestLabelsKeepWordsWhole: a label too long for its fixed box is not
// broken mid-word ("Authenticatio/n"): the box widens, through
// batch_create and through update_elements alike; an arrow's label wraps
// between words. A label the editor broke is label_broken_mid_word.
func TestLabelsKeepWordsWhole(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board"}`)
	okCall(t, s, "batch_create", `{"name":"board","elements":[
		{"ref":"auth","type":"rectangle","x":0,"y":0,"width":80,"height":60,"label":{"text":"Authentication"}},
		{"ref":"db","type":"ellipse","x":300,"y":0,"width":70,"height":70,"label":{"text":"PostgreSQL"}},
		{"ref":"x","type":"rectangle","x":0,"y":300,"width":60,"height":60,"label":{"text":"DB"}}]}`)
	els := sceneElements(t, s)
	labels := map[string]string{}
	for _, el := range els {
		if cid, _ := el["containerId"].(string); cid != "" {
			labels[el["originalText"].(string)] = el["text"].(string)
		}
	}
	for _, word := range []string{"Authentication", "PostgreSQL"} {
		if labels[word] != word {
			t.Errorf("label %q shows %q: broken mid-word", word, labels[word])
		}
	}
	var xid string
	for id, el := range els {
		if el["type"] == "rectangle" && el["y"].(float64) == 300 {
			xid = id
		}
	}
	okCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"`+xid+`","patch":{"text":"Observability"}}]}`)
	els = sceneElements(t, s)
	for _, el := range els {
		if el["containerId"] == xid && el["text"] != "Observability" {
			t.Errorf("relabelled box shows %q: broken mid-word", el["text"])
		}
	}
	if w := els[xid]["width"].(float64); w <= 60 {
		t.Errorf("relabelled box is %v wide: not widened for its word", w)
	}
	broken := `{"type":"excalidraw","version":2,"source":"test","elements":[
		{"id":"r","type":"rectangle","x":0,"y":0,"width":60,"height":80,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"index":"a0","roundness":null,"seed":1,"version":1,"versionNonce":1,"isDeleted":false,"boundElements":[{"type":"text","id":"t"}],"updated":1,"link":null,"locked":false},
		{"id":"t","type":"text","x":5,"y":5,"width":50,"height":50,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"index":"a1","roundness":null,"seed":2,"version":1,"versionNonce":2,"isDeleted":false,"boundElements":null,"updated":1,"link":null,"locked":false,"text":"Postg\nreSQL","fontSize":20,"fontFamily":5,"textAlign":"center","verticalAlign":"middle","containerId":"r","originalText":"PostgreSQL","autoResize":true,"lineHeight":1.25}],
		"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`
	v, _ := rawCall(t, s, "validate_scene", `{"scene":`+broken+`}`)
	if !strings.Contains(jsonText(t, v), `"label_broken_mid_word"`) {
		t.Errorf("a label broken mid-word is no label_broken_mid_word finding: %v", v)
	}
}

// TestSceneCreateReturnsLint: excalidraw_scene_create answers the lint a
// write answers: two boxes on one spot are a finding.
func TestSceneCreateReturnsLint(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	out := okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[
		{"type":"rectangle","x":0,"y":0,"width":120,"height":60,"label":{"text":"A"}},
		{"type":"rectangle","x":0,"y":0,"width":120,"height":60,"label":{"text":"B"}}]}`)
	l, _ := out["lint"].(map[string]any)
	if l == nil || len(asList(l["new"])) == 0 {
		t.Fatalf("scene create with two boxes on one spot returns no lint: %v", out)
	}
	clean := okCall(t, s, "excalidraw_scene_create", `{"name":"clean","elements":[{"type":"rectangle","x":0,"y":0,"width":120,"height":60,"label":{"text":"A"}}]}`)
	if l, _ := clean["lint"].(map[string]any); l != nil && len(asList(l["new"])) != 0 {
		t.Errorf("a clean scene has findings: %v", l)
	}
}

// TestUpdateGivesALabel: update_elements with a label patch gives an
// arrow (or a box) without one a bound label, as batch_create does for
// an arrow with a label, and changes the text of one it has.
func TestUpdateGivesALabel(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[
		{"id":"a","type":"rectangle","x":0,"y":0,"width":120,"height":60},
		{"id":"b","type":"rectangle","x":400,"y":0,"width":120,"height":60},
		{"id":"ab","type":"arrow","startElementId":"a","endElementId":"b"}]}`)
	up := okCall(t, s, "update_elements", `{"name":"board","updates":[
		{"id":"ab","patch":{"label":{"text":"calls"}}},
		{"id":"a","patch":{"label":{"text":"Client","fontSize":16}}}]}`)
	if n := len(asList(up["changed"].(map[string]any)["created"])); n != 2 {
		t.Fatalf("two labels should be created: %v", up)
	}
	labelOf := func(els map[string]map[string]any, id string) map[string]any {
		for _, el := range els {
			if el["containerId"] == id {
				return el
			}
		}
		return nil
	}
	els := sceneElements(t, s)
	l := labelOf(els, "ab")
	if l == nil || l["text"] != "calls" || !strings.Contains(jsonText(t, els["ab"]["boundElements"]), l["id"].(string)) {
		t.Fatalf("the arrow has no bound label: %v / %v", l, els["ab"]["boundElements"])
	}
	if c := labelOf(els, "a"); c == nil || c["text"] != "Client" || c["fontSize"] != 16.0 || c["textAlign"] != "center" {
		t.Fatalf("the box has no centred label: %v", c)
	}
	okCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"ab","patch":{"label":{"text":"queries"}}}]}`)
	els = sceneElements(t, s)
	if l2 := labelOf(els, "ab"); l2 == nil || l2["id"] != l["id"] || l2["text"] != "queries" {
		t.Fatalf("the arrow's label was not relabelled in place: %v", l2)
	}
	if v := okCall(t, s, "validate_scene", `{"name":"board","lint":false}`); v["valid"] != true {
		t.Fatalf("the labelled scene does not validate: %v", v)
	}
	failCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"`+l["id"].(string)+`","patch":{"label":{"text":"x"}}}]}`, "invalid_operation", "/updates/0/patch/label")
	failCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"b","patch":{"label":{"fontSize":30}}}]}`, "invalid_operation", "/updates/0/patch/label/text")
	okCall(t, s, "excalidraw_scene_apply", `{"name":"board","expected_revision":3,"operations":[{"op":"update","id":"b","patch":{"label":{"text":"Server"}}}]}`)
	if l := labelOf(sceneElements(t, s), "b"); l == nil || l["text"] != "Server" {
		t.Fatalf("an update operation's label gave b no label: %v", l)
	}
}

// TestMissingBoardSaysHowToCreateIt: a write to a board that does not
// exist is not_found, and its message and hint say how to create it.
func TestMissingBoardSaysHowToCreateIt(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	for _, c := range []struct{ tool, args string }{
		{"batch_create", `{"name":"nowhere","elements":[{"type":"rectangle","x":0,"y":0}]}`},
		{"update_elements", `{"name":"nowhere","updates":[{"id":"a","patch":{"x":1}}]}`},
		{"excalidraw_scene_apply", `{"name":"nowhere","expected_revision":1,"operations":[{"op":"delete","id":"a"}]}`},
	} {
		out, _ := rawCall(t, s, c.tool, c.args)
		eo, _ := out["error"].(map[string]any)
		if eo == nil || eo["code"] != "not_found" {
			t.Fatalf("%s: want not_found, got %v", c.tool, out)
		}
		msg, _ := eo["message"].(string)
		hint, _ := eo["details"].(map[string]any)["hint"].(string)
		if !strings.Contains(msg, "create_board") || !strings.Contains(hint, "excalidraw_scene_create") {
			t.Errorf("%s: not_found says not how to create the board: %v", c.tool, eo)
		}
	}
}

// num writes a number as JSON does.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// jsonText is v encoded.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	return string(mustJSON(t, v))
}

package excalidraw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCraftSessionOverMCP is issue 27's scripted session, through a real
// MCP client on a real host: on a board with a profile, a 6×4 table, a
// legend from the profile and a 3-slide deck in frames, each in one call
// with 0 lint findings (lint "all": the whole board, not only what the
// call drew), and then the board checked whole, by the lint and by
// visual-qa against the profile, with nothing found. With DSH_CRAFT_PNG
// set, the board's render is written there to look at.
func TestCraftSessionOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"review","elements":[]}`)
	okCall(t, s, "set_board_profile", `{"scope":{"board":"review"},"profile":{
		"typeScale":{"title":56,"heading":32,"subheading":24,"body":20,"caption":16},"spacing":24,
		"roles":{"header":{"fill":"#e9ecef","stroke":"#1e1e1e","meaning":"column names"},
			"service":{"fill":"#a5d8ff","stroke":"#1971c2","meaning":"our services"},
			"database":{"fill":"#b2f2bb","stroke":"#2f9e44","meaning":"stores data"},
			"external":{"fill":"#ffec99","stroke":"#f08c00","meaning":"outside our control"}},
		"strokes":{"solid":"sync call","dashed":"async call"},"noWrap":["PostgreSQL"]}}`)

	rows := [][]string{{"Service", "Owner", "Store", "p99 ms"}}
	for i, r := range [][]string{{"Orders API", "Checkout", "PostgreSQL"}, {"Payments", "Finance", "PostgreSQL"},
		{"Search", "Discovery", "OpenSearch"}, {"Notifications", "Growth", "Redis"}, {"Accounts", "Identity", "PostgreSQL"}} {
		rows = append(rows, append(r, fmt.Sprint(40+i*17)))
	}
	header, _ := json.Marshal(rows[0])
	body, _ := json.Marshal(rows[1:])
	table := okCall(t, s, "set_table", `{"name":"review","options":{"lint":"all"},"header":`+string(header)+`,"rows":`+string(body)+`}`)
	noFindings(t, table)
	if size := asList(table["size"]); len(size) != 2 || size[0] != float64(6) || size[1] != float64(4) {
		t.Fatalf("set_table drew %v, want 6×4", table["size"])
	}

	legend := okCall(t, s, "set_legend", `{"name":"review","fromProfile":true,"title":"Legend","options":{"lint":"all"}}`)
	noFindings(t, legend)
	if n := legend["entries"]; n != float64(6) {
		t.Errorf("the legend has %v entries, want 6 (4 roles, 2 stroke styles)", n)
	}

	deck := okCall(t, s, "layout_frames", deckArgs("review"))
	noFindings(t, deck)
	if n := len(asList(deck["frames"])); n != 3 {
		t.Fatalf("layout_frames drew %d frames, want 3", n)
	}

	for _, args := range []string{`{"name":"review"}`, `{"name":"review","profile":"visual-qa"}`} {
		v := okCall(t, s, "validate_scene", args)
		if f := asList(v["lint"]); len(f) > 0 || v["skipped"] != nil {
			b, _ := json.Marshal(f)
			t.Errorf("validate_scene %s: skipped %v, findings %s", args, v["skipped"], b)
		}
	}
	renderPNG(t, s, "review", "craft-session.png")
	if dir := os.Getenv("DSH_CRAFT_PNG"); dir != "" {
		for file, args := range map[string]string{
			"craft-table.png":  `{"name":"review","target":{"kind":"table"},"badges":false,"scale":2}`,
			"craft-legend.png": `{"name":"review","target":{"kind":"legend"},"badges":false,"scale":2}`,
			"craft-slide.png":  `{"name":"review","target":{"kind":"slide"},"badges":false}`,
		} {
			res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "render", Arguments: json.RawMessage(args)})
			decodeToolResult(t, "render", res, err)
			if err := os.WriteFile(filepath.Join(dir, file), res.Content[1].(*mcp.ImageContent).Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

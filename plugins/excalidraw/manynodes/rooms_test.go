package manynodes

import (
	"net/http"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/room/roomcheck"
)

// One board's room spans the nodes: a client on node A and one on node B
// (written from Excalidraw's protocol) see each other in the room, each
// other's strokes while they are drawn and pointers, can follow across
// nodes, and an agent's commit on B reaches the client on A; what A drew
// is on the board B reads.
func TestRoomAcrossNodes(t *testing.T) {
	roomcheck.NeedNode(t)
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	if st := c.call(a, http.MethodPost, "/scenes", map[string]any{"name": "plan"}, nil); st != http.StatusCreated && st != http.StatusOK {
		t.Fatalf("create: %d", st)
	}
	var info struct {
		Link string `json:"link"`
	}
	if st := c.call(b, http.MethodGet, "/scenes/plan/room", nil, &info); st != http.StatusOK || info.Link == "" {
		t.Fatalf("room: %d %+v", st, info)
	}
	ann := roomcheck.Join(t, "ann on A", a.URL, info.Link, c.token)
	ann.Message("SCENE_INIT", nil)
	bob := roomcheck.Join(t, "bob on B", b.URL, info.Link, c.token)
	bob.Message("SCENE_INIT", nil)
	both := func(ids []string) bool {
		n := 0
		for _, id := range ids {
			if id == ann.ID || id == bob.ID {
				n++
			}
		}
		return n == 2
	}
	ann.Await("bob in ann's room", func(e roomcheck.Event) bool { return e.Ev == "room-user-change" && both(e.IDs) })
	bob.Await("ann in bob's room", func(e roomcheck.Event) bool { return e.Ev == "room-user-change" && both(e.IDs) })

	ann.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("n1", "a1", 300, 4)}})
	bob.Message("SCENE_UPDATE", roomcheck.HasElement("n1"))
	ann.Do(map[string]any{"do": "pointer", "x": 5, "y": 6})
	bob.Message("MOUSE_LOCATION", func(p map[string]any) bool { return p["socketId"] == ann.ID })

	bob.Do(map[string]any{"do": "follow", "socketId": ann.ID})
	ann.Await("bob following", func(e roomcheck.Event) bool {
		return e.Ev == "user-follow-room-change" && len(e.IDs) == 1 && e.IDs[0] == bob.ID
	})
	ann.Do(map[string]any{"do": "bounds", "bounds": []any{0, 0, 400, 300}})
	bob.Message("USER_VISIBLE_SCENE_BOUNDS", func(p map[string]any) bool { return p["socketId"] == ann.ID })

	onB := c.agent(b.URL + "/mcp")
	tool(t, onB, "batch_create", map[string]any{"name": "plan", "elements": []any{
		map[string]any{"type": "ellipse", "id": "g1", "x": 600, "y": 0, "width": 80, "height": 80}}})
	ann.Message("SCENE_UPDATE", roomcheck.HasElement("g1"))

	waitFor(t, "n1 on the board read on B", func() bool {
		var got struct {
			Scene struct {
				Elements []struct {
					ID string `json:"id"`
				} `json:"elements"`
			} `json:"scene"`
		}
		c.call(b, http.MethodGet, "/scenes/plan", nil, &got)
		for _, e := range got.Scene.Elements {
			if e.ID == "n1" {
				return true
			}
		}
		return false
	})
}

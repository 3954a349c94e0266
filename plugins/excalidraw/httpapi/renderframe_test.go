package httpapi

import (
	"bytes"
	"image/png"
	"net/http"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// frame=NAME and frame_id=ID export one frame: a picture of the frame's
// size (it was an empty 20 × 20 image).
func TestRenderRouteExportsAFrame(t *testing.T) {
	needFonts(t)
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", pictureScene), http.StatusCreated, "")
	var id string
	_, err := e.svc.Write(t.Context(), service.WriteRequest{Name: "pic"}, func(tx *engine.Txn, _ *scene.Document) (service.PlanResult, error) {
		var err error
		id, err = tx.CreateFrame("Board", &engine.Box{X: -10, Y: -10, Width: 230, Height: 130}, []string{"a"}, 0, "/")
		return service.PlanResult{Targets: []string{id}}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"frame=Board", "frame_id=" + id} {
		r := e.do(http.MethodGet, api+"/scenes/pic/render.png?"+q, nil)
		expect(t, r, http.StatusOK, "")
		if cfg, err := png.DecodeConfig(bytes.NewReader(r.raw)); err != nil || cfg.Width != 230 || cfg.Height != 130 {
			t.Fatalf("%s: png %+v %v, want the frame's 230 × 130", q, cfg, err)
		}
	}
}

package agenttools

import (
	"context"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// The picture tools.
const (
	RenderTool = "render"
	ExportTool = "export"
)

const exportDescription = "Write a scene's picture (png, svg) or file (excalidraw), or a part selected as for render, and return an expiring link to hand a person."

const renderDescription = "Look at a scene, or part of it, as the editor draws it: a PNG whose numbered badges the legend maps to element ids."

// renderTools are the tools that draw scenes.
func renderTools(svc *service.Service, baseURL string) []tools.Tool {
	h := renderHandlers{svc: svc, baseURL: baseURL}
	region := `"region":{"type":"object","additionalProperties":false,"required":["x","y","width","height"],"properties":{"x":` + sNum + `,"y":` + sNum +
		`,"width":{"type":"number","exclusiveMinimum":0,"maximum":1000000},"height":{"type":"number","exclusiveMinimum":0,"maximum":1000000}}}`
	return []tools.Tool{
		{Name: RenderTool, Description: renderDescription,
			InputSchema: schema([]string{"name"}, sName, sIDs, sTarget, region,
				`"scale":{"type":"number","exclusiveMinimum":0,"maximum":4}`,
				`"max_pixels":{"type":"integer","minimum":10000,"maximum":4000000}`,
				`"padding":{"type":"number","minimum":0,"maximum":1000}`,
				`"dark":{"type":"boolean"}`, `"background":{"type":"boolean"}`, `"badges":{"type":"boolean"}`),
			Annotations: tools.Annotations{Title: "Render a scene", ReadOnly: true, Idempotent: true}, Handler: tools.Typed(h.render)},
		{Name: ExportTool, Description: exportDescription,
			InputSchema: schema([]string{"name"}, sName, sIDs, sTarget, region, `"format":{"enum":["png","svg","excalidraw"]}`,
				`"scale":{"type":"number","exclusiveMinimum":0,"maximum":8}`,
				`"padding":{"type":"number","minimum":0,"maximum":1000}`,
				`"dark":{"type":"boolean"}`, `"background":{"type":"boolean"}`,
				`"ttl_seconds":{"type":"integer","minimum":60,"maximum":2592000}`),
			Annotations: tools.Annotations{Title: "Export a scene", ReadOnly: true}, Handler: tools.Typed(h.export)},
	}
}

type renderHandlers struct {
	svc     *service.Service
	baseURL string // prefixes links; empty leaves them relative to the host
}

// pictureArgs are what render and export share: which part of which
// scene, and how it looks.
type pictureArgs struct {
	Name       string       `json:"name"`
	IDs        []string     `json:"ids,omitempty"`
	Target     query.Target `json:"target"`
	Region     *query.Box   `json:"region,omitempty"`
	Scale      float64      `json:"scale,omitempty"`
	Padding    *float64     `json:"padding,omitempty"`
	Dark       bool         `json:"dark,omitempty"`
	Background *bool        `json:"background,omitempty"`
}

// request is the service's request for a in format: ids join the target.
func (a pictureArgs) request(format string) service.RenderRequest {
	t := a.Target
	if len(a.IDs) > 0 {
		t.IDs = append(append([]string{}, t.IDs...), a.IDs...)
	}
	r := service.RenderRequest{Name: a.Name, Target: t, Format: format, Scale: a.Scale, Padding: a.Padding, Dark: a.Dark,
		NoBackground: a.Background != nil && !*a.Background}
	if g := a.Region; g != nil {
		r.Region = &geom.Rect{MinX: g.X, MinY: g.Y, MaxX: g.X + g.Width, MaxY: g.Y + g.Height}
	}
	return r
}

type renderArgs struct {
	pictureArgs
	MaxPixels int   `json:"max_pixels,omitempty"`
	Badges    *bool `json:"badges,omitempty"`
}

func (h renderHandlers) render(ctx context.Context, a renderArgs) (any, error) {
	req := a.request(service.RenderPNG)
	req.MaxPixels, req.MaxEdge, req.Badges = a.MaxPixels, service.AgentLongEdge, a.Badges == nil || *a.Badges
	if req.MaxPixels == 0 {
		req.MaxPixels = service.AgentPixels
	}
	res, err := h.svc.Render(ctx, req)
	if err != nil {
		return nil, toolError(err)
	}
	return tools.WithImages{Value: res, Images: []tools.Image{{MIME: res.MIME, Data: res.Data}}}, nil
}

type exportArgs struct {
	pictureArgs
	Format     string `json:"format,omitempty"`
	TTLSeconds int    `json:"ttl_seconds,omitempty"`
}

func (h renderHandlers) export(ctx context.Context, a exportArgs) (any, error) {
	if a.Format == "" {
		a.Format = service.RenderPNG
	}
	req := service.ExportRequest{RenderRequest: a.request(a.Format), TTL: time.Duration(a.TTLSeconds) * time.Second}
	res, err := h.svc.Export(ctx, req)
	if err != nil {
		return nil, toolError(err)
	}
	res.Link.URL = h.baseURL + res.Link.URL
	for i := range res.Tiles {
		res.Tiles[i].Link.URL = h.baseURL + res.Tiles[i].Link.URL
	}
	return res, nil
}

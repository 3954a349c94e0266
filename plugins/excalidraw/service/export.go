package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// ExportExcalidraw is the scene file itself, as stored.
const ExportExcalidraw = "excalidraw"

// TileSize is the edge in pixels of one tile of a PNG too large for one
// image.
const TileSize = 4096

// maxTiles bounds one export's tiles (an 8 × 8 grid of 4096 px tiles is
// about a gigapixel).
const maxTiles = 64

// ExportRequest is what to export: a picture (as Render draws it) or the
// scene file, and how long its link works.
type ExportRequest struct {
	RenderRequest
	// TTL is how long the link works (0: the exports store's default).
	TTL time.Duration
}

// ExportResult is an export: one file's link, or for a PNG too large for
// one image, the links of its tiles and of an index describing them.
type ExportResult struct {
	Name     string  `json:"name"`
	Revision int64   `json:"revision"`
	Format   string  `json:"format"`
	Width    int     `json:"width,omitempty"`
	Height   int     `json:"height,omitempty"`
	Scale    float64 `json:"scale,omitempty"`
	// Origin is the scene point at pixel (0, 0).
	Origin    *[2]float64    `json:"origin,omitempty"`
	Link      exports.Link   `json:"link"`
	Tiles     []ExportedTile `json:"tiles,omitempty"`
	Ephemeral bool           `json:"ephemeral,omitempty"`
}

// ExportedTile is one tile of a tiled export: its place in the grid, the
// part of the scene it shows, and its link.
type ExportedTile struct {
	Row    int          `json:"row"`
	Col    int          `json:"col"`
	Region [4]float64   `json:"region"` // x, y, width, height in scene px
	Width  int          `json:"width"`
	Height int          `json:"height"`
	Link   exports.Link `json:"link"`
}

// Export writes a scene's picture (png, svg) or file (excalidraw) to the
// exports folder and returns a signed link that expires. A PNG beyond
// MaxRenderPixels at the asked scale is cut into tiles of TileSize, with
// an index (JSON) linking them.
func (s *Service) Export(ctx context.Context, r ExportRequest) (*ExportResult, error) {
	if s.exports == nil {
		return nil, sceneerr.New(sceneerr.InvalidOperation, "exports are not configured on this host")
	}
	if r.TTL < 0 {
		return nil, opError("/ttl_seconds", "ttl_seconds must be positive")
	}
	if r.Format == ExportExcalidraw {
		if !r.Target.IsZero() || r.Region != nil {
			return nil, opError("/format", "an excalidraw export is the whole scene; leave out target, ids and region")
		}
		if err := store.ValidName(r.Name); err != nil {
			return nil, mapError(err)
		}
		sc, err := s.store.Read(ctx, r.Name)
		if err != nil {
			return nil, mapError(err)
		}
		link, err := s.putExport(exports.NewID()+".excalidraw", sc.Data, r.TTL)
		if err != nil {
			return nil, err
		}
		return &ExportResult{Name: r.Name, Revision: sc.Revision, Format: r.Format, Link: link, Ephemeral: s.exports.Ephemeral()}, nil
	}
	if r.Scale == 0 {
		r.Scale = 1
	}
	// One image if it fits; a PNG that does not is tiled below.
	tiled := false
	req := r.RenderRequest
	if req.Format == RenderPNG || req.Format == "" {
		req.Format, req.tiles, tiled = RenderPNG, true, true
	}
	pic, res, err := s.draw(ctx, req)
	if err != nil {
		return nil, err
	}
	out := &ExportResult{Name: r.Name, Revision: res.Revision, Format: res.Format, Width: res.Width, Height: res.Height,
		Scale: res.Scale, Origin: &res.Origin, Ephemeral: s.exports.Ephemeral()}
	if tiled && res.Width*res.Height > s.tiling.pixels() {
		return s.exportTiles(ctx, pic, out, r.TTL)
	}
	if tiled {
		var buf bytes.Buffer
		if err := raster.PNG(&buf, pic, s.fonts); err != nil {
			return nil, fmt.Errorf("export %s: %w", r.Name, err)
		}
		res.Data = buf.Bytes()
	} else if err := s.encode(pic, res); err != nil {
		return nil, err
	}
	out.Link, err = s.putExport(exports.NewID()+"."+res.Format, res.Data, r.TTL)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// exportTiles cuts a picture into tiles of TileSize pixels, each its own
// PNG, and writes an index of them.
func (s *Service) exportTiles(ctx context.Context, pic *render.Picture, out *ExportResult, ttl time.Duration) (*ExportResult, error) {
	size := s.tiling.size()
	cols := (out.Width + size - 1) / size
	rows := (out.Height + size - 1) / size
	if rows*cols > maxTiles {
		return nil, sceneerr.New(sceneerr.TooLarge, "%d × %d px would be %d tiles of %d px, over %d; lower the scale or export a region",
			out.Width, out.Height, rows*cols, size, maxTiles).With("width", out.Width).With("height", out.Height)
	}
	stem := exports.NewID()
	view := pic.View
	step := float64(size) / pic.Scale
	for row := range rows {
		for col := range cols {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			tv := geom.Rect{MinX: view.MinX + float64(col)*step, MinY: view.MinY + float64(row)*step}
			tv.MaxX, tv.MaxY = math.Min(tv.MinX+step, view.MaxX), math.Min(tv.MinY+step, view.MaxY)
			tile := *pic
			tile.View = tv
			var buf bytes.Buffer
			if err := raster.PNG(&buf, &tile, s.fonts); err != nil {
				return nil, fmt.Errorf("export %s tile %d,%d: %w", out.Name, row, col, err)
			}
			w, h := tile.PixelSize()
			link, err := s.putExport(fmt.Sprintf("%s-r%dc%d.png", stem, row, col), buf.Bytes(), ttl)
			if err != nil {
				return nil, err
			}
			out.Tiles = append(out.Tiles, ExportedTile{Row: row, Col: col, Width: w, Height: h, Link: link,
				Region: [4]float64{round2(tv.MinX), round2(tv.MinY), round2(tv.W()), round2(tv.H())}})
		}
	}
	index, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	out.Link, err = s.putExport(stem+".json", index, ttl)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// tiling is when and how an export is cut into tiles; the zero value is
// MaxRenderPixels and TileSize (tests set smaller ones).
type tiling struct{ maxPixels, tileSize int }

func (t tiling) pixels() int {
	if t.maxPixels > 0 {
		return t.maxPixels
	}
	return MaxRenderPixels
}

func (t tiling) size() int {
	if t.tileSize > 0 {
		return t.tileSize
	}
	return TileSize
}

func (s *Service) putExport(id string, data []byte, ttl time.Duration) (exports.Link, error) {
	link, err := s.exports.Put(id, data, ttl)
	var te *exports.TTLError
	if errors.As(err, &te) {
		return exports.Link{}, opError("/ttl_seconds", "%s", te.Error())
	}
	if err != nil {
		return exports.Link{}, sceneerr.New(sceneerr.IOError, "writing the export failed").With("cause", err.Error())
	}
	return link, nil
}

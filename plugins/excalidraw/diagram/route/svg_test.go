package route

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// dumpSVG writes the boxes and paths to $ROUTE_SVG/name.svg when that is
// set, to look at.
func dumpSVG(name string, boxes map[string]geom.Rect, paths []Path) {
	dir := os.Getenv("ROUTE_SVG")
	if dir == "" {
		return
	}
	var all []geom.Vec
	for _, b := range boxes {
		all = append(all, geom.V(b.MinX, b.MinY), geom.V(b.MaxX, b.MaxY))
	}
	bb := geom.BoundsOf(all).Expand(40)
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="%g %g %g %g" width="%d" height="%d">`+"\n", bb.MinX, bb.MinY, bb.W(), bb.H(), int(bb.W()), int(bb.H()))
	fmt.Fprintf(&sb, `<rect x="%g" y="%g" width="%g" height="%g" fill="white"/>`+"\n", bb.MinX, bb.MinY, bb.W(), bb.H())
	ids := make([]string, 0, len(boxes))
	for id := range boxes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		b := boxes[id]
		fmt.Fprintf(&sb, `<rect x="%g" y="%g" width="%g" height="%g" fill="#eef" stroke="#446"/><text x="%g" y="%g" font-size="10">%s</text>`+"\n", b.MinX, b.MinY, b.W(), b.H(), b.MinX+3, b.MinY+12, id)
	}
	colors := []string{"#c00", "#080", "#00c", "#a60", "#808", "#088", "#555"}
	for i, p := range paths {
		var pts []string
		for _, q := range p.Points {
			pts = append(pts, fmt.Sprintf("%g,%g", q.X, q.Y))
		}
		c := colors[i%len(colors)]
		fmt.Fprintf(&sb, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", strings.Join(pts, " "), c)
		e := p.Points[len(p.Points)-1]
		fmt.Fprintf(&sb, `<circle cx="%g" cy="%g" r="2.5" fill="%s"/><text x="%g" y="%g" font-size="8" fill="%s">%s</text>`+"\n", e.X, e.Y, c, p.Points[0].X+2, p.Points[0].Y+8, c, p.ID)
	}
	sb.WriteString("</svg>\n")
	os.WriteFile(filepath.Join(dir, name+".svg"), []byte(sb.String()), 0o644)
}

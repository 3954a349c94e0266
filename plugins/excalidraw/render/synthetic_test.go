package render_test

import (
	"fmt"
	"strings"
	"testing"
)

// syntheticScene is a scene of n elements in a grid: labelled boxes of
// each fill style, ellipses, diamonds, bound arrows and lines, as a
// person's diagram has them.
func syntheticScene(t testing.TB, n int) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"excalidraw","version":2,"source":"dsh-test","elements":[`)
	fills := []string{"hachure", "cross-hatch", "solid", "zigzag"}
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		x, y := float64(i%50)*100, float64(i/50)*60
		common := fmt.Sprintf(`"id":"e%d","x":%g,"y":%g,"angle":0,"strokeColor":"#1e1e1e","fillStyle":%q,"strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"seed":%d,"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false`,
			i, x, y, fills[i%4], 1000+i*7)
		switch i % 5 {
		case 0, 1:
			fmt.Fprintf(&b, `{"type":"rectangle",%s,"width":80,"height":40,"backgroundColor":"#a5d8ff","roundness":{"type":3},"boundElements":[]}`, common)
		case 2:
			fmt.Fprintf(&b, `{"type":"ellipse",%s,"width":80,"height":40,"backgroundColor":"#ffec99","roundness":null,"boundElements":[]}`, common)
		case 3:
			fmt.Fprintf(&b, `{"type":"text",%s,"width":60,"height":25,"backgroundColor":"transparent","roundness":null,"boundElements":[],"text":"Item %d","originalText":"Item %d","fontSize":20,"fontFamily":5,"textAlign":"left","verticalAlign":"top","containerId":null,"autoResize":true,"lineHeight":1.25}`, common, i, i)
		default:
			fmt.Fprintf(&b, `{"type":"arrow",%s,"width":90,"height":30,"backgroundColor":"transparent","roundness":{"type":2},"boundElements":[],"points":[[0,0],[45,20],[90,30]],"startBinding":null,"endBinding":null,"startArrowhead":null,"endArrowhead":"arrow","elbowed":false}`, common)
		}
	}
	b.WriteString(`],"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`)
	return []byte(b.String())
}

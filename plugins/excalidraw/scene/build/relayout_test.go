package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Laying out again what the builder just laid out changes nothing: the
// layouts for existing elements are the builder's own, for labels in
// every container (wrapped, grown, aligned, rotated, on a three-point
// arrow) and for free text (auto-resizing and fixed-width).
func TestRelayoutOfBuiltElementsIsAFixedPoint(t *testing.T) {
	res := mustBuild(t, testContext(),
		`{"type":"rectangle","id":"r","x":10,"y":20,"width":150,"height":40,"label":{"text":"a label long enough to wrap and grow the box"}}`,
		`{"type":"ellipse","id":"e","x":300,"y":0,"width":130,"height":90,"label":{"text":"ellipse label","fontFamily":"nunito","textAlign":"right","verticalAlign":"bottom"}}`,
		`{"type":"diamond","id":"d","x":0,"y":300,"width":180,"height":120,"angle":0.3,"label":{"text":"Decide?","textAlign":"left","verticalAlign":"top"}}`,
		`{"type":"arrow","id":"a","x":0,"y":600,"points":[[0,0],[120,80],[400,80]],"label":{"text":"a label on a bent arrow"}}`,
		`{"type":"text","id":"t","x":0,"y":900,"text":"auto\nresizing"}`,
		`{"type":"text","id":"f","x":0,"y":1000,"width":120,"text":"fixed width text that wraps","fontFamily":"cascadia","fontSize":24}`,
	)
	byIDs := map[string]*ojson.Object{}
	for _, el := range res.Elements {
		id, _ := el.String("id")
		byIDs[id] = el
	}
	check := func(name string, t0 *ojson.Object, got TextLayout) {
		t.Helper()
		want := TextLayout{Text: mustGet(t0, "text").(string), X: numberOf(t, t0, "x"), Y: numberOf(t, t0, "y"),
			Width: numberOf(t, t0, "width"), Height: numberOf(t, t0, "height"), Angle: numberOf(t, t0, "angle")}
		got.ContainerWidth, got.ContainerHeight = 0, 0
		if got != want {
			t.Errorf("%s: relayout %+v, built %+v", name, got, want)
		}
	}
	for _, el := range res.Elements {
		cid, ok := el.String("containerId")
		if !ok {
			continue
		}
		c := byIDs[cid]
		lay := LayoutLabel(c, el)
		check("label of "+cid, el, lay)
		if lay.ContainerWidth != numberOf(t, c, "width") || lay.ContainerHeight != numberOf(t, c, "height") {
			t.Errorf("%s: container %v×%v, built %v×%v", cid, lay.ContainerWidth, lay.ContainerHeight, numberOf(t, c, "width"), numberOf(t, c, "height"))
		}
	}
	check("t", byIDs["t"], FitText(byIDs["t"]))
	check("f", byIDs["f"], FitText(byIDs["f"]))
}

// FitText keeps a fixed width and wraps to it; an auto-resizing text takes
// its text's width.
func TestFitText(t *testing.T) {
	el := parseObject(t, `{"type":"text","x":0,"y":0,"width":100,"height":25,"fontSize":20,"fontFamily":5,
		"text":"old","originalText":"one two three four five","autoResize":false}`)
	lay := FitText(el)
	if lay.Width != 100 || lay.Text == "one two three four five" {
		t.Fatalf("fixed width: %+v", lay)
	}
	el.Set("autoResize", true)
	if lay := FitText(el); lay.Text != "one two three four five" || lay.Width <= 100 || lay.Height != 25 {
		t.Fatalf("auto-resizing: %+v", lay)
	}
}

package build

import (
	"slices"
	"testing"
)

var commonKeys = []string{
	"id", "type", "x", "y", "width", "height", "angle", "strokeColor", "backgroundColor", "fillStyle",
	"strokeWidth", "strokeStyle", "roughness", "opacity", "groupIds", "frameId", "index", "roundness",
	"seed", "version", "versionNonce", "isDeleted", "boundElements", "updated", "link", "locked",
}

func keysFor(t string) []string {
	extra := map[string][]string{
		"text":     {"text", "fontSize", "fontFamily", "textAlign", "verticalAlign", "containerId", "originalText", "autoResize", "lineHeight"},
		"line":     {"points", "lastCommittedPoint", "startBinding", "endBinding", "startArrowhead", "endArrowhead"},
		"arrow":    {"points", "lastCommittedPoint", "startBinding", "endBinding", "startArrowhead", "endArrowhead", "elbowed"},
		"freedraw": {"points", "pressures", "simulatePressure", "lastCommittedPoint"},
		"image":    {"status", "fileId", "scale", "crop"},
	}[t]
	return append(slices.Clone(commonKeys), extra...)
}

func TestElementFieldsAndDefaults(t *testing.T) {
	cases := []struct {
		in   string
		want map[string]string // field -> compact JSON
	}{
		{`{"type":"rectangle","x":1,"y":2}`, map[string]string{
			"width": "100", "height": "100", "roundness": `{"type":3}`, "strokeColor": `"#1e1e1e"`,
			"backgroundColor": `"transparent"`, "fillStyle": `"solid"`, "strokeWidth": "2", "strokeStyle": `"solid"`,
			"roughness": "1", "opacity": "100", "groupIds": "[]", "frameId": "null", "version": "1",
			"isDeleted": "false", "boundElements": "[]", "updated": "1700000000000", "link": "null", "locked": "false",
			"angle": "0", "x": "1", "y": "2",
		}},
		{`{"type":"ellipse","x":0,"y":0,"width":50,"height":30}`, map[string]string{"roundness": `{"type":2}`, "width": "50", "height": "30"}},
		{`{"type":"diamond","x":0,"y":0,"roundness":"sharp"}`, map[string]string{"roundness": "null"}},
		{`{"type":"text","x":10,"y":20,"text":"hi"}`, map[string]string{
			"roundness": "null", "text": `"hi"`, "originalText": `"hi"`, "fontSize": "20", "fontFamily": "5",
			"textAlign": `"left"`, "verticalAlign": `"top"`, "containerId": "null", "autoResize": "true",
			"lineHeight": "1.25", "x": "10", "y": "20", "height": "25",
		}},
		{`{"type":"text","x":0,"y":0,"text":"a\r\nb\tc","fontFamily":"cascadia","fontSize":10}`, map[string]string{
			"text": `"a\nb        c"`, "lineHeight": "1.2", "fontFamily": "3", "height": "24",
		}},
		{`{"type":"arrow","x":5,"y":6}`, map[string]string{
			"roundness": `{"type":2}`, "points": "[[0,0],[100,0]]", "width": "100", "height": "0",
			"startBinding": "null", "endBinding": "null", "startArrowhead": "null", "endArrowhead": `"arrow"`,
			"elbowed": "false", "lastCommittedPoint": "null",
		}},
		{`{"type":"arrow","x":0,"y":0,"points":[[10,10],[30,-10],[0,40]],"endArrowhead":null,"startArrowhead":"bar"}`, map[string]string{
			"x": "10", "y": "10", "points": "[[0,0],[20,-20],[-10,30]]", "width": "30", "height": "50",
			"startArrowhead": `"bar"`, "endArrowhead": "null",
		}},
		{`{"type":"line","x":0,"y":0,"width":-40,"height":30}`, map[string]string{
			"points": "[[0,0],[-40,30]]", "width": "40", "height": "30", "startArrowhead": "null", "endArrowhead": "null",
		}},
		{`{"type":"freedraw","x":0,"y":0,"points":[[1,1],[2,3]]}`, map[string]string{
			"roundness": "null", "points": "[[0,0],[1,2]]", "x": "1", "y": "1", "pressures": "[]", "simulatePressure": "true",
			"lastCommittedPoint": "null",
		}},
		{`{"type":"freedraw","x":0,"y":0,"points":[[0,0],[2,3]],"pressures":[0.1,1]}`, map[string]string{
			"pressures": "[0.1,1]", "simulatePressure": "false",
		}},
		{`{"type":"image","x":0,"y":0,"width":30,"height":40,"fileId":"file-1"}`, map[string]string{
			"strokeColor": `"transparent"`, "roundness": "null", "status": `"saved"`, "fileId": `"file-1"`,
			"scale": "[1,1]", "crop": "null",
		}},
		{`{"type":"image","x":0,"y":0,"width":30,"height":40,"fileId":"file-1","roundness":"round","scale":[1,-1]}`, map[string]string{
			"roundness": `{"type":3}`, "scale": "[1,-1]",
		}},
		{`{"type":"rectangle","x":0,"y":0,"strokeColor":"#e03131","backgroundColor":"#ffc9c9","fillStyle":"zigzag",` +
			`"strokeWidth":4,"strokeStyle":"dotted","roughness":0,"opacity":50,"groupIds":["g"],"link":" https://x.y ","locked":true,"angle":-1.5707963267948966}`,
			map[string]string{
				"strokeColor": `"#e03131"`, "backgroundColor": `"#ffc9c9"`, "fillStyle": `"zigzag"`, "strokeWidth": "4",
				"strokeStyle": `"dotted"`, "roughness": "0", "opacity": "50", "groupIds": `["g"]`, "link": `"https://x.y"`,
				"locked": "true", "angle": "4.71238898038469",
			}},
	}
	for _, c := range cases {
		res := mustBuild(t, testContext(), c.in)
		el := res.Elements[0]
		typ, _ := el.String("type")
		if got, want := el.Keys(), keysFor(typ); !slices.Equal(got, want) {
			t.Errorf("%s: keys\n got %v\nwant %v", c.in, got, want)
		}
		for k, want := range c.want {
			v, _ := el.Get(k)
			if got := compact(v); got != want {
				t.Errorf("%s: %s = %s, want %s", c.in, k, got, want)
			}
		}
		if id, _ := el.String("id"); len(id) != idLength || res.IDs[0] != id {
			t.Errorf("%s: id %q, IDs %v", c.in, id, res.IDs)
		}
		seed := numberOf(t, el, "seed")
		nonce := numberOf(t, el, "versionNonce")
		if seed < 0 || seed >= seedLimit || nonce < 0 || nonce >= seedLimit {
			t.Errorf("%s: seed %v nonce %v", c.in, seed, nonce)
		}
	}
}

func TestTextAnchors(t *testing.T) {
	base := mustBuild(t, testContext(), `{"type":"text","x":100,"y":100,"text":"anchor"}`).Elements[0]
	w, h := numberOf(t, base, "width"), numberOf(t, base, "height")
	cases := []struct {
		align, valign string
		x, y          float64
	}{
		{"left", "top", 100, 100},
		{"center", "middle", 100 - w/2, 100 - h/2},
		{"right", "bottom", 100 - w, 100 - h},
	}
	for _, c := range cases {
		el := mustBuild(t, testContext(),
			`{"type":"text","x":100,"y":100,"text":"anchor","textAlign":"`+c.align+`","verticalAlign":"`+c.valign+`"}`).Elements[0]
		if x, y := numberOf(t, el, "x"), numberOf(t, el, "y"); x != c.x || y != c.y {
			t.Errorf("%s/%s: at %v,%v want %v,%v", c.align, c.valign, x, y, c.x, c.y)
		}
	}
}

func TestFixedWidthTextWraps(t *testing.T) {
	el := mustBuild(t, testContext(),
		`{"type":"text","x":0,"y":0,"text":"one two three four five six seven","width":80}`).Elements[0]
	text, _ := el.String("text")
	orig, _ := el.String("originalText")
	if orig != "one two three four five six seven" || text == orig {
		t.Fatalf("text %q original %q: expected wrapping", text, orig)
	}
	if auto, _ := el.Bool("autoResize"); auto {
		t.Error("fixed-width text must have autoResize false")
	}
	if numberOf(t, el, "width") != 80 {
		t.Errorf("width %v, want 80", numberOf(t, el, "width"))
	}
	lines := 1
	for _, r := range text {
		if r == '\n' {
			lines++
		}
	}
	if want := float64(lines) * 20 * 1.25; numberOf(t, el, "height") != want {
		t.Errorf("height %v, want %v for %d lines", numberOf(t, el, "height"), want, lines)
	}
}

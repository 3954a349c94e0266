package scene_test

import (
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

const sample = `{
  "type": "excalidraw",
  "version": 2,
  "source": "https://excalidraw.com",
  "elements": [
    {"id": "box", "type": "rectangle", "x": 0, "y": 0, "width": 100, "height": 50, "plugin": {"kept": true}},
    {"id": "arrow", "type": "arrow", "x": 120, "y": 25, "width": 80, "height": 0,
     "points": [[0, 0], [80, 0]], "startBinding": {"elementId": "box"}, "endBinding": {"elementId": "gone"}}
  ],
  "appState": {"viewBackgroundColor": "#fafafa", "zoom": {"value": 2}}
}`

// Parse accepts what real editors write; Marshal keeps unknown fields and
// reduces appState to the three round-tripped members.
func ExampleParse() {
	doc, err := scene.Parse([]byte(sample), scene.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.ElementCount(), "elements")
	out, _ := doc.Marshal()
	back, _ := scene.Parse(out, scene.Limits{})
	fmt.Println(back.AppState().Keys())
	plugin, _ := back.Elements()[0].Get("plugin")
	b, _ := ojson.Marshal(plugin)
	fmt.Println(string(b))
	// Output:
	// 2 elements
	// [viewBackgroundColor gridSize gridModeEnabled]
	// {"kept":true}
}

// ValidateBytes never fails; it reports.
func ExampleValidateBytes() {
	r := scene.ValidateBytes([]byte(sample), scene.Limits{})
	fmt.Println("valid:", r.Valid)
	for _, d := range r.Errors() {
		fmt.Println(d.Code, d.Pointer)
	}
	fmt.Println("warnings about defaulted fields:", r.Count(scene.CodeMissingField))
	fmt.Printf("bounds: %+v\n", *r.Stats.Bounds)
	// Output:
	// valid: false
	// dangling_binding /elements/1/endBinding/elementId
	// warnings about defaulted fields: 1
	// bounds: {MinX:0 MinY:0 MaxX:200 MaxY:50}
}

// ParseStrict is for scenes about to be written: the dangling binding
// becomes an invalid_reference error.
func ExampleParseStrict() {
	_, err := scene.ParseStrict([]byte(sample), scene.Limits{})
	fmt.Println(err)
	// Output:
	// invalid_reference: endBinding names no element ("gone")
}

func ExampleNewDocument() {
	doc := scene.NewDocument()
	doc.SetElements([]*ojson.Object{ojson.New().Set("id", "a").Set("type", "ellipse")})
	n, err := scene.Codec{}.Inspect(must(doc.Marshal()))
	fmt.Println(n, err)
	// Output:
	// 1 <nil>
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

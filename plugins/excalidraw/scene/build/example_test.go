package build_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
)

// Two labelled shapes joined by an arrow, in one call: the arrow binds to
// the shapes by the ids the call gives them.
func ExampleBuild() {
	inputs := []json.RawMessage{
		json.RawMessage(`{"type":"rectangle","id":"start","x":0,"y":0,"width":160,"height":80,"label":{"text":"Start"}}`),
		json.RawMessage(`{"type":"diamond","id":"check","x":300,"y":-20,"width":160,"height":120,"label":{"text":"OK?"}}`),
		json.RawMessage(`{"type":"arrow","startElementId":"start","endElementId":"check"}`),
	}
	res, err := build.Build(inputs, build.Context{
		Rand: rand.New(rand.NewPCG(1, 1)),
		Now:  func() time.Time { return time.UnixMilli(0) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, el := range res.Elements {
		typ, _ := el.String("type")
		index, _ := el.String("index")
		container, _ := el.String("containerId")
		if container != "" {
			container = " in " + container
		}
		fmt.Printf("%-9s index=%s%s\n", typ, index, container)
	}
	arrow := res.Elements[4]
	start, _ := arrow.Object("startBinding")
	b, _ := json.Marshal(start)
	fmt.Println(string(b))
	fmt.Println(res.IDs[:2])
	// Output:
	// rectangle index=a0
	// text      index=a1 in start
	// diamond   index=a2
	// text      index=a3 in check
	// arrow     index=a4
	// {"elementId":"start","focus":0,"gap":6,"fixedPoint":[0.5001,0.5001],"mode":"orbit"}
	// [start check]
}

// Bad input comes back as a *sceneerr.Error naming the input and the
// field.
func ExampleBuild_error() {
	_, err := build.Build([]json.RawMessage{
		json.RawMessage(`{"type":"ellipse","x":0,"y":0,"radius":5}`),
	}, build.Context{})
	fmt.Println(err)
	// Output:
	// invalid_operation: element 0 at /radius: unknown field "radius" for type "ellipse"; allowed: [type id x y width height angle roundness label strokeColor backgroundColor fillStyle strokeWidth strokeStyle roughness opacity groupIds frameId link locked]
}

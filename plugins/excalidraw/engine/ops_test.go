package engine

import (
	"encoding/json"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestDecodeOps(t *testing.T) {
	ops, err := DecodeOps(raws(`{"op":"add","element":{"type":"text","x":0,"y":0,"text":"a"}}`, `{"op":"update","id":"x","patch":{"x":1}}`, `{"op":"delete","id":"y"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ops[0].kind != opAdd || ops[1].patch == nil || ops[2].id != "y" || ops[2].pointer != "/operations/2" {
		t.Fatalf("%+v", ops)
	}
	bad := map[string]string{
		`[]`:                                  "/operations/0",
		`{"op":"update","id":"x"}`:            "/operations/0/patch",
		`{"op":"update","id":"x","patch":{}}`: "/operations/0/patch",
		`{"op":"delete"}`:                     "/operations/0/id",
		`{"op":"delete","id":""}`:             "/operations/0/id",
		`{"op":"add","element":[]}`:           "/operations/0/element",
		`{"op":"delete","id":"x","id":"y"}`:   "/operations/0",
		`{"op":"delete","id":"x","patch":{}}`: "/operations/0/patch",
	}
	for raw, ptr := range bad {
		_, err := DecodeOps(raws(raw))
		if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != ptr {
			t.Errorf("%s: pointer %v want %s", raw, se.Details["pointer"], ptr)
		}
	}
	_, err = DecodeOps(make([]json.RawMessage, MaxOperations+1))
	wantCode(t, err, sceneerr.InvalidOperation)
}

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// A handler's pictures travel beside its JSON, which is the value's alone;
// a failed call carries none.
func TestWithImagesKeepsPicturesBesideTheJSON(t *testing.T) {
	r := NewRegistry(nil)
	fail := false
	mustRegister(t, r, Tool{
		Name: "draw", Description: "d", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			if fail {
				return nil, Errorf("not_found", "nothing to draw")
			}
			return WithImages{Value: map[string]any{"width": 2}, Images: []Image{{MIME: "image/png", Data: []byte{1, 2, 3}}}}, nil
		},
	})
	res := r.Call(context.Background(), "draw", nil)
	if !res.OK || string(res.JSON) != `{"ok":true,"width":2}` {
		t.Fatalf("JSON %s", res.JSON)
	}
	if len(res.Images) != 1 || res.Images[0].MIME != "image/png" || len(res.Images[0].Data) != 3 {
		t.Fatalf("images %+v", res.Images)
	}
	fail = true
	res = r.Call(context.Background(), "draw", nil)
	if res.OK || len(res.Images) != 0 {
		t.Fatalf("failure: ok %v, %d images", res.OK, len(res.Images))
	}
	var te *Error
	if !errors.As(Errorf("x", "y"), &te) {
		t.Fatal("Errorf is not an *Error")
	}
}

// A value that says ok:false is a failure, and its pictures are dropped.
func TestWithImagesOfAFailingValueAreDropped(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name: "half", Description: "d", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return WithImages{Value: map[string]any{"ok": false}, Images: []Image{{MIME: "image/png", Data: []byte{1}}}}, nil
		},
	})
	if res := r.Call(context.Background(), "half", nil); res.OK || len(res.Images) != 0 {
		t.Fatalf("ok %v, %d images", res.OK, len(res.Images))
	}
}

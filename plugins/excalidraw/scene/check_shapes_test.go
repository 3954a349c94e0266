package scene

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestShapes(t *testing.T) {
	d := NewDocument()
	d.SetElements([]*ojson.Object{nil, ojson.New().Set("id", "a"), ojson.New().Set("id", "b").Set("type", []any{}), rect("ok")})
	v := newValidator(d, DefaultLimits())
	v.checkShapes()
	got := []string{}
	for _, d := range v.diags {
		got = append(got, d.Code+" "+d.Pointer)
	}
	want := []string{"invalid_element /elements/0", "missing_field /elements/1/type", "invalid_field /elements/2/type"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %v, want %v", got, want)
		}
	}
}

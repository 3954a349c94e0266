package scene

import (
	"errors"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestCodecInspect(t *testing.T) {
	d := validScene()
	el(d, "r2").Set("isDeleted", true)
	n, err := Codec{}.Inspect(mustMarshal(t, d))
	if err != nil || n != 11 {
		t.Fatalf("Inspect = %d, %v; want 11 (tombstones included)", n, err)
	}
	if _, err := (Codec{Limits: Limits{MaxElements: 3}}).Inspect(mustMarshal(t, d)); sceneerr.CodeOf(err) != sceneerr.TooManyElements {
		t.Fatalf("limit: %v", err)
	}
	if _, err := (Codec{}).Inspect([]byte("{")); sceneerr.CodeOf(err) != sceneerr.InvalidScene {
		t.Fatalf("garbage: %v", err)
	}
}

func TestCodecEncodeDecode(t *testing.T) {
	c := Codec{}
	b, err := c.Encode(validScene())
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.Decode(b)
	if err != nil || d.ElementCount() != 11 {
		t.Fatalf("Decode: %v", err)
	}
	d.SetElements(append(d.Elements(), ojson.New().Set("id", "x")))
	if _, err := c.Encode(d); sceneerr.CodeOf(err) != sceneerr.InvalidScene {
		t.Errorf("untyped element: %v", err)
	}
	if _, err := (Codec{Limits: Limits{MaxSceneBytes: 100}}).Encode(validScene()); !errors.Is(err, sceneerr.New(sceneerr.TooLarge, "")) {
		t.Errorf("size: %v", err)
	}
}

package build

import "testing"

func TestTouchBumpsACopy(t *testing.T) {
	b := newBuilder(testContext(), indexScene(nil))
	orig := parseObject(t, `{"id":"x","type":"rectangle","version":7,"versionNonce":1,"updated":5,"boundElements":null}`)
	cp := b.touch(orig)
	if numberOf(t, cp, "version") != 8 || numberOf(t, cp, "updated") != float64(fixedNow.UnixMilli()) {
		t.Fatalf("touched %s", compact(cp))
	}
	if numberOf(t, orig, "version") != 7 {
		t.Fatal("original changed")
	}
	addBound(cp, "arrow", "a")
	if got := compact(mustGet(cp, "boundElements")); got != `[{"type":"arrow","id":"a"}]` {
		t.Fatalf("boundElements from null: %s", got)
	}
	if len(b.updated) != 1 || b.updated[0] != cp {
		t.Fatal("copy not recorded in Updated")
	}
}

func TestArrowToNewTextAndImage(t *testing.T) {
	res := mustBuild(t, testContext(),
		`{"type":"text","id":"t","x":0,"y":0,"text":"source"}`,
		`{"type":"image","id":"i","x":400,"y":0,"width":100,"height":100,"fileId":"file-1"}`,
		`{"type":"arrow","id":"a","startElementId":"t","endElementId":"i"}`,
	)
	checkWellFormed(t, res, nil)
	if len(boundIDs(byID(t, res.Elements, "t"), "arrow")) != 1 || len(boundIDs(byID(t, res.Elements, "i"), "arrow")) != 1 {
		t.Fatal("text and image should list the arrow")
	}
}

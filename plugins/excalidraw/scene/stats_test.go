package scene

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestStats(t *testing.T) {
	d := validScene()
	el(d, "d1").Set("isDeleted", true)
	st := Validate(d, Limits{}).Stats
	if st.Elements != 11 || st.Deleted != 1 {
		t.Errorf("elements %d deleted %d", st.Elements, st.Deleted)
	}
	sum := 0
	for _, n := range st.ByType {
		sum += n
	}
	if sum != st.Elements || st.ByType["rectangle"] != 2 || st.ByType["text"] != 2 || st.ByType["diamond"] != 1 {
		t.Errorf("by type %v", st.ByType)
	}
	if st.Files != 1 || st.FileBytes != int64(len(pngURL)) {
		t.Errorf("files %d bytes %d", st.Files, st.FileBytes)
	}
	if st.Bounds == nil {
		t.Fatal("no bounds")
	}
}

func TestStatsEmptyScene(t *testing.T) {
	d := NewDocument()
	d.SetElements([]*ojson.Object{rect("a").Set("isDeleted", true), nil})
	st := newValidator(d, DefaultLimits()).computeStats()
	if st.Bounds != nil || st.Elements != 2 || st.Deleted != 1 {
		t.Fatalf("%+v", st)
	}
}

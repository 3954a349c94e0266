package service

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// repairScene is a browser save with three elements sharing the id "a"
// and an arrow bound to an element that does not exist: Normalize renames
// the two later ids and drops the binding, as Excalidraw's restore would.
const repairScene = `{"type":"excalidraw","version":2,"source":"t","elements":[
	{"type":"rectangle","id":"a","x":0,"y":0,"width":10,"height":10},
	{"type":"ellipse","id":"a","x":20,"y":0,"width":10,"height":10},
	{"type":"diamond","id":"a","x":40,"y":0,"width":10,"height":10},
	{"type":"arrow","id":"arr","x":0,"y":30,"width":50,"height":0,"points":[[0,0],[50,0]],"startBinding":null,
	 "endBinding":{"elementId":"zz","focus":0,"gap":1}}]}`

// TestSaveReportsRepairs: a save that Normalize repairs says what it
// repaired, with stable codes, the element ids and pointers; the ids it
// names are the ones written.
func TestSaveReportsRepairs(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "r", Actor: "ui"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Save(ctx, SaveRequest{Name: "r", Scene: []byte(repairScene), ExpectedRevision: 1})
	if err != nil {
		t.Fatal(err)
	}
	doc := checkStored(t, dir, "r")
	var renamed, dropped int
	for _, r := range res.Repairs {
		switch r.Code {
		case scene.RepairDuplicateIDRenamed:
			renamed++
			i := map[string]int{"/elements/1/id": 1, "/elements/2/id": 2}[r.Pointer]
			if r.ID != "a" || r.NewID == "" || r.NewID == "a" || i == 0 {
				t.Errorf("rename %+v", r)
				continue
			}
			if got, _ := doc.Elements()[i].String("id"); got != r.NewID {
				t.Errorf("rename says %s, element %d has id %s", r.NewID, i, got)
			}
		case scene.RepairBindingDropped:
			dropped++
			if r.ID != "arr" || r.Pointer != "/elements/3/endBinding" || r.Ref != "zz" {
				t.Errorf("binding %+v", r)
			}
		}
	}
	if renamed != 2 || dropped != 1 || res.RepairsOmitted != 0 {
		t.Fatalf("repairs %+v (omitted %d)", res.Repairs, res.RepairsOmitted)
	}
	out, _ := json.Marshal(res)
	if !strings.Contains(string(out), `"repairs":[{"code":"duplicate_id_renamed","id":"a","newId":"`) {
		t.Fatalf("JSON %s", out)
	}

	// A clean save repairs nothing and says nothing about repairs.
	read, err := s.Read(ctx, ReadRequest{Name: "r"})
	if err != nil {
		t.Fatal(err)
	}
	clean, err := s.Save(ctx, SaveRequest{Name: "r", Scene: read.Scene, ExpectedRevision: read.Revision})
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(clean); len(clean.Repairs) != 0 || strings.Contains(string(out), "repairs") {
		t.Fatalf("clean save %s", out)
	}
}

// TestSaveRepairsAreCapped: many repairs are listed up to a bound and the
// rest counted, so a badly damaged scene does not make a huge answer.
func TestSaveRepairsAreCapped(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "many", Actor: "ui"}); err != nil {
		t.Fatal(err)
	}
	els := make([]string, 61)
	for i := range els {
		els[i] = fmt.Sprintf(`{"type":"rectangle","id":"same","x":%d,"y":0,"width":10,"height":10}`, i*20)
	}
	doc := `{"type":"excalidraw","version":2,"elements":[` + strings.Join(els, ",") + `]}`
	res, err := s.Save(ctx, SaveRequest{Name: "many", Scene: []byte(doc), ExpectedRevision: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Repairs) != maxRepairsShown || res.RepairsOmitted != 60-maxRepairsShown {
		t.Fatalf("%d repairs listed, %d omitted", len(res.Repairs), res.RepairsOmitted)
	}
}

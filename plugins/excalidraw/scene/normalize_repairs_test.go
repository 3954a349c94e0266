package scene

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// TestNormalizeListsRepairs: each repair that changes what a scene says is
// listed with its code, the element's id, the reference it named and the
// pointer of the member; the defaults filled in on the way are not.
func TestNormalizeListsRepairs(t *testing.T) {
	els := complete(
		rect("a"), rect("a").Set("x", num(200)), // 1: duplicate id
		rect("").Set("x", num(400)),                                                          // 2: no id
		arrow("arr", "a", "zz"),                                                              // 3: end bound to nothing; a does not list it
		textEl("orphan", "nowhere"),                                                          // 4: container that does not exist
		rect("framed").Set("frameId", "no-frame"),                                            // 5: frame that does not exist
		rect("lister").Set("boundElements", []any{entry("ghost", "arrow")}),                  // 6: entry names nothing
		textEl("empty", "").Set("text", ""),                                                  // 7: live text without text
		ojson.New().Set("type", "rectangle").Set("id", "inf").Set("x", json.Number("1e999")), // 8: overflow
	)
	els[2].Delete("id")
	_, rep := normalizeOf(els...)
	newID := func(i int) string { s, _ := els[i].String("id"); return s }
	want := []Repair{
		{Code: RepairIDAssigned, NewID: newID(2), Pointer: "/elements/2/id"},
		{Code: RepairEmptyTextDeleted, ID: "empty", Pointer: "/elements/7/isDeleted"},
		{Code: RepairNonFiniteNulled, ID: "inf", Pointer: "/elements/8"},
		{Code: RepairDuplicateIDRenamed, ID: "a", NewID: newID(1), Pointer: "/elements/1/id"},
		{Code: RepairBindingDropped, ID: "arr", Ref: "zz", Pointer: "/elements/3/endBinding"},
		{Code: RepairContainerDropped, ID: "orphan", Ref: "nowhere", Pointer: "/elements/4/containerId"},
		{Code: RepairFrameDropped, ID: "framed", Ref: "no-frame", Pointer: "/elements/5/frameId"},
		{Code: RepairBoundElementDropped, ID: "lister", Ref: "ghost", Pointer: "/elements/6/boundElements"},
		{Code: RepairBoundElementAdded, ID: "a", Ref: "arr", Pointer: "/elements/0/boundElements"},
	}
	if !sameRepairs(rep.Repairs, want) {
		t.Fatalf("repairs:\n%s\nwant (in any order):\n%s", dumpRepairs(rep.Repairs), dumpRepairs(want))
	}
	if newID(1) == "a" || newID(2) == "" {
		t.Fatalf("ids not repaired: %q %q", newID(1), newID(2))
	}
	// Normalize is idempotent: a second run repairs nothing.
	if _, again := normalizeOf(els...); len(again.Repairs) != 0 {
		t.Fatalf("second run: %s", dumpRepairs(again.Repairs))
	}
	// A container's list that holds a text bound to nothing binds it.
	box := rect("box").Set("boundElements", []any{entry("free", "text")})
	free := textEl("free", "")
	_, rep = normalizeOf(complete(box, free)...)
	if !sameRepairs(rep.Repairs, []Repair{{Code: RepairContainerSet, ID: "free", Ref: "box", Pointer: "/elements/1/containerId"}}) {
		t.Fatalf("container set: %s", dumpRepairs(rep.Repairs))
	}
}

// TestNormalizeRepairsAreBounded: past maxRepairs, repairs are counted.
func TestNormalizeRepairsAreBounded(t *testing.T) {
	els := make([]*ojson.Object, maxRepairs+6)
	for i := range els {
		els[i] = rect("same").Set("x", num(float64(i)))
	}
	_, rep := normalizeOf(complete(els...)...)
	if len(rep.Repairs) != maxRepairs || rep.RepairsOmitted != 5 {
		t.Fatalf("%d listed, %d omitted", len(rep.Repairs), rep.RepairsOmitted)
	}
}

// TestEveryRepairCodeIsTested keeps RepairCodes and the test above in step.
func TestEveryRepairCodeIsTested(t *testing.T) {
	tested := []string{RepairDuplicateIDRenamed, RepairIDAssigned, RepairBindingDropped, RepairContainerDropped,
		RepairContainerSet, RepairFrameDropped, RepairBoundElementDropped, RepairBoundElementAdded,
		RepairEmptyTextDeleted, RepairNonFiniteNulled}
	for _, c := range RepairCodes() {
		if !slices.Contains(tested, c) {
			t.Errorf("repair code %s has no test", c)
		}
	}
}

func sameRepairs(got, want []Repair) bool {
	if len(got) != len(want) {
		return false
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}

func dumpRepairs(rs []Repair) string {
	s := ""
	for _, r := range rs {
		s += fmt.Sprintf("  %+v\n", r)
	}
	return s
}

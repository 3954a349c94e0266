package scene

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// residualRestoreDiffs lists what Excalidraw's restore may still change
// in a normalized corpus file, keyed "file element-id member", with the
// reason. It is empty: every normalized corpus file is a fixed point.
var residualRestoreDiffs = map[string]string{}

// normalizedMembers are the members Normalize may rewrite; every other
// member of an element (the unknown ones included) must come through
// unchanged.
var normalizedMembers = func() map[string]bool {
	m := map[string]bool{"id": true, "type": true, "points": true, "lastCommittedPoint": true}
	for _, rules := range [][]fieldRule{baseRules, textRules, linearRules, freedrawRules, imageRules, frameRules} {
		for _, r := range rules {
			m[r.name] = true
		}
	}
	return m
}()

// removedMembers are the legacy members Normalize may remove.
var removedMembers = map[string]bool{"rawText": true, "boundElementIds": true}

// corpusScene is one corpus file, read twice: as is and normalized.
type corpusScene struct {
	name       string
	orig, norm *Document
	report     NormalizeReport
	out        []byte
}

func loadNormalizedCorpus(t *testing.T) []corpusScene {
	t.Helper()
	var scenes []corpusScene
	for _, path := range testcorpus.Files(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := corpusScene{name: filepath.Base(path), orig: mustParse(t, data), norm: mustParse(t, data)}
		s.report = Normalize(s.norm)
		s.out = mustMarshal(t, s.norm)
		scenes = append(scenes, s)
	}
	return scenes
}

// TestNormalizeCorpusRoundTrip: read, normalize, write, read again keeps
// every element (same ids, same order) and every member Normalize does not
// own; normalizing again changes nothing; and Validate no longer reports
// what restore would repair.
func TestNormalizeCorpusRoundTrip(t *testing.T) {
	total := NormalizeReport{Fixes: map[string]int{}}
	repairable := []string{CodeMissingField, CodeInvalidIndex, CodeIndexOrder, CodeOneSidedBinding}
	for _, s := range loadNormalizedCorpus(t) {
		back := mustParse(t, s.out)
		checkKeepsElements(t, s.name, s.orig, back)
		if again := Normalize(back); again.Changed != 0 {
			t.Errorf("%s: second Normalize changed %d elements: %v", s.name, again.Changed, again.Fixes)
		}
		if out2 := mustMarshal(t, back); !bytes.Equal(out2, s.out) {
			t.Errorf("%s: second Normalize changed the bytes", s.name)
		}
		for _, d := range Validate(back, Limits{MaxDiagnostics: 1 << 30}).Diagnostics {
			if slices.Contains(repairable, d.Code) {
				t.Errorf("%s: after Normalize: %s", s.name, d)
			}
		}
		total.Changed += s.report.Changed
		for k, v := range s.report.Fixes {
			total.Fixes[k] += v
		}
	}
	t.Logf("Normalize over the corpus: %d elements changed, fixes %s", total.Changed, formatFixes(total.Fixes))
}

// checkKeepsElements compares the elements read back after Normalize with
// the original ones.
func checkKeepsElements(t *testing.T, name string, orig, back *Document) {
	t.Helper()
	if orig.ElementCount() != back.ElementCount() {
		t.Errorf("%s: %d elements, want %d", name, back.ElementCount(), orig.ElementCount())
		return
	}
	for i, o := range orig.Elements() {
		b := back.Elements()[i]
		if elementID(o) != elementID(b) {
			t.Errorf("%s: element %d: id %q became %q", name, i, elementID(o), elementID(b))
		}
		for _, k := range o.Keys() {
			if removedMembers[k] {
				continue
			}
			v, ok := b.Get(k)
			switch {
			case !ok:
				t.Errorf("%s: element %d (%s): member %q lost", name, i, elementID(o), k)
			case !normalizedMembers[k] && !sameJSON(mustGet(o, k), v):
				t.Errorf("%s: element %d (%s): member %q changed", name, i, elementID(o), k)
			}
		}
	}
}

// TestNormalizeCorpusRestore runs every corpus file through Excalidraw
// 0.18.1's own restoreElements, in one Node process: the normalized file
// (which must come back unchanged) and the original (whose restored form
// Normalize must reproduce).
func TestNormalizeCorpusRestore(t *testing.T) {
	t.Parallel() // most of the time is Node's, which can overlap
	node := requireRestore(t)
	scenes := loadNormalizedCorpus(t)
	batch := make([][]*ojson.Object, 0, 2*len(scenes))
	for _, s := range scenes {
		batch = append(batch, s.norm.Elements())
	}
	for _, s := range scenes {
		batch = append(batch, s.orig.Elements())
	}
	res := mustRestore(t, node, batch)
	t.Run("fixed point", func(t *testing.T) { checkFixedPoint(t, scenes, res[:len(scenes)]) })
	t.Run("matches restore", func(t *testing.T) { checkMatchesRestore(t, scenes, res[len(scenes):]) })
}

// checkFixedPoint requires every normalized element back from restore,
// with and without repairBindings, unchanged: same members, same values,
// same member order. Member order is held to as well: restore keeps the
// order of the members an element has, so a difference there means it
// added or removed one.
func checkFixedPoint(t *testing.T, scenes []corpusScene, res []restored) {
	residual := 0
	for i, s := range scenes {
		residual += compareRestored(t, s.name, "restore", s.norm.Elements(), res[i].plain)
		residual += compareRestored(t, s.name, "restore+repairBindings", s.norm.Elements(), res[i].repaired)
	}
	t.Logf("%d corpus files restored twice each; %d residual differences", len(scenes), residual)
}

// compareRestored reports the elements restore changed, dropped or added;
// it returns the number of differences listed in residualRestoreDiffs.
func compareRestored(t *testing.T, name, mode string, want, got []*ojson.Object) int {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: %s returned %d elements for %d", name, mode, len(got), len(want))
		return 0
	}
	residual := 0
	for i := range want {
		for _, d := range restoreDiff(want[i], got[i]) {
			member, _, _ := strings.Cut(d, " ")
			key := name + " " + elementID(want[i]) + " " + strings.TrimSuffix(member, ":")
			if _, ok := residualRestoreDiffs[key]; ok {
				residual++
				continue
			}
			t.Errorf("%s: %s changed element %d (%s %s): %s", name, mode, i, elementType(want[i]), elementID(want[i]), d)
		}
	}
	return residual
}

// departures are the members on which Normalize may differ from what
// restore makes of a corpus file, and why.
var departures = map[string]string{
	"updated":         "restore stamps Date.now(), Normalize the document's latest updated",
	"versionNonce":    "restore draws a random nonce when it bumps a version, Normalize derives one",
	"boundElementIds": "restore keeps the legacy list (and rebuilds boundElements from it on every load); Normalize removes it once migrated",
	"boundElements":   "Normalize lists bound arrows in their targets' boundElements and drops entries that do not point back",
	"elbowed":         "restore leaves an arrow without elbowed undefined, Normalize writes false",
}

// checkMatchesRestore compares Normalize with what restore makes of the
// original corpus files. The fractional indices (and the version bumps
// that go with them) must be Excalidraw's own, and so must the member
// order; every other difference must be one of the departures.
func checkMatchesRestore(t *testing.T, scenes []corpusScene, res []restored) {
	byMember := map[string]int{}
	for i, s := range scenes {
		want, got := s.norm.Elements(), res[i].repaired
		if len(want) != len(got) {
			t.Logf("%s: restore dropped %d elements", s.name, len(want)-len(got))
			continue
		}
		for j := range want {
			if a, b := mustGet(want[j], "index"), mustGet(got[j], "index"); a != b {
				t.Errorf("%s: element %d (%s): index %v, Excalidraw's is %v", s.name, j, elementID(want[j]), a, b)
			}
			if a, b := commonKeys(want[j], got[j]), commonKeys(got[j], want[j]); !slices.Equal(a, b) {
				t.Errorf("%s: element %d (%s): member order %v, restore's is %v", s.name, j, elementID(want[j]), a, b)
			}
			for _, d := range restoreDiff(got[j], want[j]) {
				member, _, _ := strings.Cut(d, " ")
				member = strings.TrimSuffix(member, ":")
				byMember[member]++
				if _, ok := departures[member]; !ok {
					t.Errorf("%s: element %d (%s): Normalize differs from restore: %s", s.name, j, elementID(want[j]), d)
				}
			}
		}
	}
	t.Logf("Normalize differs from restore on: %s", formatFixes(byMember))
}

// commonKeys lists a's members that b has too, in a's order.
func commonKeys(a, b *ojson.Object) []string {
	var out []string
	for _, k := range a.Keys() {
		if b.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

func formatFixes(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, m[k])
	}
	return b.String()
}

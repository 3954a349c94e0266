package lint

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// messy has several findings of several kinds.
func messy(t *testing.T) []*ojson.Object {
	els := built(t,
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"Alpha"}}`,
		`{"type":"rectangle","id":"b","x":100,"y":40,"width":160,"height":80,"label":{"text":"Beta"}}`,
		`{"type":"rectangle","id":"c","x":600,"y":2,"width":160,"height":80,"label":{"text":"Gamma"}}`,
		`{"type":"rectangle","id":"d","x":1000,"y":0,"width":60,"height":30,"label":{"text":"Delta"}}`,
		`{"type":"arrow","id":"ac","startElementId":"a","endElementId":"c"}`,
		`{"type":"arrow","id":"loose","x":770,"y":40,"points":[[0,0],[150,0]]}`,
		`{"type":"text","id":"pale","x":0,"y":300,"text":"pale","strokeColor":"#ffec99"}`,
		`{"type":"rectangle","id":"far","x":90000,"y":0,"width":50,"height":50}`,
	)
	return els
}

func TestDeletedElementsAreIgnored(t *testing.T) {
	els := list(rectangle("a", 0, 0, 100, 100), rectangle("b", 50, 0, 100, 100, kv{"isDeleted": true}),
		text("e", 0, 300, "", kv{"isDeleted": true}))
	if fs := Run(els, Options{}); len(fs) != 0 {
		t.Fatalf("deleted elements were linted:\n%s", dump(fs))
	}
	// A live element whose id is also on a tombstone is live.
	els = list(rectangle("x", 0, 0, 10, 10, kv{"isDeleted": true}), rectangle("x", 0, 0, 10, 10),
		arrow("a", 20, 5, [][2]float64{{0, 0}, {100, 0}}, kv{"startBinding": kv{"elementId": "x"}}))
	fs := Run(els, only(CodeDanglingBinding))
	none(t, fs, CodeDanglingBinding)
}

func TestSortedAndDeterministic(t *testing.T) {
	els := messy(t)
	first := Run(els, Options{})
	if len(first) < 5 {
		t.Fatalf("want a mixed bag:\n%s", dump(first))
	}
	for i := 1; i < len(first); i++ {
		a, b := first[i-1], first[i]
		if a.Severity.rank() > b.Severity.rank() || (a.Severity == b.Severity && a.Code > b.Code) {
			t.Fatalf("out of order at %d:\n%s", i, dump(first))
		}
	}
	want, _ := json.Marshal(first)
	for range 20 {
		got, _ := json.Marshal(Run(els, Options{}))
		if string(got) != string(want) {
			t.Fatalf("runs differ:\n%s\n%s", want, got)
		}
	}
	for _, f := range first {
		if !slices.IsSorted(f.IDs) || strings.Contains(f.Message, "\n") {
			t.Errorf("finding %+v", f)
		}
	}
}

// filter keeps the findings involving the scope, leaving out the scene's
// one stale_bound_entry: it names at most maxStaleIDs of its carriers,
// those in scope first, so a scoped run may name carriers the full run
// left off (sameScoped checks it on its own).
func filter(fs []Finding, scope map[string]bool) []Finding {
	out := []Finding{}
	for _, f := range fs {
		if f.Code != CodeStaleBoundEntry && slices.ContainsFunc(f.IDs, func(id string) bool { return scope[id] }) {
			out = append(out, f)
		}
	}
	return out
}

// sameScoped reports where a scoped run (got) is not the full run (all)
// narrowed to the scope: the same findings involving it, and the scene's
// stale_bound_entry with the same message whenever it names a carrier in
// scope, listing carriers of which at least one is in scope.
func sameScoped(all, got []Finding, scope map[string]bool) string {
	inScope := func(id string) bool { return scope[id] }
	var rest []Finding
	var stale, wantStale *Finding
	for i, f := range got {
		if f.Code == CodeStaleBoundEntry {
			stale = &got[i]
			continue
		}
		rest = append(rest, f)
	}
	for i, f := range all {
		if f.Code == CodeStaleBoundEntry {
			wantStale = &all[i]
		}
	}
	want := filter(all, scope)
	if rest == nil {
		rest = []Finding{}
	}
	if g, w := dump(rest), dump(want); g != w {
		return "got\n" + g + "want\n" + w
	}
	switch {
	case stale == nil && wantStale != nil && slices.ContainsFunc(wantStale.IDs, inScope):
		return "no stale_bound_entry, while the full run names a carrier in scope:\n" + dump([]Finding{*wantStale})
	case stale == nil:
		return ""
	case wantStale == nil:
		return "a stale_bound_entry the full run does not have:\n" + dump([]Finding{*stale})
	case stale.Message != wantStale.Message || !slices.ContainsFunc(stale.IDs, inScope) || len(stale.IDs) > maxStaleIDs:
		return "stale_bound_entry\n got " + dump([]Finding{*stale}) + "full " + dump([]Finding{*wantStale})
	}
	return ""
}

func TestScope(t *testing.T) {
	els := messy(t)
	all := Run(els, Options{})
	for _, scope := range []map[string]bool{
		{"b": true}, {"loose": true}, {"pale": true}, {"far": true}, {"c": true, "d": true}, {"nothing": true}, {},
	} {
		if d := sameScoped(all, Run(els, Options{Scope: scope}), scope); d != "" {
			t.Errorf("scope %v: %s", slices.Sorted(maps.Keys(scope)), d)
		}
	}
	// The loose arrow's end near c is found from c's side as well.
	expect(t, Run(els, Options{Scope: map[string]bool{"c": true}}), CodeUnboundArrowEnd, "c", "loose")
}

func TestDisabled(t *testing.T) {
	els := messy(t)
	fs := Run(els, Options{Disabled: map[string]bool{"visual": true, CodeAlignmentNearMiss: true}})
	for _, f := range fs {
		if r := ruleByCode[f.Code]; r.Category == Visual || f.Code == CodeAlignmentNearMiss {
			t.Errorf("disabled rule ran: %s", f.Message)
		}
	}
}

func TestDiff(t *testing.T) {
	f := func(code string, ids ...string) Finding {
		return Finding{Code: code, Severity: Warning, IDs: ids, Message: code + " " + strings.Join(ids, ",")}
	}
	before := []Finding{f("overlap", "a", "b"), f("tiny_text", "t"), f("overlap", "a", "c")}
	after := []Finding{f("overlap", "a", "b"), f("overlap", "a", "d"), f("tiny_text", "t")}
	after[0].Message = "reworded" // identity is code + ids
	added, resolved, persisting := Diff(before, after)
	keys := func(fs []Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Key())
		}
		return out
	}
	if got := keys(added); !slices.Equal(got, []string{"overlap|a,d"}) {
		t.Errorf("added %v", got)
	}
	if got := keys(resolved); !slices.Equal(got, []string{"overlap|a,c"}) {
		t.Errorf("resolved %v", got)
	}
	if got := keys(persisting); !slices.Equal(got, []string{"overlap|a,b", "tiny_text|t"}) || persisting[0].Message != "reworded" {
		t.Errorf("persisting %v", persisting)
	}
	if a, r, p := Diff(nil, nil); a != nil || r != nil || p != nil {
		t.Error("empty diff")
	}
	// A write that fixes an overlap: Run before and after, Diff.
	els := list(rectangle("a", 0, 0, 100, 100), rectangle("b", 50, 0, 100, 100))
	pre := Run(els, Options{})
	els[1].Set("x", 300.0)
	_, resolved, _ = Diff(pre, Run(els, Options{}))
	if len(find(resolved, CodeOverlap)) != 1 {
		t.Errorf("resolved %v", resolved)
	}
}

func TestNeighbours(t *testing.T) {
	els := built(t,
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"A"}}`,
		`{"type":"rectangle","id":"b","x":400,"y":0,"width":160,"height":80,"label":{"text":"B"}}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b","label":{"text":"to"}}`,
		`{"type":"rectangle","id":"over","x":100,"y":60,"width":100,"height":100}`,
		`{"type":"rectangle","id":"away","x":3000,"y":3000,"width":100,"height":100,"label":{"text":"far"}}`,
	)
	frame := shape("frame", "f", -500, -500, 300, 300)
	kid := rectangle("kid", -450, -450, 50, 50, kv{"frameId": "f"})
	els = append(els, frame, kid)
	labelOf := func(id string) string {
		for _, e := range els {
			if c, _ := e.String("containerId"); c == id {
				s, _ := e.String("id")
				return s
			}
		}
		t.Fatalf("no label for %s", id)
		return ""
	}
	got := Neighbours(els, []string{"a"})
	for _, id := range []string{"a", labelOf("a"), "ab", labelOf("ab"), "b", labelOf("b"), "over"} {
		if !got[id] {
			t.Errorf("%s not in %v", id, slices.Sorted(maps.Keys(got)))
		}
	}
	for _, id := range []string{"away", labelOf("away"), "f", "kid"} {
		if got[id] {
			t.Errorf("%s in %v", id, slices.Sorted(maps.Keys(got)))
		}
	}
	if got := Neighbours(els, []string{"f"}); !got["kid"] {
		t.Errorf("frame children: %v", slices.Sorted(maps.Keys(got)))
	}
	// A deleted element's neighbours are still found (a delete write).
	for _, e := range els {
		if id, _ := e.String("id"); id == "over" {
			e.Set("isDeleted", true)
		}
	}
	if got := Neighbours(els, []string{"over"}); !got["a"] || !got["over"] {
		t.Errorf("deleted: %v", slices.Sorted(maps.Keys(got)))
	}
}

// A staged write: lint the touched neighbourhood before and after, Diff.
func TestStagedWrite(t *testing.T) {
	els := messy(t)
	touched := []string{"b"}
	scope := Neighbours(els, touched)
	before := Run(els, Options{Scope: scope})
	for _, e := range els {
		if id, _ := e.String("id"); id == "b" {
			e.Set("y", 300.0)
		}
	}
	for k := range Neighbours(els, touched) {
		scope[k] = true
	}
	after := Run(els, Options{Scope: scope})
	added, resolved, _ := Diff(before, after)
	if len(find(resolved, CodeOverlap)) != 1 {
		t.Errorf("the overlap with a is resolved: %s", dump(resolved))
	}
	for _, f := range added {
		if f.Code == CodeOverlap {
			t.Errorf("added %s", f.Message)
		}
	}
}

func TestRuleTable(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range Rules() {
		if !snake.MatchString(r.Code) || seen[r.Code] {
			t.Errorf("code %q", r.Code)
		}
		seen[r.Code] = true
		if r.Summary == "" || (r.Category != Structural && r.Category != Visual && r.Category != Hint) {
			t.Errorf("rule %+v", r)
		}
		if !strings.Contains(string(doc), "//\t"+r.Code+" ") {
			t.Errorf("doc.go does not list %s", r.Code)
		}
	}
	if len(Codes()) != len(Rules()) {
		t.Error("Codes and Rules disagree")
	}
	if Rules()[0].run != nil {
		t.Error("Rules leaks the rule functions")
	}
}

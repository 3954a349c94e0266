package tools

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

func TestArgumentProblemsFlattenSortAndDedupe(t *testing.T) {
	ve := &jsonschema.ValidationError{Causes: []*jsonschema.ValidationError{
		{InstanceLocation: "/b", KeywordLocation: "/properties/b/type", Message: "m2"},
		{Causes: []*jsonschema.ValidationError{
			{InstanceLocation: "/a", KeywordLocation: "/properties/a/minimum", Message: "m1"},
			{InstanceLocation: "/b", KeywordLocation: "/properties/b/type", Message: "m2"},
		}},
	}}
	got, omitted := argumentProblems(nil, nil, ve)
	if omitted != 0 {
		t.Fatalf("omitted = %d", omitted)
	}
	want := []ArgumentProblem{
		{Pointer: "/a", Keyword: "/properties/a/minimum", Message: "m1"},
		{Pointer: "/b", Keyword: "/properties/b/type", Message: "m2"},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %+v", got)
	}
}

func TestProblemSummary(t *testing.T) {
	if got := problemSummary(nil, 0); got != "arguments do not match the input schema" {
		t.Fatalf("empty = %q", got)
	}
	one := []ArgumentProblem{{Pointer: "/x", Message: "bad"}}
	if got := problemSummary(one, 1); got != "arguments do not match the input schema at /x: bad" {
		t.Fatalf("one = %q", got)
	}
	two := append(one, ArgumentProblem{Pointer: "", Message: "worse"})
	if got := problemSummary(two, 2); got != "arguments do not match the input schema at /x: bad\nand at (root): worse" {
		t.Fatalf("two = %q", got)
	}
	// Problems beyond the second are counted, including ones a cap left
	// out of the list.
	if got := problemSummary(two, 7); !strings.HasSuffix(got, "\nand at (root): worse (and 5 more)") {
		t.Fatalf("seven = %q", got)
	}
}

// The summary stays under maxSummaryBytes however long the problems are,
// cuts at rune boundaries, and keeps both lines.
func TestProblemSummaryClipsLongProblems(t *testing.T) {
	long := strings.Repeat("é", 300)
	for _, ps := range [][]ArgumentProblem{
		{{Pointer: "/" + long, Message: long}},
		{{Pointer: "/a", Message: long}, {Pointer: "/b", Message: "short"}},
		{{Pointer: "/a", Message: "short"}, {Pointer: "/b", Message: long}},
		{{Pointer: "/a", Message: long}, {Pointer: "/b", Message: long}},
	} {
		got := problemSummary(ps, 40)
		if len(got) > maxSummaryBytes || !utf8.ValidString(got) {
			t.Errorf("%d bytes, valid UTF-8 %v: %q", len(got), utf8.ValidString(got), got)
		}
		if strings.Count(got, "\n") != len(ps)-1 || !strings.HasSuffix(got, " more)") {
			t.Errorf("shape: %q", got)
		}
		if len(ps) == 2 && (!strings.Contains(got, "at /a: ") || !strings.Contains(got, "\nand at /b: ")) {
			t.Errorf("a pointer was clipped away: %q", got)
		}
	}
}

func TestValidateArgsCapsReportedProblems(t *testing.T) {
	r := NewRegistry(nil)
	var props, args []string
	for i := range maxReportedProblems + 5 {
		props = append(props, `"p`+string(rune('a'+i))+`":{"type":"integer"}`)
		args = append(args, `"p`+string(rune('a'+i))+`":"x"`)
	}
	tool := echoTool("many")
	tool.InputSchema = []byte(`{"type":"object","additionalProperties":false,"properties":{` + strings.Join(props, ",") + `}}`)
	mustRegister(t, r, tool)
	eo := errorObject(t, r.Call(t.Context(), "many", []byte(`{`+strings.Join(args, ",")+`}`)))
	if n := len(problemsOf(t, eo)); n != maxReportedProblems {
		t.Fatalf("reported %d problems, want %d", n, maxReportedProblems)
	}
	if !strings.Contains(eo["message"].(string), "(and 23 more)") {
		t.Fatalf("message = %v", eo["message"])
	}
}

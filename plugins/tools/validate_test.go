package tools

import (
	"strings"
	"testing"

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
	got := argumentProblems(ve)
	want := []ArgumentProblem{
		{Pointer: "/a", Keyword: "/properties/a/minimum", Message: "m1"},
		{Pointer: "/b", Keyword: "/properties/b/type", Message: "m2"},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %+v", got)
	}
}

func TestProblemSummary(t *testing.T) {
	if got := problemSummary(nil); got != "arguments do not match the input schema" {
		t.Fatalf("empty = %q", got)
	}
	one := []ArgumentProblem{{Pointer: "/x", Message: "bad"}}
	if got := problemSummary(one); got != "arguments do not match the input schema: at /x: bad" {
		t.Fatalf("one = %q", got)
	}
	two := append(one, ArgumentProblem{Pointer: "", Message: "worse"})
	if got := problemSummary(two); !strings.HasSuffix(got, "(and 1 more)") {
		t.Fatalf("two = %q", got)
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
	if !strings.Contains(eo["message"].(string), "(and 24 more)") {
		t.Fatalf("message = %v", eo["message"])
	}
}

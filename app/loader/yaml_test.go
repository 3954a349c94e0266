package loader

import (
	"reflect"
	"strings"
	"testing"
)

func mustDecode(t *testing.T, src string) *yamlDoc {
	t.Helper()
	doc, probs := decodeYAML([]byte(src))
	if len(probs) > 0 {
		t.Fatalf("decodeYAML: %v", probs)
	}
	return doc
}

func decodeProblems(t *testing.T, src string) []Problem {
	t.Helper()
	_, probs := decodeYAML([]byte(src))
	if len(probs) == 0 {
		t.Fatalf("decodeYAML(%q): expected problems", src)
	}
	return probs
}

func TestDecodeYAMLProducesJSONTypes(t *testing.T) {
	doc := mustDecode(t, `
s: hello
i: 42
hex: 0x10
f: 1.5
b: true
n: ~
ts: 2024-01-02T03:04:05Z
big: 18446744073709551615
list: [1, two, {three: 3}]
`)
	want := map[string]any{
		"s":    "hello",
		"i":    int64(42),
		"hex":  int64(16),
		"f":    1.5,
		"b":    true,
		"n":    nil,
		"ts":   "2024-01-02T03:04:05Z",
		"big":  float64(18446744073709551615),
		"list": []any{int64(1), "two", map[string]any{"three": int64(3)}},
	}
	if !reflect.DeepEqual(doc.value, want) {
		t.Fatalf("got  %#v\nwant %#v", doc.value, want)
	}
}

func TestDecodeYAMLRecordsLines(t *testing.T) {
	doc := mustDecode(t, "a:\n  b: 1\n  c:\n    - x\n    - y\n")
	cases := map[string]int{"/a": 2, "/a/b": 2, "/a/c": 4, "/a/c/1": 5}
	for ptr, want := range cases {
		if got := doc.lines[ptr]; got != want {
			t.Errorf("line of %s = %d, want %d", ptr, got, want)
		}
	}
}

func TestDecodeYAMLEmptyFile(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n"} {
		doc := mustDecode(t, src)
		if doc.value != nil {
			t.Errorf("%q: got %#v, want nil", src, doc.value)
		}
	}
}

func TestDecodeYAMLMergeKeys(t *testing.T) {
	doc := mustDecode(t, `
base: &base {a: 1, b: 2}
other: &other {b: 20, c: 30}
x:
  <<: [*base, *other]
  a: 10
`)
	got := doc.value.(map[string]any)["x"]
	want := map[string]any{"a": int64(10), "b": int64(2), "c": int64(30)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

func TestDecodeYAMLAliasLineIsUseSite(t *testing.T) {
	doc := mustDecode(t, "a: &x 1\nb: *x\n")
	if got := doc.lines["/b"]; got != 2 {
		t.Fatalf("line of /b = %d, want 2", got)
	}
}

func TestDecodeYAMLRejects(t *testing.T) {
	cases := []struct {
		name, src, ptr, msg string
		line                int
	}{
		{"non-string key", "a:\n  1: x\n", "/a", `mapping key "1" must be a string`, 2},
		{"bool key", "true: x\n", "", `mapping key "true" must be a string`, 1},
		{"complex key", "? [a]\n: x\n", "", "mapping keys must be strings", 1},
		{"duplicate key", "a: 1\nb: 2\na: 3\n", "/a", `duplicate key "a" (first defined on line 1)`, 3},
		{"nan", "a: .nan\n", "/a", "not a finite number", 1},
		{"inf", "a: -.inf\n", "/a", "not a finite number", 1},
		{"custom tag", "a: !env HOME\n", "/a", "unsupported YAML tag !env", 1},
		{"bad merge", "a:\n  <<: 1\n", "/a", "merge key", 2},
		{"two documents", "a: 1\n---\nb: 2\n", "", "single YAML document", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probs := decodeProblems(t, c.src)
			p := probs[0]
			if p.Pointer != c.ptr || p.Line != c.line || !strings.Contains(p.Message, c.msg) {
				t.Fatalf("got %+v, want pointer %q line %d message containing %q", p, c.ptr, c.line, c.msg)
			}
		})
	}
}

func TestDecodeYAMLSyntaxErrorHasLine(t *testing.T) {
	probs := decodeProblems(t, "a: 1\nb: [1, 2\nc: 3\n")
	p := probs[0]
	if p.Line == 0 {
		t.Fatalf("syntax problem without a line: %+v", p)
	}
	if !strings.HasPrefix(p.Message, "YAML syntax error: ") || strings.Contains(p.Message, "yaml: line") {
		t.Fatalf("unexpected message %q", p.Message)
	}
}

func TestDecodeYAMLAliasBombIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		prev := "*a" + string(rune('0'+i-1))
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(prev)
		}
		b.WriteString("]\n")
	}
	probs := decodeProblems(t, b.String())
	if !strings.Contains(probs[0].Message, "alias expansion") {
		t.Fatalf("got %+v", probs)
	}
}

package tools

import (
	"encoding/json"
	"math"
	"testing"
)

func TestCanonicalJSON(t *testing.T) {
	type inner struct {
		Z int    `json:"z"`
		A string `json:"a"`
	}
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"sorted nested keys", map[string]any{"b": 1, "a": map[string]any{"y": true, "x": nil}}, `{"a":{"x":null,"y":true},"b":1}`},
		{"struct fields sorted", inner{Z: 1, A: "q"}, `{"a":"q","z":1}`},
		{"keys inside arrays sorted", []any{map[string]any{"b": 2, "a": 1}}, `[{"a":1,"b":2}]`},
		{"no html escaping", map[string]string{"s": "<b>&</b>"}, `{"s":"<b>&</b>"}`},
		{"big integer preserved", json.RawMessage(`{"n":123456789012345678901234567890}`), `{"n":123456789012345678901234567890}`},
		{"number spelling preserved", json.RawMessage(`[1.0e+2, 0.10, -0]`), `[1.0e+2,0.10,-0]`},
		{"whitespace removed", json.RawMessage(" { \"b\" : [ 1 , 2 ] ,\n\"a\":\"x\" } "), `{"a":"x","b":[1,2]}`},
		{"control chars escaped", "a\"\\\n\r\t\b\f\x01", `"a\"\\\n\r\t\b\f\u0001"`},
		{"line separators escaped", "x\u2028y\u2029z", `"x\u2028y\u2029z"`},
		{"unicode kept", "héllo 世界 🎉", `"héllo 世界 🎉"`},
		{"bytewise key order", map[string]int{"é": 1, "z": 2, "Z": 3, "aa": 4, "a": 5}, `{"Z":3,"a":5,"aa":4,"z":2,"é":1}`},
		{"scalars", []any{nil, true, false, "s", 1.5}, `[null,true,false,"s",1.5]`},
		{"empty containers", map[string]any{"a": []any{}, "o": map[string]any{}}, `{"a":[],"o":{}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CanonicalJSON(tc.in)
			if err != nil {
				t.Fatalf("CanonicalJSON: %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestCanonicalJSONInvalidUTF8(t *testing.T) {
	got, err := CanonicalJSON("a\xffb")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "\"a\uFFFDb\"" {
		t.Fatalf("got %s", got)
	}
}

func TestCanonicalJSONErrors(t *testing.T) {
	for name, in := range map[string]any{
		"channel":    make(chan int),
		"nan":        math.NaN(),
		"bad raw":    json.RawMessage(`{"a":`),
		"bad number": json.Number("12abc"),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := CanonicalJSON(in); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
}

func TestCanonicalJSONIsIdempotent(t *testing.T) {
	first, err := CanonicalJSON(json.RawMessage(`{"b":{"d":[3,{"f":1,"e":2}],"c":"<&>"},"a":1e400}`))
	if err != nil {
		t.Fatal(err)
	}
	second, err := CanonicalJSON(json.RawMessage(first))
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != string(second) {
		t.Fatalf("not idempotent:\n%s\n%s", first, second)
	}
	if string(first) != `{"a":1e400,"b":{"c":"<&>","d":[3,{"e":2,"f":1}]}}` {
		t.Fatalf("got %s", first)
	}
}

func TestDecodeJSONRejectsTrailingData(t *testing.T) {
	if _, err := decodeJSON([]byte(`{} {}`)); err == nil {
		t.Fatal("expected trailing data error")
	}
	if _, err := decodeJSON([]byte(" {}\n")); err != nil {
		t.Fatalf("trailing whitespace must be fine: %v", err)
	}
}

func TestIsBlankJSON(t *testing.T) {
	for in, want := range map[string]bool{"": true, " \n\t\r": true, "{}": false, " null ": false} {
		if got := isBlankJSON([]byte(in)); got != want {
			t.Errorf("isBlankJSON(%q) = %v", in, got)
		}
	}
}

// FuzzCanonicalJSON checks that canonical output is valid JSON, equivalent
// to the input, and a fixed point.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,2,{"d":null,"c":"<&>"}]}`, `1e400`, `"\u2028\ud800"`, `[]`, `{"":{"":""}}`, "\"\xff\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		out, err := CanonicalJSON(json.RawMessage(in))
		if err != nil {
			t.Fatalf("CanonicalJSON(%q): %v", in, err)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid output %q for %q", out, in)
		}
		again, err := CanonicalJSON(json.RawMessage(out))
		if err != nil || string(again) != string(out) {
			t.Fatalf("not a fixed point: %q -> %q (%v)", out, again, err)
		}
	})
}

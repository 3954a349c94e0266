package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// canonicalReference is what canonicalBytes must equal: the document
// decoded into its generic form and encoded canonically.
func canonicalReference(src []byte) ([]byte, error) {
	v, err := decodeJSON(src)
	if err != nil {
		return nil, err
	}
	return encodeCanonical(v)
}

// resultReference is how results were rendered before canonicalResult:
// decoded, null made {}, "ok":true added to an object without one, and
// encoded canonically.
func resultReference(src []byte) ([]byte, bool, error) {
	v, err := decodeJSON(src)
	if err != nil {
		return nil, false, err
	}
	if v == nil {
		v = map[string]any{}
	}
	ok := true
	if obj, isObj := v.(map[string]any); isObj {
		switch flag := obj["ok"].(type) {
		case nil:
			if _, present := obj["ok"]; !present {
				obj["ok"] = true
			}
		case bool:
			ok = flag
		}
	}
	out, err := encodeCanonical(v)
	return out, ok, err
}

// checkCanonical compares canonicalBytes and canonicalResult on src with
// their references: the same bytes, or an error from both.
func checkCanonical(t *testing.T, src []byte) {
	t.Helper()
	want, werr := canonicalReference(src)
	got, gerr := canonicalBytes(src)
	if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("canonicalBytes(%q)\n got %q, %v\nwant %q, %v", src, got, gerr, want, werr)
	}
	wantR, wantOK, werr := resultReference(src)
	gotR, gotOK, gerr := canonicalResult(src)
	if (werr != nil) != (gerr != nil) || !bytes.Equal(gotR, wantR) || gotOK != wantOK {
		t.Fatalf("canonicalResult(%q)\n got %q ok=%v, %v\nwant %q ok=%v, %v", src, gotR, gotOK, gerr, wantR, wantOK, werr)
	}
}

func TestCanonicalBytesCases(t *testing.T) {
	for _, src := range []string{
		`null`, `true`, `false`, `0`, `-0.5e+10`, `1E3`, `"x"`, `[]`, `{}`, ` { } `,
		`{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"b":{"d":[{"z":1,"y":2}],"c":3},"a":[3,{"k":{"j":1,"i":2}}]}`,
		`{"a":1,"b":2,"a":3}`, `{"ok":false}`, `{"ok":true,"x":1}`, `{"ok":null}`, `{"ok":"no"}`, `{"ok":false,"ok":true}`,
		`{"z":1}`, `{"a":1}`, `{"p":1,"ok":false}`, `[{"ok":false}]`, `{"x":{"ok":false}}`,
		`"\u00e9\u0041\/\"\\\b\f\n\r\t\u0001\u001f\u007f"`, `"\u2028\u2029"`, "\"\u2028\"",
		`"\ud83c\udf89"`, `"\ud83c"`, `"\ud83cx"`, `"\udf89\ud83c"`, `"\ud83c\u0041"`, "\"a\xffb\"", "\"\xed\xa0\x80\"",
		`{"\u0062":1,"a":2}`, `{"\"":1,"!":2,"#":3}`, `{"\n":1,"\u0000":2," ":3}`, `{"é":1,"z":2,"Z":3}`,
		`{"a\u2028":1,"a":2}`,
		// Objects of one shape reuse an order; others must not.
		`[{"b":1,"a":2},{"b":3,"a":4},{"a":5,"b":6},{"b":7,"a":8,"b":9},{"b":1,"a":2,"b":3},{"b":0,"a":0}]`,
		// Invalid: both must refuse.
		``, ` `, `{`, `[1,]`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `nul`, `"abc`,
		`"\x"`, `"\u12"`, `"\u12G4"`, "\"\x01\"", `[1 2]`, `{"a":1 "b":2}`, `1 2`, `{} x`, `[`, `]`, `{"a":1}}`,
		`truex`, `[true false]`, `{1:2}`,
	} {
		checkCanonical(t, []byte(src))
	}
}

// Random documents, with random whitespace, escapes, repeated and
// unordered names, odd unicode and number spellings, come out as the
// decode-and-encode reference writes them.
func TestCanonicalBytesMatchesDecodeEncode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 5000 {
		var b strings.Builder
		randomJSON(rng, &b, 0)
		checkCanonical(t, []byte(b.String()))
	}
}

var (
	randomNumbers = []string{"0", "-0", "1", "-12", "3.25", "1e3", "1E+3", "2.5e-7", "123456789012345678901234567890", "0.10"}
	randomRunes   = []string{"a", "Z", "ok", "é", "世", "🎉", "\u2028", "\u2029", "\x7f", "\xff", "\xed\xa0\x80", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\b", "\\f", "\\r",
		"\\u0000", "\\u001f", "\\u0041", "\\u00e9", "\\u2028", "\\ud83c\\udf89", "\\ud83c", "\\udf89", "\\uFFFD", "<", "&"}
	randomSpace = []string{"", "", "", " ", "\n", "\t", " \r\n "}
)

func randomJSON(rng *rand.Rand, b *strings.Builder, depth int) {
	sp := func() { b.WriteString(randomSpace[rng.IntN(len(randomSpace))]) }
	sp()
	switch k := rng.IntN(10); {
	case depth < 5 && k < 3:
		b.WriteByte('{')
		n := rng.IntN(5)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			sp()
			randomString(rng, b)
			sp()
			b.WriteByte(':')
			randomJSON(rng, b, depth+1)
		}
		sp()
		b.WriteByte('}')
	case depth < 5 && k < 5:
		b.WriteByte('[')
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			randomJSON(rng, b, depth+1)
		}
		sp()
		b.WriteByte(']')
	case k < 7:
		randomString(rng, b)
	case k < 8:
		b.WriteString(randomNumbers[rng.IntN(len(randomNumbers))])
	default:
		b.WriteString([]string{"true", "false", "null"}[rng.IntN(3)])
	}
	sp()
}

func randomString(rng *rand.Rand, b *strings.Builder) {
	b.WriteByte('"')
	if rng.IntN(4) == 0 {
		b.WriteString([]string{"a", "b", "ok", "c"}[rng.IntN(4)]) // names that repeat
	} else {
		for range rng.IntN(4) {
			b.WriteString(randomRunes[rng.IntN(len(randomRunes))])
		}
	}
	b.WriteByte('"')
}

// Go values whose encoding has unsorted struct fields, raw messages and
// HTML-ish text render as the decode-and-encode path rendered them.
func TestCanonicalResultOfHandlerValues(t *testing.T) {
	type row struct {
		Z    string          `json:"z"`
		A    int             `json:"a"`
		Raw  json.RawMessage `json:"raw,omitempty"`
		OK   *bool           `json:"ok,omitempty"`
		Text string          `json:"text"`
	}
	no := false
	for i, v := range []any{
		row{Z: "<b>&</b>", A: 1, Raw: json.RawMessage(`{ "y" : [1, {"b":2,"a":1}], "x":"\u00e9" }`), Text: "line\nbreak\u2028"},
		row{OK: &no},
		[]row{{A: 2}, {A: 1}},
		nil,
		map[string]any{"ok": nil},
		json.RawMessage(`{"ok": true, "ok": false}`),
	} {
		raw, err := marshalNoEscape(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkCanonical(t, raw) })
	}
}

func FuzzCanonicalBytes(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,{"d":2,"c":"\u00e9"}]}`, `"\ud83c\udf89"`, `{"ok":false,"ok":1}`, "\"\xff\"", `[1e5,-0.0]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkCanonical(t, src) })
}

// BenchmarkResultEncoding renders a 1,000-element scene-sized result
// (a struct holding the document as raw JSON, as a full read does) the
// way success did before (encode, decode, encode) and the way it does
// now (encode, one canonical pass).
func BenchmarkResultEncoding(b *testing.B) {
	var doc strings.Builder
	doc.WriteString(`{"type":"excalidraw","version":2,"source":"x","elements":[`)
	for i := range 1000 {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, `{"id":"e%d","type":"rectangle","x":%d,"y":%d,"width":120,"height":60,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"roundness":{"type":3},"seed":%d,"version":1,"versionNonce":%d,"isDeleted":false,"boundElements":[{"type":"text","id":"t%d"}],"updated":1,"link":null,"locked":false}`, i, i*10, i*5, i*7919, i*104729, i)
	}
	doc.WriteString(`],"appState":{"viewBackgroundColor":"#ffffff","gridSize":null},"files":{}}`)
	type readResult struct {
		Name     string          `json:"name"`
		Revision int64           `json:"revision"`
		Scene    json.RawMessage `json:"scene"`
	}
	v := readResult{Name: "big", Revision: 3, Scene: json.RawMessage(doc.String())}
	b.Run("decode-encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raw, _ := marshalNoEscape(v)
			if _, _, err := resultReference(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raw, _ := marshalNoEscape(v)
			if _, _, err := canonicalResult(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

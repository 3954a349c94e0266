package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// referenceCanonical is RFC 8785's form of raw as go-json-experiment's
// jsontext writes it, the oracle canonical is checked against.
func referenceCanonical(raw []byte) ([]byte, bool) {
	v := jsontext.Value(bytes.Clone(raw))
	if err := v.Canonicalize(); err != nil {
		return nil, false
	}
	return v, true
}

// checkCanonical fails t unless c and the reference agree on raw: the
// same bytes, or both finding no canonical form. Tests share one c
// across their cases, so its remembered orders are used.
func checkCanonical(t *testing.T, c *canonicalizer, raw []byte) {
	t.Helper()
	got, err := c.canonical(nil, raw)
	want, ok := referenceCanonical(raw)
	switch {
	case ok && err != nil:
		t.Fatalf("%q: %v, want %s", raw, err, want)
	case !ok && err == nil:
		t.Fatalf("%q: %s, want no canonical form", raw, got)
	case ok && !bytes.Equal(got, want):
		t.Fatalf("%q:\n got %s\nwant %s", raw, got, want)
	}
}

// The canonical form is RFC 8785's, byte for byte, on the cases that
// tell its rules apart: member order by UTF-16 units, escapes, numbers
// at the edges of fixed notation, and what has no canonical form.
func TestCanonicalIsRFC8785(t *testing.T) {
	var c canonicalizer
	for _, raw := range []string{
		`{"b":1,"a":2}`,
		` { "z" : [ 1 , 2 , { "y":true,"x":null } ] , "a" : "s" } `,
		`{"\u20ac":1,"\ud83d\ude00":2,"\ue000":3,"a":4}`,
		`{"a":{},"b":[],"c":""}`,
		`"\u0000\u001f\b\f\n\r\t\"\\\/ é \u00e9 \u2028"`,
		`[0,-0,0.0,1e21,1e20,123456789012345678901,1e-6,1e-7,0.000001,1.5e-7,-1.25e+30,5e-324,1.7976931348623157e308,100,1E2,2.50]`,
		`1e400`, `-1e400`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`,
		`"\ud800"`, `"\udc00\ud800"`, "\"\xff\"", `[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `nul`, `[1 2]`, `{"a" 1}`, `{"a":1}x`, ``, `  `,
		"\"tab\there\"", `{"a":[{"b":{"d":1,"c":2}}],"A":0}`,
	} {
		checkCanonical(t, &c, []byte(raw))
	}
}

// Elements as the store writes them, with their members shuffled and
// their numbers respelled, canonicalize as the reference does.
func TestCanonicalElementsMatchReference(t *testing.T) {
	var c canonicalizer
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		members := []string{
			`"id":"el` + strconv.Itoa(i) + `"`, `"type":"rectangle"`,
			fmt.Sprintf(`"x":%v`, r.NormFloat64()*1e3), fmt.Sprintf(`"y":%g`, r.Float64()*1e-5),
			fmt.Sprintf(`"width":%d`, r.IntN(500)), `"strokeColor":"#1e1e1e"`, `"boundElements":[{"id":"a","type":"arrow"}]`,
			`"text":"line\none \"quoted\" ✓ 漢字"`, fmt.Sprintf(`"seed":%d`, r.Int32()), `"customData":{"dsh":{"kind":"table","slot":"1-2"}}`,
			fmt.Sprintf(`"angle":%v`, math.Pi*r.Float64()),
		}
		r.Shuffle(len(members), func(a, b int) { members[a], members[b] = members[b], members[a] })
		raw := "{"
		for k, m := range members {
			if k > 0 {
				raw += ", "
			}
			raw += m
		}
		checkCanonical(t, &c, []byte(raw+"}"))
		// The same members in the same order again: the remembered order.
		checkCanonical(t, &c, []byte(raw+"}"))
	}
}

// Fingerprint is the SHA-256 of the reference's canonical form, or of the
// bytes as they are when there is none: the hashes stored in journals
// before the canonicalizer was our own are the ones it computes.
func TestFingerprintUnchanged(t *testing.T) {
	for _, raw := range []string{`{"b":1,"a":[1.0,2e0]}`, `{"a":1,"a":2}`, `not json`} {
		if got, want := Fingerprint([]byte(raw)), referenceFingerprint([]byte(raw)); got != want {
			t.Fatalf("%s: %s, want %s", raw, got, want)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":2}`, `[1e21,1e-7,-0]`, `"\ud83d\ude00"`, `{"\ue000":1,"\ud83d\ude00":2}`, `{"a":{"c":1,"b":[true,false,null]}}`} {
		f.Add([]byte(s))
	}
	var c canonicalizer
	f.Fuzz(func(t *testing.T, raw []byte) { checkCanonical(t, &c, raw) })
}

func referenceFingerprint(raw []byte) string {
	v, ok := referenceCanonical(raw)
	if !ok {
		v = raw
	}
	sum := sha256.Sum256(v)
	return hex.EncodeToString(sum[:8])
}

// BenchmarkFingerprint is Fingerprint of one element as the store writes
// it (ours), beside the hash of go-json-experiment's canonical form
// (reference), the way Fingerprint computed it before.
func BenchmarkFingerprint(b *testing.B) {
	raw := []byte(`{"id":"c0x17","type":"rectangle","x":1120,"y":0,"width":120,"height":80,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"#a5d8ff","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"index":"a0H","roundness":{"type":3},"seed":1968410350,"version":1,"versionNonce":1259812305,"isDeleted":false,"boundElements":null,"updated":1764950000000,"link":null,"locked":false}`)
	b.Run("ours", func(b *testing.B) {
		for b.Loop() {
			Fingerprint(raw)
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			referenceFingerprint(raw)
		}
	})
}

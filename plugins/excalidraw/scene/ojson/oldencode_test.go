package ojson

// The encoder as it was before its rewrite for speed: FuzzEncodeSame
// checks that the new one agrees with it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/dshgo/dsh/internal/testcorpus"
)

func oldMarshal(v any, indent bool) ([]byte, error) {
	e := oldEncoder{indent: indent}
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.buf, nil
}

func sameEncode(t *testing.T, v any) {
	t.Helper()
	for _, indent := range []bool{false, true} {
		want, errWant := oldMarshal(v, indent)
		got, err := Marshal(v)
		if indent {
			got, err = MarshalIndent(v)
		}
		if !bytes.Equal(got, want) || (err == nil) != (errWant == nil) {
			t.Fatalf("encodings differ:\nnew %q %v\nold %q %v", got, err, want, errWant)
		}
	}
}

func TestEncodeSameOnCorpus(t *testing.T) {
	for _, f := range testcorpus.Files(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Decode(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		sameEncode(t, v)
	}
}

func FuzzEncodeSame(f *testing.F) {
	f.Add("plain", 1.5, []byte(`{"a":[1,{"b":"c\u0001\n"}],"é":"\u2028"}`))
	f.Add("a\x00\x1f\"\\\xff\xc3é\u2028", 1e-7, []byte(`[]`))
	f.Fuzz(func(t *testing.T, s string, x float64, data []byte) {
		sameEncode(t, s)
		sameEncode(t, x)
		sameEncode(t, []any{New().Set(s, s), map[string]any{}})
		for _, caches := range []bool{false, true} {
			if v, err := decode(data, Limits{}, caches); err == nil {
				sameEncode(t, v)
				sameEncode(t, New().Set("deep", []any{v, New().Set(s, v)}))
			}
		}
	})
}

type oldEncoder struct {
	buf    []byte
	indent bool
}

func (e *oldEncoder) newline(depth int) {
	if !e.indent {
		return
	}
	e.buf = append(e.buf, '\n')
	for range depth {
		e.buf = append(e.buf, ' ', ' ')
	}
}

func (e *oldEncoder) value(v any, depth int) error {
	switch t := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, t)
	case string:
		e.str(t)
	case json.Number:
		if t == "" {
			return fmt.Errorf("ojson: empty number")
		}
		e.buf = append(e.buf, t...)
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			// JSON.stringify writes null for these; so do we.
			e.buf = append(e.buf, "null"...)
			return nil
		}
		e.buf = appendJSFloat(e.buf, t)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(t), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, t, 10)
	case *Object:
		if t == nil {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		if len(t.keys) == 0 {
			e.buf = append(e.buf, '{', '}')
			return nil
		}
		e.buf = append(e.buf, '{')
		for i, k := range t.keys {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.newline(depth + 1)
			e.str(k)
			e.buf = append(e.buf, ':')
			if e.indent {
				e.buf = append(e.buf, ' ')
			}
			if err := e.value(t.vals[i], depth+1); err != nil {
				return err
			}
		}
		e.newline(depth)
		e.buf = append(e.buf, '}')
	case []any:
		if len(t) == 0 {
			e.buf = append(e.buf, '[', ']')
			return nil
		}
		e.buf = append(e.buf, '[')
		for i, x := range t {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.newline(depth + 1)
			if err := e.value(x, depth+1); err != nil {
				return err
			}
		}
		e.newline(depth)
		e.buf = append(e.buf, ']')
	default:
		return fmt.Errorf("ojson: cannot encode %T", v)
	}
	return nil
}

// str escapes like JSON.stringify: quote, backslash and control
// characters only (no HTML escaping).
func (e *oldEncoder) str(s string) {
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			if c < utf8.RuneSelf {
				i++
				continue
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		e.buf = append(e.buf, s[start:i]...)
		switch c {
		case '"', '\\':
			e.buf = append(e.buf, '\\', c)
		case '\n':
			e.buf = append(e.buf, '\\', 'n')
		case '\r':
			e.buf = append(e.buf, '\\', 'r')
		case '\t':
			e.buf = append(e.buf, '\\', 't')
		case '\b':
			e.buf = append(e.buf, '\\', 'b')
		case '\f':
			e.buf = append(e.buf, '\\', 'f')
		default:
			e.buf = append(e.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	e.buf = append(e.buf, s[start:]...)
	e.buf = append(e.buf, '"')
}

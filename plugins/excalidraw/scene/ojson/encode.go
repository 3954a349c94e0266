package ojson

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Marshal writes v compactly.
func Marshal(v any) ([]byte, error) {
	e := encoder{}
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// MarshalIndent writes v the way Excalidraw saves files
// (JSON.stringify(v, null, 2)): two-space indent, one member per line,
// empty containers as {} and [].
func MarshalIndent(v any) ([]byte, error) {
	e := encoder{indent: true}
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// AppendIndent is MarshalIndent into dst, for callers that know roughly
// how large the output will be (growing a multi-megabyte buffer by
// doubling costs more than writing it).
func AppendIndent(dst []byte, v any) ([]byte, error) {
	e := encoder{buf: dst, indent: true}
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.buf, nil
}

type encoder struct {
	buf    []byte
	indent bool
}

// indentation is a newline and the spaces of the deepest indent newline
// writes at once.
var indentation = "\n" + strings.Repeat(" ", 2*64)

func (e *encoder) newline(depth int) {
	if !e.indent {
		return
	}
	if n := 1 + 2*depth; n <= len(indentation) {
		e.buf = append(e.buf, indentation[:n]...)
		return
	}
	e.buf = append(e.buf, '\n')
	for range depth {
		e.buf = append(e.buf, ' ', ' ')
	}
}

func (e *encoder) value(v any, depth int) error {
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

// appendJSFloat formats like JavaScript's Number#toString for the values
// drawings hold: integers without a fraction, others in shortest form.
func appendJSFloat(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	// JavaScript writes exponents without padding: 1e-7, 1e+21.
	start := len(b)
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	for i := start; i < len(b)-2; i++ {
		if b[i] == 'e' && b[i+2] == '0' && len(b)-(i+2) > 1 {
			return append(b[:i+2], b[i+3:]...)
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// plain marks the bytes str copies as they are: all but quote, backslash
// and control characters (bytes of multi-byte characters included).
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str escapes like JSON.stringify: quote, backslash and control
// characters only (no HTML escaping).
func (e *encoder) str(s string) {
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if plain[c] {
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
		start = i + 1
	}
	e.buf = append(e.buf, s[start:]...)
	e.buf = append(e.buf, '"')
}

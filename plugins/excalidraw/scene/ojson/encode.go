package ojson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Marshal writes v compactly.
func Marshal(v any) ([]byte, error) {
	return appendValue(nil, v, 0, false)
}

// MarshalIndent writes v the way Excalidraw saves files
// (JSON.stringify(v, null, 2)): two-space indent, one member per line,
// empty containers as {} and [].
func MarshalIndent(v any) ([]byte, error) {
	return appendValue(nil, v, 0, true)
}

// AppendIndent is MarshalIndent into dst, for callers that know roughly
// how large the output will be (growing a multi-megabyte buffer by
// doubling costs more than writing it).
func AppendIndent(dst []byte, v any) ([]byte, error) {
	return appendValue(dst, v, 0, true)
}

// AppendIndentAt is AppendIndent for a value nested depth levels deep in
// an indented document: its members are indented by depth+1 levels and
// its closing bracket by depth, so that a caller writing a document's
// outer levels itself can write the values inside them here.
func AppendIndentAt(dst []byte, v any, depth int) ([]byte, error) {
	return appendValue(dst, v, depth, true)
}

// The encoder appends to a slice held in local variables, not in a
// struct on the heap: a store to a heap field costs a write barrier
// while the collector runs, and writing a large scene makes it run.

var errEmptyNumber = errors.New("ojson: empty number")

// appendValue appends v at the given depth; on error the bytes are
// dropped.
func appendValue(b []byte, v any, depth int, indent bool) ([]byte, error) {
	switch t := v.(type) {
	case string:
		return appendString(b, t), nil
	case json.Number:
		if t == "" {
			return nil, errEmptyNumber
		}
		return append(b, t...), nil
	case *Object:
		return appendObject(b, t, depth, indent)
	case []any:
		return appendArray(b, t, depth, indent)
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			// JavaScript's JSON.stringify writes null for these; so do we.
			return append(b, "null"...), nil
		}
		return appendJSFloat(b, t), nil
	case int:
		return strconv.AppendInt(b, int64(t), 10), nil
	case int64:
		return strconv.AppendInt(b, t, 10), nil
	}
	return nil, fmt.Errorf("ojson: cannot encode %T", v)
}

func appendObject(b []byte, o *Object, depth int, indent bool) ([]byte, error) {
	if o == nil {
		return append(b, "null"...), nil
	}
	if len(o.keys) == 0 {
		return append(b, '{', '}'), nil
	}
	b = append(b, '{')
	var quoted []string // the keys written already, when the list has them
	if o.list != nil {
		quoted = o.list.quoted
	}
	var err error
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		switch {
		case quoted != nil && indent:
			b = newline(b, depth+1)
			b = append(b, quoted[i]...)
		case quoted != nil:
			b = append(b, quoted[i][:len(quoted[i])-1]...)
		case indent:
			b = newline(b, depth+1)
			b = appendString(b, k)
			b = append(b, ':', ' ')
		default:
			b = appendString(b, k)
			b = append(b, ':')
		}
		switch v := o.vals[i].(type) {
		case string: // the common cases without a call
			b = appendString(b, v)
		case json.Number:
			if v == "" {
				return nil, errEmptyNumber
			}
			b = append(b, v...)
		default:
			if b, err = appendValue(b, v, depth+1, indent); err != nil {
				return nil, err
			}
		}
	}
	if indent {
		b = newline(b, depth)
	}
	return append(b, '}'), nil
}

func appendArray(b []byte, a []any, depth int, indent bool) ([]byte, error) {
	if len(a) == 0 {
		return append(b, '[', ']'), nil
	}
	b = append(b, '[')
	var err error
	for i, x := range a {
		if i > 0 {
			b = append(b, ',')
		}
		if indent {
			b = newline(b, depth+1)
		}
		if b, err = appendValue(b, x, depth+1, indent); err != nil {
			return nil, err
		}
	}
	if indent {
		b = newline(b, depth)
	}
	return append(b, ']'), nil
}

// indentation is a newline and the spaces of the deepest indent newline
// writes at once.
var indentation = "\n" + strings.Repeat(" ", 2*64)

// newline starts a line indented for depth.
func newline(b []byte, depth int) []byte {
	if n := 1 + 2*depth; n <= len(indentation) {
		return append(b, indentation[:n]...)
	}
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
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

// plain marks the bytes appendString copies as they are: all but quote,
// backslash and control characters (bytes of multi-byte characters
// included).
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// special8 is not zero when one of the eight bytes of x is not plain
// (a quote, a backslash, a control character): its lowest set bit is the
// high bit of the first such byte (bytes after it may be flagged too).
func special8(x uint64) uint64 {
	return ((x - ' '*lsb) | ((x ^ '"'*lsb) - lsb) | ((x ^ '\\'*lsb) - lsb)) &^ x & msb
}

// load8 reads eight bytes of s from i, little-endian.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// AppendString appends s quoted as JSON.stringify quotes it, which is
// also RFC 8785's form of a string: quote, backslash and control
// characters escaped, nothing else (no HTML escaping).
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// appendString escapes like JSON.stringify: quote, backslash and control
// characters only (no HTML escaping).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if special8(load8(s, i)) != 0 {
			break
		}
	}
	if i < len(s) && i+8 > len(s) && i >= 8 && special8(load8(s, len(s)-8)) == 0 {
		// no word flagged: the tail is the last eight bytes' end
		i = len(s)
	}
	for ; i < len(s) && plain[s[i]]; i++ {
	}
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for ; i < len(s); i++ {
		c := s[i]
		if plain[c] {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

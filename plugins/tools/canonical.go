package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"
)

// CanonicalJSON renders v as canonical JSON: object keys sorted bytewise
// (recursively), no insignificant whitespace, no HTML escaping (<, > and &
// stay literal, so text shown to a model is not mangled) and numbers kept
// exactly as they were written, so large integers and decimals survive
// unchanged.
//
// v is first marshalled with encoding/json, so struct tags and Marshaler
// implementations apply; a json.RawMessage is taken as already-encoded JSON
// and only re-ordered.
func CanonicalJSON(v any) ([]byte, error) {
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	return canonicalBytes(raw)
}

// canonicalize marshals v, decodes it into its generic form (map[string]any,
// []any, string, json.Number, bool, nil) and writes the marshalled bytes
// canonically.
// The decoded form is returned too because callers usually need both.
func canonicalize(v any) (any, []byte, error) {
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, nil, err
	}
	decoded, err := decodeJSON(raw)
	if err != nil {
		return nil, nil, err
	}
	out, err := canonicalBytes(raw)
	if err != nil {
		return nil, nil, err
	}
	return decoded, out, nil
}

// marshalNoEscape is json.Marshal without HTML escaping.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// errTrailingData reports a JSON document followed by more than whitespace.
var errTrailingData = errors.New("unexpected data after top-level JSON value")

// decodeJSON decodes exactly one JSON value, keeping numbers as json.Number.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailingData
	}
	return v, nil
}

// encodeCanonical writes a generic decoded value canonically.
func encodeCanonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := appendCanonical(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func appendCanonical(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		if !json.Valid([]byte(x)) {
			return fmt.Errorf("invalid number literal %q", string(x))
		}
		buf.WriteString(string(x))
	case string:
		appendString(buf, x)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := appendCanonical(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			appendString(buf, k)
			buf.WriteByte(':')
			if err := appendCanonical(buf, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("unsupported decoded JSON type %T", v)
	}
	return nil
}

const hexDigits = "0123456789abcdef"

// appendString quotes s using the shortest JSON escapes. Unlike
// encoding/json's default it leaves <, > and & alone; like it, it escapes
// U+2028/U+2029 (they break JavaScript string literals) and replaces
// invalid UTF-8 with U+FFFD.
func appendString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case '\n':
				buf.WriteString(`\n`)
			case '\r':
				buf.WriteString(`\r`)
			case '\t':
				buf.WriteString(`\t`)
			case '\b':
				buf.WriteString(`\b`)
			case '\f':
				buf.WriteString(`\f`)
			default:
				buf.WriteString(`\u00`)
				buf.WriteByte(hexDigits[c>>4])
				buf.WriteByte(hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf.WriteString(s[start:i])
			buf.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			buf.WriteString(s[start:i])
			buf.WriteString(`\u202`)
			buf.WriteByte(hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
}

// isBlankJSON reports whether raw carries no JSON value at all, which the
// registry treats as an empty argument object.
func isBlankJSON(raw []byte) bool {
	return len(bytes.Trim(raw, " \t\r\n")) == 0
}

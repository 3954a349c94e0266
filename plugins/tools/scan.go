package tools

import (
	"bytes"
	"encoding/json"
)

// countAt reports how many items the array, or members the object, at path
// holds in the JSON document raw, and whether path leads to one at all.
// path is a parsed JSON pointer that descends through object members only
// ("/elements" is []string{"elements"}).
//
// It is a skip-scan, not a parser: it matches brackets and strings and
// steps over everything else without decoding it, so it costs one pass over
// the bytes and allocates nothing (except to unescape a member name that
// uses escapes, which it does so that "\u0065lements" is still "elements").
// A member that occurs more than once is counted at each occurrence and the
// largest count wins. Literals are not checked: on a document that is not
// JSON the answer may be wrong, and found is false wherever the structure
// itself is broken; the decoder that runs next reports what is wrong.
func countAt(raw []byte, path []string) (n int64, found bool) {
	s := skipScanner{b: raw}
	n, found, ok := s.find(path)
	if !ok {
		return 0, false
	}
	return n, found
}

// skipScanner walks JSON bytes by position. Every method leaves i after
// what it consumed and reports ok=false when the bytes cannot be JSON.
type skipScanner struct {
	b []byte
	i int
}

func (s *skipScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace.
func (s *skipScanner) peek() (byte, bool) {
	s.space()
	if s.i >= len(s.b) {
		return 0, false
	}
	return s.b[s.i], true
}

// expect consumes c (after whitespace).
func (s *skipScanner) expect(c byte) bool {
	if b, ok := s.peek(); !ok || b != c {
		return false
	}
	s.i++
	return true
}

// str consumes a string starting at the current '"' and returns it with
// its quotes, and whether it holds a backslash escape.
func (s *skipScanner) str() (raw []byte, escaped, ok bool) {
	start := s.i
	s.i++ // the opening quote
	for {
		j := bytes.IndexAny(s.b[s.i:], "\"\\")
		if j < 0 {
			s.i = len(s.b)
			return nil, false, false
		}
		s.i += j
		if s.b[s.i] == '"' {
			s.i++
			return s.b[start:s.i], escaped, true
		}
		escaped = true
		s.i += 2 // the backslash and the byte it escapes
		if s.i > len(s.b) {
			s.i = len(s.b)
			return nil, false, false
		}
	}
}

// scalar consumes a number or literal: everything up to a delimiter.
func (s *skipScanner) scalar() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', ':', ']', '}', '[', '{', '"', ' ', '\t', '\r', '\n':
			return
		}
		s.i++
	}
}

// skip consumes one value of any size. It is iterative, so nesting depth
// costs no stack; brackets are counted, not matched by kind.
func (s *skipScanner) skip() bool {
	depth := 0
	for {
		c, ok := s.peek()
		if !ok {
			return false
		}
		switch c {
		case '"':
			if _, _, ok := s.str(); !ok {
				return false
			}
		case '{', '[':
			depth++
			s.i++
			continue
		case '}', ']':
			if depth == 0 {
				return false
			}
			depth--
			s.i++
		case ',', ':':
			if depth == 0 {
				return false
			}
			s.i++
			continue
		default:
			s.scalar()
		}
		if depth == 0 {
			return true
		}
	}
}

// find consumes one value, looking for path inside it.
func (s *skipScanner) find(path []string) (n int64, found, ok bool) {
	c, ok := s.peek()
	if !ok {
		return 0, false, false
	}
	if len(path) == 0 {
		return s.count(c)
	}
	if c != '{' {
		return 0, false, s.skip()
	}
	s.i++
	if c, ok := s.peek(); ok && c == '}' {
		s.i++
		return 0, false, true
	}
	for {
		if c, ok := s.peek(); !ok || c != '"' {
			return 0, false, false
		}
		key, escaped, ok := s.str()
		if !ok || !s.expect(':') {
			return 0, false, false
		}
		if keyIs(key, escaped, path[0]) {
			m, f, ok := s.find(path[1:])
			if !ok {
				return 0, false, false
			}
			if f {
				found, n = true, max(n, m)
			}
		} else if !s.skip() {
			return 0, false, false
		}
		switch c, _ := s.peek(); c {
		case ',':
			s.i++
		case '}':
			s.i++
			return n, found, true
		default:
			return 0, false, false
		}
	}
}

// count consumes the value that starts with c and counts its items (an
// array) or members (an object); any other value is consumed and not
// found.
func (s *skipScanner) count(c byte) (n int64, found, ok bool) {
	var closer byte
	switch c {
	case '[':
		closer = ']'
	case '{':
		closer = '}'
	default:
		return 0, false, s.skip()
	}
	s.i++
	if c, ok := s.peek(); ok && c == closer {
		s.i++
		return 0, true, true
	}
	for {
		if closer == '}' {
			if c, ok := s.peek(); !ok || c != '"' {
				return 0, false, false
			}
			if _, _, ok := s.str(); !ok || !s.expect(':') {
				return 0, false, false
			}
		}
		if !s.skip() {
			return 0, false, false
		}
		n++
		switch c, _ := s.peek(); c {
		case ',':
			s.i++
		case closer:
			s.i++
			return n, true, true
		default:
			return 0, false, false
		}
	}
}

// keyIs reports whether the quoted member name raw is name.
func keyIs(raw []byte, escaped bool, name string) bool {
	if !escaped {
		return string(raw[1:len(raw)-1]) == name
	}
	var k string
	if err := json.Unmarshal(raw, &k); err != nil {
		return false
	}
	return k == name
}

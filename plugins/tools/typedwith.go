package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// TypedWith is [Typed] for a tool whose arguments are members several
// tools share (Common: a write's options, say) and members of its own
// (In): each member of the arguments goes to the one of the two types
// that has a field for it (Common first), and each is decoded as Typed
// decodes, strictly, a failure pointing at the member. A member neither
// has is In's unknown property. So one Go type serves every tool that
// shares Common, without a struct per tool embedding both.
func TypedWith[Common, In, Out any](fn func(ctx context.Context, c Common, in In) (Out, error)) Handler {
	if fn == nil {
		return nil
	}
	ct, it := reflect.TypeFor[Common](), reflect.TypeFor[In]()
	common := jsonMembers(ct)
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		cArgs, inArgs, err := splitMembers(args, common)
		if err != nil {
			return nil, explainDecode(it, args, err)
		}
		var c Common
		if err := decodeInto(cArgs, &c); err != nil {
			return nil, explainDecode(ct, cArgs, err)
		}
		var in In
		if err := decodeInto(inArgs, &in); err != nil {
			return nil, explainDecode(it, inArgs, err)
		}
		out, err := fn(ctx, c, in)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// splitMembers cuts a JSON object in two: the members named in common
// (as encoding/json matches names: case aside) and the others, each an
// object of the members' bytes as they were (no decoding: a big value is
// copied once, not parsed again).
func splitMembers(args json.RawMessage, common map[string]bool) (json.RawMessage, json.RawMessage, error) {
	if isBlankJSON(args) {
		return json.RawMessage("{}"), json.RawMessage("{}"), nil
	}
	spans, err := objectMembers(args)
	if err != nil {
		return nil, nil, err
	}
	mine, rest := []byte{'{'}, make([]byte, 0, len(args))
	rest = append(rest, '{')
	for _, m := range spans {
		to := &rest
		if common[strings.ToLower(m.name)] {
			to = &mine
		}
		if len(*to) > 1 {
			*to = append(*to, ',')
		}
		*to = append(*to, args[m.start:m.end]...)
	}
	return append(mine, '}'), append(rest, '}'), nil
}

// span is one member of a JSON object: its name, and where it stands
// (from its name's opening quote to the end of its value).
type span struct {
	name       string
	start, end int
}

// objectMembers finds the members of the JSON object b, without
// decoding their values.
func objectMembers(b []byte) ([]span, error) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, errors.New("the arguments are not a JSON object")
	}
	var out []span
	for i = skipSpace(b, i+1); i < len(b) && b[i] != '}'; {
		start := i
		keyEnd, err := skipValue(b, i)
		if err != nil || b[i] != '"' {
			return nil, errors.New("the arguments are not a JSON object")
		}
		var name string
		if err := json.Unmarshal(b[i:keyEnd], &name); err != nil {
			return nil, err
		}
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return nil, errors.New("the arguments are not a JSON object")
		}
		end, err := skipValue(b, skipSpace(b, i+1))
		if err != nil {
			return nil, err
		}
		out = append(out, span{name: name, start: start, end: end})
		if i = skipSpace(b, end); i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return out, nil
}

// skipSpace is the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the index just past the JSON value starting at i. It
// checks only what it must to find the end (strings, and brackets that
// close what they opened): the registry has validated the arguments.
func skipValue(b []byte, i int) (int, error) {
	var open []byte // the closers the value's containers wait for
	for j := i; j < len(b); j++ {
		switch c := b[j]; c {
		case '"':
			for j++; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			if j >= len(b) {
				return 0, errors.New("the arguments end in a string")
			}
			if len(open) == 0 {
				return j + 1, nil
			}
		case '{', '[':
			open = append(open, c+2) // '}' and ']' are two past their openers
		case '}', ']':
			if len(open) == 0 {
				return j, nil // a bare value ends where its container does
			}
			if open[len(open)-1] != c {
				return 0, errors.New("the arguments' brackets do not match")
			}
			if open = open[:len(open)-1]; len(open) == 0 {
				return j + 1, nil
			}
		case ',', ' ', '\t', '\n', '\r':
			if len(open) == 0 {
				return j, nil
			}
		}
	}
	if len(open) != 0 {
		return 0, errors.New("the arguments end early")
	}
	return len(b), nil
}

// jsonMembers are the member names a struct type decodes (its fields'
// JSON names, those of embedded structs included), lower-cased.
func jsonMembers(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return out
	}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case f.Anonymous && name == "":
			for k := range jsonMembers(f.Type) {
				out[k] = true
			}
			continue
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		out[strings.ToLower(name)] = true
	}
	return out
}

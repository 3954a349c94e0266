package scene

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// RawElement is one element of a scene document as its bytes in the file:
// what the journal compares and keeps, without building the element.
type RawElement struct {
	ID      string
	Deleted bool
	Version int64
	// Raw is the element's JSON, a slice of the document's bytes.
	Raw []byte
}

// RawMember is a top-level member of a scene document other than its
// elements (appState, files, …) as its bytes in the file.
type RawMember struct {
	Name string
	Raw  []byte
}

// Split is a scene document cut into its elements and its other members.
type Split struct {
	Elements []RawElement
	Members  []RawMember
	// Base and From are set by MarshalSplit of a forked document: element
	// i was written as the bytes of Base.Elements[From[i]] (the sealed
	// document's), or encoded anew where From[i] is -1.
	Base *Split
	From []int
}

// size is about the length of the document sp was cut from: its
// elements' and members' bytes and the separators between them.
func (sp *Split) size() int {
	n := 0
	for _, e := range sp.Elements {
		n += len(e.Raw) + 6 // ",\n    "
	}
	for _, m := range sp.Members {
		n += len(m.Raw) + 4
	}
	return n
}

// SplitElements is Split's elements.
func SplitElements(data []byte) ([]RawElement, error) {
	sp, err := SplitDocument(data)
	if err != nil {
		return nil, err
	}
	return sp.Elements, nil
}

// SplitDocument cuts a scene document into its elements, in order, each
// with its id, version and isDeleted read from its top-level members and
// its bytes, and its other top-level members, without decoding anything
// into trees. It reads any well-formed JSON document and is for bytes the
// store already accepted; an element that is not an object, or a
// document that is not one, is an error.
func SplitDocument(data []byte) (*Split, error) {
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	dec := jsontext.NewDecoder(bytes.NewReader(data), opts...)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, errors.New("scene: document is not an object")
	}
	sp := &Split{}
	var out []RawElement
	inner := jsontext.NewDecoder(bytes.NewReader(nil), opts...)
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // before PeekKind, which voids tok
		if name != "elements" || dec.PeekKind() != '[' {
			start := dec.InputOffset()
			if err := dec.SkipValue(); err != nil {
				return nil, err
			}
			sp.Members = append(sp.Members, RawMember{Name: name, Raw: bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n:")})
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		out = out[:0]
		for dec.PeekKind() != ']' {
			start := dec.InputOffset()
			if _, err := dec.ReadValue(); err != nil {
				return nil, err
			}
			raw := bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,")
			el, err := rawElement(inner, raw)
			if err != nil {
				return nil, fmt.Errorf("scene: element %d: %w", len(out), err)
			}
			out = append(out, el)
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		sp.Elements = out
	}
	return sp, nil
}

// rawElement reads the members SplitElements reports from one element.
func rawElement(dec *jsontext.Decoder, raw []byte) (RawElement, error) {
	el := RawElement{Raw: raw}
	dec.Reset(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return el, errors.New("not an object")
	}
	for found := 0; found < 3 && dec.PeekKind() != '}'; {
		tok, err := dec.ReadToken()
		if err != nil {
			return el, err
		}
		name := tok.String() // before PeekKind, which voids tok
		switch k := dec.PeekKind(); {
		case name == "id" && k == '"':
			tok, _ := dec.ReadToken()
			el.ID, found = tok.String(), found+1
		case name == "isDeleted" && (k == 't' || k == 'f'):
			tok, _ := dec.ReadToken()
			el.Deleted, found = tok.Bool(), found+1
		case name == "version" && k == '0':
			tok, _ := dec.ReadToken()
			el.Version, found = int64(tok.Float()), found+1
		default:
			if err := dec.SkipValue(); err != nil {
				return el, err
			}
		}
	}
	return el, nil
}

package scene

import (
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Marshal writes the document as Excalidraw saves it (JSON.stringify with
// a two-space indent, no trailing newline). Document-level members keep
// the order they were read in, unknown ones included; the version is
// [Version] whatever was read (a document read without one gets it right
// after type, where Excalidraw writes it); appState is reduced to the
// three members the contract round-trips; elements are written as they
// are, every unknown field in place. A document read without elements or
// appState gets them appended; files is written when it was read or is
// not empty.
//
// An element a forked document shares with the sealed document it was
// forked from is not encoded again: its bytes are those the sealed one
// was written with (see [Document.Seal]).
func (d *Document) Marshal() ([]byte, error) {
	b, _, err := d.marshal(false)
	return b, err
}

// MarshalSplit is Marshal that also returns the output cut as
// [SplitDocument] cuts it (the slices are of the output), without reading
// it again. The split is nil when an element is not an object.
func (d *Document) MarshalSplit() ([]byte, *Split, error) {
	return d.marshal(true)
}

// member is one document-level member as Marshal writes it.
type member struct {
	key string
	val any // unused for elements
}

// members lists the document-level members in the order Marshal writes
// them, with the values it writes.
func (d *Document) outMembers() []member {
	out := make([]member, 0, d.members.Len()+4)
	has := func(k string) bool {
		for _, m := range out {
			if m.key == k {
				return true
			}
		}
		return false
	}
	for _, k := range d.members.Keys() {
		switch k {
		case keyType:
			out = append(out, member{k, mustGet(d.members, k)})
			if !d.members.Has(keyVersion) {
				out = append(out, member{keyVersion, versionValue})
			}
		case keyVersion:
			if !has(keyVersion) {
				out = append(out, member{k, versionValue})
			}
		case keyElements:
			out = append(out, member{key: k})
		case keyAppState:
			out = append(out, member{k, exportAppState(d.appState)})
		case keyFiles:
			out = append(out, member{k, d.filesValue()})
		default:
			out = append(out, member{k, mustGet(d.members, k)})
		}
	}
	if !has(keyVersion) {
		out = append(out, member{keyVersion, versionValue})
	}
	if !has(keyElements) {
		out = append(out, member{key: keyElements})
	}
	if !has(keyAppState) {
		out = append(out, member{keyAppState, exportAppState(d.appState)})
	}
	if !has(keyFiles) && d.files != nil && d.files.Len() > 0 {
		out = append(out, member{keyFiles, d.files})
	}
	return out
}

// span is a range of the output, kept as offsets while it grows.
type span struct{ from, to int }

func (d *Document) marshal(split bool) ([]byte, *Split, error) {
	members := d.outMembers()
	buf := make([]byte, 0, d.sizeHint())
	var memberSpans, elementSpans []span
	var from []int
	var err error
	buf = append(buf, '{')
	for i, m := range members {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n  "...)
		if buf, err = ojson.AppendIndentAt(buf, m.key, 0); err != nil {
			return nil, nil, err
		}
		buf = append(buf, ": "...)
		start := len(buf)
		if m.key == keyElements {
			if buf, elementSpans, from, err = d.appendElements(buf); err != nil {
				return nil, nil, err
			}
			continue
		}
		if buf, err = ojson.AppendIndentAt(buf, m.val, 1); err != nil {
			return nil, nil, err
		}
		memberSpans = append(memberSpans, span{start, len(buf)})
	}
	buf = append(buf, "\n}"...)
	if !split {
		return buf, nil, nil
	}
	sp := d.splitOf(buf, members, memberSpans, elementSpans, from)
	if sp != nil && d.enc != nil && slices.ContainsFunc(from, func(j int) bool { return j >= 0 }) {
		sp.Base, sp.From = d.enc.split, from
	}
	return buf, sp, nil
}

// appendElements writes the elements array at depth 1 and returns where
// each element's bytes are.
func (d *Document) appendElements(buf []byte) ([]byte, []span, []int, error) {
	if len(d.elements) == 0 {
		return append(buf, '[', ']'), nil, nil, nil
	}
	spans := make([]span, len(d.elements))
	from := make([]int, len(d.elements))
	reuse := d.enc.lookup()
	var err error
	buf = append(buf, '[')
	for i, el := range d.elements {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n    "...)
		start := len(buf)
		raw, j := reuse(i, el)
		if j >= 0 {
			buf = append(buf, raw...)
		} else if buf, err = ojson.AppendIndentAt(buf, el, 2); err != nil {
			return nil, nil, nil, err
		}
		spans[i], from[i] = span{start, len(buf)}, j
	}
	return append(buf, "\n  ]"...), spans, from, nil
}

// splitOf builds the Split of the bytes marshal wrote.
func (d *Document) splitOf(buf []byte, members []member, memberSpans, elementSpans []span, from []int) *Split {
	sp := &Split{}
	if len(d.elements) > 0 {
		sp.Elements = make([]RawElement, len(d.elements))
	}
	var base []RawElement
	if d.enc != nil {
		base = d.enc.split.Elements
	}
	for i, el := range d.elements {
		if el == nil {
			return nil
		}
		raw := buf[elementSpans[i].from:elementSpans[i].to:elementSpans[i].to]
		if j := from[i]; j >= 0 && j < len(base) { // the same bytes: the same id, version, deletion
			sp.Elements[i] = base[j]
			sp.Elements[i].Raw = raw
			continue
		}
		sp.Elements[i] = RawElement{ID: elementID(el), Deleted: IsDeleted(el), Version: rawVersion(el), Raw: raw}
	}
	k := 0
	for _, m := range members {
		if m.key == keyElements {
			continue
		}
		s := memberSpans[k]
		k++
		sp.Members = append(sp.Members, RawMember{Name: m.key, Raw: buf[s.from:s.to:s.to]})
	}
	return sp
}

// rawVersion is an element's version as SplitDocument reads it: a
// number member's value truncated to an integer, else 0.
func rawVersion(el *ojson.Object) int64 {
	f, ok := el.Number("version")
	if !ok {
		return 0
	}
	return int64(f)
}

// sizeHint guesses the encoded size: what was read, or a typical element
// size times the count, so the output buffer rarely has to grow (and is
// not much larger than needed: it is zeroed when allocated). A fork of a
// sealed document writes its shared elements as the bytes they had, so
// its guess is the sealed size and room for the elements it changed.
func (d *Document) sizeHint() int {
	if d.enc != nil && d.readBytes > 0 {
		changed := 0
		for _, el := range d.elements {
			if el == nil || !el.Frozen() {
				changed++
			}
		}
		return d.readBytes + 2048*changed + 4096
	}
	if d.readBytes > 0 {
		return max(d.readBytes+d.readBytes/8, 512*len(d.elements)) + 4096
	}
	return 1024*len(d.elements) + 4096
}

func (d *Document) filesValue() *ojson.Object {
	if d.files == nil {
		return ojson.New()
	}
	return d.files
}

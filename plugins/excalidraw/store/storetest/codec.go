package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// Codec is a codec for the suite's documents ({"elements":[...]}: the
// element count), for backends that need one. It has no Differ, so a
// backend's journal records its commits without their elements.
type Codec struct{}

// Inspect counts the elements.
func (Codec) Inspect(data []byte) (int, error) {
	var d struct {
		Elements *[]json.RawMessage `json:"elements"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return 0, err
	}
	if d.Elements == nil {
		return 0, errors.New(`missing "elements"`)
	}
	return len(*d.Elements), nil
}

// DiffCodec is Codec with a store.Differ over the same documents: each
// element is told by its "id", deleted when its "isDeleted" is true,
// moved when only its "x" or "y" changed; an element that left the
// document counts as deleted. It is what the suite's journal checks
// (created, updated, before-images) run with.
type DiffCodec struct{ Codec }

var _ store.Differ = DiffCodec{}

// element is one element of a document, its bytes as they are there.
type element struct {
	id      string
	raw     json.RawMessage
	deleted bool
}

// parse splits a document into its other members and its elements.
func parse(data []byte) (map[string]json.RawMessage, []element, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return nil, nil, err
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(members["elements"], &raws); err != nil {
		return nil, nil, err
	}
	delete(members, "elements")
	els := make([]element, 0, len(raws))
	for _, raw := range raws {
		var head struct {
			ID        string `json:"id"`
			IsDeleted bool   `json:"isDeleted"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, nil, err
		}
		els = append(els, element{id: head.ID, raw: raw, deleted: head.IsDeleted})
	}
	return members, els, nil
}

// Diff compares two of the suite's documents element by element (before
// is nil for a new scene).
func (DiffCodec) Diff(before, after []byte) (journal.Changes, error) {
	var c journal.Changes
	var wasMembers map[string]json.RawMessage
	var was []element
	if before != nil {
		var err error
		if wasMembers, was, err = parse(before); err != nil {
			return c, err
		}
	}
	nowMembers, now, err := parse(after)
	if err != nil {
		return c, err
	}
	if before != nil {
		for _, k := range slices.Sorted(maps.Keys(joinKeys(wasMembers, nowMembers))) {
			if !bytes.Equal(wasMembers[k], nowMembers[k]) {
				c.Members = append(c.Members, k)
			}
		}
	}
	old := map[string]*element{}
	for i := range was {
		if old[was[i].id] == nil {
			old[was[i].id] = &was[i]
		}
	}
	seen := map[string]bool{}
	for _, el := range now {
		if seen[el.id] {
			continue
		}
		seen[el.id] = true
		o := old[el.id]
		var before []byte
		if o != nil {
			before = o.raw
		}
		ch := journal.Classify(o != nil, o != nil && o.deleted, el.deleted, o != nil && bytes.Equal(o.raw, el.raw))
		if ch == journal.ElementUpdated && onlyMoved(o.raw, el.raw) {
			ch = journal.ElementMoved
		}
		c.Add(ch, el.id, before, journal.State{ID: el.id, Deleted: el.deleted, Hash: journal.Fingerprint(el.raw)})
	}
	for _, o := range was {
		if seen[o.id] || o.deleted {
			continue
		}
		seen[o.id] = true
		c.Add(journal.ElementDeleted, o.id, o.raw, journal.State{ID: o.id, Absent: true})
	}
	return c, nil
}

func joinKeys(a, b map[string]json.RawMessage) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// onlyMoved reports whether two versions of an element differ only in x
// and y.
func onlyMoved(a, b json.RawMessage) bool {
	var ma, mb map[string]json.RawMessage
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return false
	}
	for _, k := range []string{"x", "y"} {
		delete(ma, k)
		delete(mb, k)
	}
	return maps.EqualFunc(ma, mb, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}

// Doc is a document of n elements whose content depends on tag.
func Doc(n int, tag string) []byte {
	els := make([]string, n)
	for i := range n {
		els[i] = El(fmt.Sprintf("e%d", i), i*10, tag)
	}
	return DocOf(els...)
}

// El is one element of a document: a rectangle with id at x, tagged.
func El(id string, x int, tag string) string {
	return fmt.Sprintf(`{"id":%q,"type":"rectangle","x":%d,"tag":%q}`, id, x, tag)
}

// DocOf is a document of the given elements (El's, or any JSON objects).
func DocOf(elements ...string) []byte {
	return []byte(`{"type":"excalidraw","version":2,"elements":[` + strings.Join(elements, ",") + "]}\n")
}

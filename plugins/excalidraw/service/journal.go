package service

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// storeCodec is the codec the store gets: scene.Codec to inspect what it
// writes and reads back, and Diff for the journal.
//
// The store inspects every document twice per write: before taking the
// lock (is it a scene at all?) and after the read-back (does the file
// hold that many elements?). For bytes this service has just produced
// and validated (finish: Normalize, Validate, Encode), both are already
// answered, so the service vouches for them and Inspect answers from the
// cache: found only by comparing the bytes themselves, so a vouched
// answer is never given for other bytes.
type storeCodec struct {
	scene.Codec
	cache *docCache
}

// Inspect answers for vouched bytes at once, else parses them.
func (sc *storeCodec) Inspect(data []byte) (int, error) {
	if n, ok := sc.cache.counted(data); ok {
		return n, nil
	}
	return sc.Codec.Inspect(data)
}

var _ store.Differ = (*storeCodec)(nil)

// Diff compares two scene documents element by element on their bytes
// (scene.SplitElements: no trees are built for elements that did not
// change): created, updated (and of those, moved), deleted and revived
// ids, each affected element's bytes before, and its fingerprint after.
// Elements whose bytes differ are compared by journal.Fingerprint, so one
// written out with its members in another order has not changed. An
// element that left the file altogether counts as deleted.
//
// The documents are the store's: neither is changed afterwards, so the
// cache may keep them.
func (sc *storeCodec) Diff(before, after []byte) (journal.Changes, error) {
	var c journal.Changes
	prev := &scene.Split{}
	var err error
	if before != nil {
		if prev, err = sc.cache.split(before); err != nil {
			return c, err
		}
	}
	next, err := sc.cache.split(after)
	if err != nil {
		return c, err
	}
	was, now := prev.Elements, next.Elements
	if before != nil {
		c.Members = changedMembers(prev.Members, next.Members)
		if slices.Contains(c.Members, "appState") {
			c.Settings = changedSettings(prev.Members, next.Members)
		}
	}
	// Where after was written from a fork of before's document, the
	// elements written as before's bytes are known (Split.From): only
	// the others are looked at, and before's elements are found by id
	// only for them.
	from := next.From
	if before == nil || next.Base == nil || !sameElements(next.Base.Elements, was) {
		from = nil
	}
	var oldOf func(id string) *scene.RawElement
	var used []bool
	if from != nil {
		used = make([]bool, len(was))
		for _, j := range from {
			if j >= 0 {
				used[j] = true
			}
		}
		oldOf = lazyIndex(was)
	} else {
		old := make(map[string]*scene.RawElement, len(was))
		for i := range was {
			if _, dup := old[was[i].ID]; !dup {
				old[was[i].ID] = &was[i]
			}
		}
		oldOf = func(id string) *scene.RawElement { return old[id] }
	}
	seen := make(map[string]bool)
	var unhashed []int // the After states whose Hash is still to compute, and their bytes
	var unhashedRaw [][]byte
	for i := range now {
		if from != nil && from[i] >= 0 {
			continue // before's own bytes: unchanged
		}
		el := &now[i]
		if seen[el.ID] {
			continue
		}
		seen[el.ID] = true
		o := oldOf(el.ID)
		var before []byte
		hash := ""
		if o != nil {
			before = o.Raw
			if !bytes.Equal(o.Raw, el.Raw) {
				hash = journal.Fingerprint(el.Raw)
			}
		}
		// the same: the same bytes, or the same element written out
		// otherwise (members in another order: the editor's own
		// serialization)
		ch := journal.Classify(o != nil, o != nil && o.Deleted, el.Deleted, o != nil && (hash == "" || journal.Fingerprint(o.Raw) == hash))
		if ch == journal.ElementUpdated && onlyMoved(o.Raw, el.Raw) {
			ch = journal.ElementMoved
		}
		if ch == journal.ElementUnchanged {
			continue
		}
		if hash == "" {
			// fingerprinted below, all at once
			unhashed, unhashedRaw = append(unhashed, len(c.Images.After)), append(unhashedRaw, el.Raw)
		}
		c.Add(ch, el.ID, before, journal.State{ID: el.ID, Version: el.Version, Deleted: el.Deleted, Hash: hash})
	}
	for k, h := range journal.Fingerprints(unhashedRaw) {
		c.Images.After[unhashed[k]].Hash = h
	}
	for i := range was {
		o := &was[i]
		if (used != nil && used[i]) || seen[o.ID] || o.Deleted || oldOf(o.ID) != o {
			continue
		}
		seen[o.ID] = true
		c.Add(journal.ElementDeleted, o.ID, o.Raw, journal.State{ID: o.ID, Absent: true})
	}
	return c, nil
}

// sameElements reports whether a and b are the same split's elements
// (one backing array), not merely equal ones.
func sameElements(a, b []scene.RawElement) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// lazyIndex finds elements by id (the first with it) with a linear scan
// for the first few lookups and a map after them, so that a diff of a
// few changed elements never indexes ten thousand.
func lazyIndex(els []scene.RawElement) func(id string) *scene.RawElement {
	var byID map[string]*scene.RawElement
	lookups := 0
	return func(id string) *scene.RawElement {
		if byID == nil && lookups < 8 {
			lookups++
			for i := range els {
				if els[i].ID == id {
					return &els[i]
				}
			}
			return nil
		}
		if byID == nil {
			byID = make(map[string]*scene.RawElement, len(els))
			for i := range els {
				if _, dup := byID[els[i].ID]; !dup {
					byID[els[i].ID] = &els[i]
				}
			}
		}
		return byID[id]
	}
}

// bookkeeping are the members a move changes besides the position.
var bookkeeping = map[string]bool{"x": true, "y": true, "version": true, "versionNonce": true, "updated": true}

// onlyMoved reports whether two versions of an element differ only in
// where it is (and the version bookkeeping every change makes).
func onlyMoved(a, b []byte) bool {
	va, err1 := ojson.Decode(a, ojson.Limits{})
	vb, err2 := ojson.Decode(b, ojson.Limits{})
	oa, ok1 := va.(*ojson.Object)
	ob, ok2 := vb.(*ojson.Object)
	if err1 != nil || err2 != nil || !ok1 || !ok2 {
		return false
	}
	same := true
	moved := false
	for _, o := range []*ojson.Object{oa, ob} {
		o.Range(func(k string, _ any) bool {
			if bookkeeping[k] {
				if k == "x" || k == "y" {
					x, _ := oa.Get(k)
					y, _ := ob.Get(k)
					moved = moved || !ojson.Equal(x, y, true)
				}
				return true
			}
			x, okx := oa.Get(k)
			y, oky := ob.Get(k)
			if okx != oky || !ojson.Equal(x, y, true) {
				same = false
				return false
			}
			return true
		})
	}
	return same && moved
}

// changedMembers names the top-level members other than elements that
// differ (appState, files, …), compared like elements.
// changedSettings are the members of appState that differ between the
// documents' members, sorted; nil when either appState is not an object.
func changedSettings(before, after []scene.RawMember) []string {
	object := func(ms []scene.RawMember) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for _, m := range ms {
			if m.Name == "appState" {
				if json.Unmarshal(m.Raw, &out) != nil {
					return nil
				}
			}
		}
		return out
	}
	was, now := object(before), object(after)
	if was == nil || now == nil {
		return nil
	}
	var out []string
	for k, v := range now {
		if o, ok := was[k]; !ok || (!bytes.Equal(o, v) && journal.Fingerprint(o) != journal.Fingerprint(v)) {
			out = append(out, k)
		}
	}
	for k := range was {
		if _, ok := now[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func changedMembers(before, after []scene.RawMember) []string {
	old := map[string][]byte{}
	for _, m := range before {
		old[m.Name] = m.Raw
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range after {
		seen[m.Name] = true
		if o, ok := old[m.Name]; !ok || (!bytes.Equal(o, m.Raw) && journal.Fingerprint(o) != journal.Fingerprint(m.Raw)) {
			out = append(out, m.Name)
		}
	}
	for _, m := range before {
		if !seen[m.Name] {
			out = append(out, m.Name)
		}
	}
	return out
}

package pgstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"slices"
)

// A delta is the bytes of one revision told against those of another
// (its base): a sequence of operations that copy a span of the base or
// insert bytes of their own, which rebuild the revision's bytes exactly.
//
// Encoding: deltaMagic, the target's length (uvarint), then operations,
// each a uvarint n<<1|kind followed, for a copy (kind 0), by the span's
// offset in the base (uvarint), and for an insert (kind 1) by its n
// bytes.
const deltaMagic = "\xffd1"

// errBadDelta is a delta that does not rebuild a document from its base.
var errBadDelta = errors.New("pgstore: a stored delta does not apply to its base")

// deltaSeed hashes the segments diff looks up.
var deltaSeed = maphash.MakeSeed()

// segmentEnd is the end of the segment of b that starts at i: just past
// the next '}' or newline, else the end of b. Segments end where the
// content says, so an edit moves no boundary outside the edited span and
// the bytes after it line up again at the next one.
func segmentEnd(b []byte, i int) int {
	for j := i; j < len(b); j++ {
		if c := b[j]; c == '}' || c == '\n' {
			return j + 1
		}
	}
	return len(b)
}

// commonPrefix is how many leading bytes a and b share.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+64 <= n && bytes.Equal(a[i:i+64], b[i:i+64]); i += 64 {
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// commonSuffix is how many trailing bytes a and b share.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+64 <= n && bytes.Equal(a[len(a)-i-64:len(a)-i], b[len(b)-i-64:len(b)-i]); i += 64 {
	}
	for ; i < n && a[len(a)-i-1] == b[len(b)-i-1]; i++ {
	}
	return i
}

// deltaWriter appends a delta's operations, merging adjacent ones.
type deltaWriter struct {
	out        []byte
	copyOff    int // the pending copy's span of the base; copyLen 0: none
	copyLen    int
	insert     []byte // the pending insert
	insertFrom int    // where the pending insert starts in the target
}

func (w *deltaWriter) flushCopy() {
	if w.copyLen > 0 {
		w.out = binary.AppendUvarint(w.out, uint64(w.copyLen)<<1)
		w.out = binary.AppendUvarint(w.out, uint64(w.copyOff))
		w.copyLen = 0
	}
}

func (w *deltaWriter) flushInsert() {
	if len(w.insert) > 0 {
		w.out = binary.AppendUvarint(w.out, uint64(len(w.insert))<<1|1)
		w.out = append(w.out, w.insert...)
		w.insert = nil
	}
}

// copySpan adds a copy of base[off:off+n].
func (w *deltaWriter) copySpan(off, n int) {
	if n == 0 {
		return
	}
	w.flushInsert()
	if w.copyLen > 0 && w.copyOff+w.copyLen == off {
		w.copyLen += n
		return
	}
	w.flushCopy()
	w.copyOff, w.copyLen = off, n
}

// insertBytes adds an insert of b (a span of the target).
func (w *deltaWriter) insertBytes(b []byte) {
	if len(b) == 0 {
		return
	}
	w.flushCopy()
	w.insert = append(w.insert, b...)
}

// diff is target as a delta against base. The common head and tail are
// copies; between them, each segment of the target (see segmentEnd) is
// looked up among the base's middle segments, and a match is followed
// byte by byte as far as it goes, so moved and unchanged elements are
// copies and only the changed bytes are inserted. The work is a
// comparison of the shared bytes plus hashing of the changed region.
func diff(base, target []byte) []byte {
	w := &deltaWriter{out: make([]byte, 0, 64)}
	w.out = append(w.out, deltaMagic...)
	w.out = binary.AppendUvarint(w.out, uint64(len(target)))
	head := commonPrefix(base, target)
	tail := commonSuffix(base[head:], target[head:])
	w.copySpan(0, head)
	baseMid := base[head : len(base)-tail]
	targetMid := target[head : len(target)-tail]
	if len(baseMid) > 0 && len(targetMid) > 0 {
		diffMiddle(w, base, head, baseMid, targetMid)
	} else {
		w.insertBytes(targetMid)
	}
	w.copySpan(len(base)-tail, tail)
	w.flushInsert()
	w.flushCopy()
	return w.out
}

// minMatch is the shortest segment diff looks up: shorter ones ("}",
// a blank line) match anywhere and would only cut copies short.
const minMatch = 8

// diffMiddle writes targetMid as copies of baseMid (which starts at
// offset at in base) and inserts.
func diffMiddle(w *deltaWriter, base []byte, at int, baseMid, targetMid []byte) {
	index := map[uint64]int{}
	for i := 0; i < len(baseMid); {
		e := segmentEnd(baseMid, i)
		if e-i >= minMatch {
			h := maphash.Bytes(deltaSeed, baseMid[i:e])
			if _, ok := index[h]; !ok {
				index[h] = i
			}
		}
		i = e
	}
	next := -1 // where in baseMid the last copy ended (-1: none)
	for i := 0; i < len(targetMid); {
		// Continue the last copy as far as the bytes agree.
		if next >= 0 {
			if n := commonPrefix(baseMid[next:], targetMid[i:]); n > 0 {
				w.copySpan(at+next, n)
				next += n
				i += n
				continue
			}
		}
		e := segmentEnd(targetMid, i)
		seg := targetMid[i:e]
		if len(seg) >= minMatch {
			if off, ok := index[maphash.Bytes(deltaSeed, seg)]; ok && bytes.Equal(baseMid[off:min(off+len(seg), len(baseMid))], seg) {
				next = off
				continue
			}
		}
		w.insertBytes(seg)
		next = -1
		i = e
	}
}

// apply rebuilds a delta's target from its base: errBadDelta when the
// delta is not one, or does not fit the base.
func apply(base, delta []byte) ([]byte, error) {
	r, err := ropeOf(base).apply(delta)
	if err != nil {
		return nil, err
	}
	return r.bytes(), nil
}

// rope is a document as spans of other bytes (a snapshot's, deltas'),
// in order: a chain of deltas applies to it without copying the
// document at each step, and is copied once at the end.
type rope struct {
	parts [][]byte
	ends  []int // ends[i] is where parts[i] ends in the document
}

func ropeOf(b []byte) *rope {
	r := &rope{}
	r.add(b)
	return r
}

func (r *rope) size() int {
	if len(r.ends) == 0 {
		return 0
	}
	return r.ends[len(r.ends)-1]
}

func (r *rope) add(b []byte) {
	if len(b) > 0 {
		r.parts = append(r.parts, b)
		r.ends = append(r.ends, r.size()+len(b))
	}
}

// addRange adds the spans of from that hold its bytes [off, off+n).
func (r *rope) addRange(from *rope, off, n int) {
	i, _ := slices.BinarySearch(from.ends, off+1) // the first part ending past off
	for ; n > 0; i++ {
		p := from.parts[i]
		start := from.ends[i] - len(p)
		take := p[off-start : min(len(p), off-start+n)]
		r.add(take)
		off += len(take)
		n -= len(take)
	}
}

// apply is the delta's target, from r as its base.
func (r *rope) apply(delta []byte) (*rope, error) {
	if !bytes.HasPrefix(delta, []byte(deltaMagic)) {
		return nil, errBadDelta
	}
	d := delta[len(deltaMagic):]
	size, n := binary.Uvarint(d)
	if n <= 0 || size > uint64(r.size())+uint64(len(d)) {
		return nil, errBadDelta
	}
	d = d[n:]
	out := &rope{}
	for len(d) > 0 {
		op, n := binary.Uvarint(d)
		if n <= 0 {
			return nil, errBadDelta
		}
		d = d[n:]
		length := op >> 1
		if op&1 == 1 {
			if length > uint64(len(d)) {
				return nil, errBadDelta
			}
			out.add(d[:length])
			d = d[length:]
			continue
		}
		off, n := binary.Uvarint(d)
		if n <= 0 || off > uint64(r.size()) || length > uint64(r.size())-off {
			return nil, errBadDelta
		}
		d = d[n:]
		out.addRange(r, int(off), int(length))
	}
	if uint64(out.size()) != size {
		return nil, errBadDelta
	}
	return out, nil
}

// bytes is the document r holds, copied into one slice.
func (r *rope) bytes() []byte {
	out := make([]byte, 0, r.size())
	for _, p := range r.parts {
		out = append(out, p...)
	}
	return out
}

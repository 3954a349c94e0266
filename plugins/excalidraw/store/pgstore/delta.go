package pgstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"hash/maphash"
	"slices"
)

// A delta is the bytes of one revision told against those of another
// (its base): a sequence of operations that copy a span of the base or
// insert bytes of their own, which rebuild the revision's bytes exactly.
//
// Encoding: deltaMagic, the target's length (uvarint) and its CRC-32C
// (4 bytes, little-endian), then operations, each a uvarint n<<1|kind
// followed, for a copy (kind 0), by the span's offset in the base
// (uvarint), and for an insert (kind 1) by its n bytes. The CRC checks
// a rebuilt document at a fraction of SHA-256's cost.
const deltaMagic = "\xffd1"

// castagnoli is CRC-32C's table (computed in hardware where there is
// some).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

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
	w.out = binary.LittleEndian.AppendUint32(w.out, crc32.Checksum(target, castagnoli))
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
// delta is not one, does not fit the base, or rebuilds other bytes.
func apply(base, delta []byte) ([]byte, error) {
	r, crc, err := ropeOf(base).apply(delta)
	if err != nil {
		return nil, err
	}
	return r.checked(crc)
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

// apply is the delta's target, from r as its base, and the target's
// CRC-32C (see checked).
func (r *rope) apply(delta []byte) (*rope, uint32, error) {
	if !bytes.HasPrefix(delta, []byte(deltaMagic)) {
		return nil, 0, errBadDelta
	}
	d := delta[len(deltaMagic):]
	size, n := binary.Uvarint(d)
	if n <= 0 || size > uint64(r.size())+uint64(len(d)) || len(d) < n+4 {
		return nil, 0, errBadDelta
	}
	crc := binary.LittleEndian.Uint32(d[n:])
	d = d[n+4:]
	out := &rope{}
	for len(d) > 0 {
		op, n := binary.Uvarint(d)
		if n <= 0 {
			return nil, 0, errBadDelta
		}
		d = d[n:]
		length := op >> 1
		if op&1 == 1 {
			if length > uint64(len(d)) {
				return nil, 0, errBadDelta
			}
			out.add(d[:length])
			d = d[length:]
			continue
		}
		off, n := binary.Uvarint(d)
		if n <= 0 || off > uint64(r.size()) || length > uint64(r.size())-off {
			return nil, 0, errBadDelta
		}
		d = d[n:]
		out.addRange(r, int(off), int(length))
	}
	if uint64(out.size()) != size {
		return nil, 0, errBadDelta
	}
	return out, crc, nil
}

// checked is r's bytes when their CRC-32C is crc, else errBadDelta.
func (r *rope) checked(crc uint32) ([]byte, error) {
	b := r.bytes()
	if crc32.Checksum(b, castagnoli) != crc {
		return nil, errBadDelta
	}
	return b, nil
}

// bytes is the document r holds, copied into one slice.
func (r *rope) bytes() []byte {
	out := make([]byte, 0, r.size())
	for _, p := range r.parts {
		out = append(out, p...)
	}
	return out
}

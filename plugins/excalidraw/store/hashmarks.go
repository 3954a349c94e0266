package store

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
)

// A commit usually changes a little of a large file (an element added
// near the end of the elements, one updated in the middle), yet records
// the SHA-256 of all of it. SHA-256 reads its input in order, so the
// state after a prefix stands for the prefix: a commit keeps the state
// every markEvery bytes of what it wrote (hashMarks), and the next
// commit of the scene resumes from the last mark the two files share
// (the bytes compared, not assumed), hashing only from there. The hash
// is the same; only the CPU differs.

// markEvery is the distance between marks.
const markEvery = 64 << 10

// hashMarks are the SHA-256 states of data after each whole markEvery
// bytes: states[i] is the state after data[:(i+1)*markEvery]. data is
// shared with the commit that wrote it and never changed.
type hashMarks struct {
	data   []byte
	states [][]byte
}

// sha256Marked returns data's SHA-256 in hex and its marks, resuming
// from prev's marks over the leading chunks data shares with prev.data
// (prev may be nil).
func sha256Marked(prev *hashMarks, data []byte) (string, *hashMarks) {
	h := sha256.New()
	marks := &hashMarks{data: data}
	off := 0
	if k := sharedMarks(prev, data); k > 0 {
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(prev.states[k-1]); err == nil {
			marks.states = append(make([][]byte, 0, len(data)/markEvery), prev.states[:k]...)
			off = k * markEvery
		} else {
			h.Reset()
		}
	}
	for ; off+markEvery <= len(data); off += markEvery {
		h.Write(data[off : off+markEvery])
		st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			// Not expected of crypto/sha256; without marks the next
			// commit hashes all of its bytes.
			h.Write(data[off+markEvery:])
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		marks.states = append(marks.states, st)
	}
	h.Write(data[off:])
	return hex.EncodeToString(h.Sum(nil)), marks
}

// sharedMarks is how many of prev's marks cover bytes data begins with.
func sharedMarks(prev *hashMarks, data []byte) int {
	if prev == nil {
		return 0
	}
	k := 0
	for k < len(prev.states) {
		end := (k + 1) * markEvery
		if end > len(data) || end > len(prev.data) || !bytes.Equal(prev.data[k*markEvery:end], data[k*markEvery:end]) {
			break
		}
		k++
	}
	return k
}

// marksOf returns the marks of the last commit of name by this Store,
// while it holds that commit's bytes (nil otherwise).
func (s *Store) marksOf(name string) *hashMarks {
	v, ok := s.known.Load(name)
	if !ok {
		return nil
	}
	k := v.(*knownScene)
	if k.data == nil || k.marks == nil {
		return nil
	}
	return k.marks
}

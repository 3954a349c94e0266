package journal

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

const (
	headMagic = "DJE1"
	tailMagic = "dje1"
	headSize  = 20
	tailSize  = 8
	// Overhead is what a frame adds to its meta and blob.
	Overhead = headSize + tailSize
	// MaxMeta and MaxBlob bound what a frame may hold, so a corrupt
	// length never makes a reader allocate gigabytes.
	MaxMeta = 16 << 20
	MaxBlob = 256 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrBadFrame is a frame that does not check out: torn, overwritten or
// not a frame at all.
var ErrBadFrame = errors.New("journal: bad frame")

// Encode renders one frame. images may be nil (no blob).
func Encode(e *Entry, images *Images) ([]byte, error) {
	meta, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	var blob []byte
	if images != nil {
		if blob, err = compress(images); err != nil {
			return nil, err
		}
	}
	if len(meta) > MaxMeta || len(blob) > MaxBlob {
		return nil, fmt.Errorf("journal: entry too large (meta %d, blob %d bytes)", len(meta), len(blob))
	}
	n := Overhead + len(meta) + len(blob)
	out := make([]byte, 0, n)
	out = append(out, headMagic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(blob)))
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(meta, castagnoli))
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(blob, castagnoli))
	out = append(out, meta...)
	out = append(out, blob...)
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	return append(out, tailMagic...), nil
}

// writers keeps flate writers between entries: a new one allocates about
// a megabyte of tables, far more than a one-element entry compresses.
var writers = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // a valid level: cannot fail
	return w
}}

func compress(im *Images) ([]byte, error) {
	var buf bytes.Buffer
	w := writers.Get().(*flate.Writer)
	defer writers.Put(w)
	w.Reset(&buf)
	if err := json.NewEncoder(w).Encode(im); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Frame locates one valid frame in a file.
type Frame struct {
	Offset  int64 // where it starts
	Length  int64 // its whole length
	metaLen int64
	blobLen int64
	blobCRC uint32
	Entry   Entry
}

// End is the offset just past the frame.
func (f *Frame) End() int64 { return f.Offset + f.Length }

// ReadAt reads and checks the frame that starts at off, its meta
// decoded (the blob is read only by Images). size is the file's size.
func ReadAt(r io.ReaderAt, off, size int64) (*Frame, error) {
	if off < 0 || size-off < Overhead {
		return nil, ErrBadFrame
	}
	var head [headSize]byte
	if _, err := r.ReadAt(head[:], off); err != nil {
		return nil, readErr(err)
	}
	if string(head[:4]) != headMagic {
		return nil, ErrBadFrame
	}
	m := int64(binary.LittleEndian.Uint32(head[4:]))
	b := int64(binary.LittleEndian.Uint32(head[8:]))
	if m > MaxMeta || b > MaxBlob || off+Overhead+m+b > size {
		return nil, ErrBadFrame
	}
	buf := make([]byte, m)
	if _, err := r.ReadAt(buf, off+headSize); err != nil {
		return nil, readErr(err)
	}
	var tail [tailSize]byte
	if _, err := r.ReadAt(tail[:], off+headSize+m+b); err != nil {
		return nil, readErr(err)
	}
	n := int64(Overhead) + m + b
	if string(tail[4:]) != tailMagic || int64(binary.LittleEndian.Uint32(tail[:4])) != n ||
		crc32.Checksum(buf, castagnoli) != binary.LittleEndian.Uint32(head[12:]) {
		return nil, ErrBadFrame
	}
	f := &Frame{Offset: off, Length: n, metaLen: m, blobLen: b, blobCRC: binary.LittleEndian.Uint32(head[16:])}
	if err := json.Unmarshal(buf, &f.Entry); err != nil {
		return nil, ErrBadFrame
	}
	return f, nil
}

// readErr keeps real I/O errors apart from a frame cut short.
func readErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return ErrBadFrame
	}
	return err
}

// Images reads, checks and decompresses the frame's blob; nil when it has
// none.
func (f *Frame) Images(r io.ReaderAt) (*Images, error) {
	if f.blobLen == 0 {
		return nil, nil
	}
	blob := make([]byte, f.blobLen)
	if _, err := r.ReadAt(blob, f.Offset+headSize+f.metaLen); err != nil {
		return nil, readErr(err)
	}
	if crc32.Checksum(blob, castagnoli) != f.blobCRC {
		return nil, ErrBadFrame
	}
	var im Images
	if err := json.NewDecoder(flate.NewReader(bytes.NewReader(blob))).Decode(&im); err != nil {
		return nil, fmt.Errorf("%w: images: %v", ErrBadFrame, err)
	}
	return &im, nil
}

// Last reads the frame that ends at end (the file's size, or an earlier
// frame's Offset), walking backwards by the trailer.
func Last(r io.ReaderAt, end int64) (*Frame, error) {
	if end < Overhead {
		return nil, ErrBadFrame
	}
	var tail [tailSize]byte
	if _, err := r.ReadAt(tail[:], end-tailSize); err != nil {
		return nil, readErr(err)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if string(tail[4:]) != tailMagic || n < Overhead || n > end {
		return nil, ErrBadFrame
	}
	f, err := ReadAt(r, end-n, end)
	if err != nil {
		return nil, err
	}
	if f.End() != end {
		return nil, ErrBadFrame
	}
	return f, nil
}

// Scan walks the file forward from the start and returns the end of its
// last valid frame (everything after it is a torn tail) and how many
// valid frames precede it. fn, if not nil, sees each valid frame; false
// stops the walk.
func Scan(r io.ReaderAt, size int64, fn func(*Frame) bool) (validEnd int64, frames int, err error) {
	var off int64
	for off < size {
		f, err := ReadAt(r, off, size)
		if errors.Is(err, ErrBadFrame) {
			return off, frames, nil
		}
		if err != nil {
			return off, frames, err
		}
		frames++
		off = f.End()
		if fn != nil && !fn(f) {
			return off, frames, nil
		}
	}
	return off, frames, nil
}

// Backward calls fn with the frames that end at or before end, newest
// first, until fn returns false. A frame that does not check out while
// walking backwards (a torn tail, or a frame being appended as this
// reads) is reported as ErrBadFrame; callers fall back to Scan.
func Backward(r io.ReaderAt, end int64, fn func(*Frame) bool) error {
	for end > 0 {
		f, err := Last(r, end)
		if err != nil {
			return err
		}
		if !fn(f) {
			return nil
		}
		end = f.Offset
	}
	return nil
}

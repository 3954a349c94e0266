package woff2

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// testHeader returns a valid header for a file of n bytes with one
// table and 1 byte of compressed data; edit modifies it first.
func testHeader(n int, edit func(h []byte)) []byte {
	b := make([]byte, n)
	be := binary.BigEndian
	be.PutUint32(b[0:], signature)
	be.PutUint32(b[4:], 0x00010000)
	be.PutUint32(b[8:], uint32(n))
	be.PutUint16(b[12:], 1)
	be.PutUint32(b[20:], 1)
	if edit != nil {
		edit(b)
	}
	return b
}

func TestParseHeader(t *testing.T) {
	be := binary.BigEndian
	h, err := parseHeader(testHeader(100, func(b []byte) {
		be.PutUint16(b[14:], 7) // reserved: must not be rejected
		be.PutUint32(b[28:], 60)
		be.PutUint32(b[32:], 10)
		be.PutUint32(b[36:], 30)
		be.PutUint32(b[40:], 72)
		be.PutUint32(b[44:], 28)
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := header{flavor: 0x00010000, length: 100, numTables: 1, totalCompressedSize: 1,
		metaOffset: 60, metaLength: 10, metaOrigLength: 30, privOffset: 72, privLength: 28}
	if h != want {
		t.Errorf("got %+v, want %+v", h, want)
	}

	for _, tc := range []struct {
		name string
		b    []byte
		err  string
	}{
		{"empty", nil, "truncated"},
		{"short", testHeader(100, nil)[:47], "truncated"},
		{"WOFF 1", testHeader(100, func(b []byte) { copy(b, "wOFF") }), "not a WOFF2 file"},
		{"flavor", testHeader(100, func(b []byte) { copy(b[4:], "typ1") }), "unknown flavor 0x74797031"},
		{"length", testHeader(100, func(b []byte) { be.PutUint32(b[8:], 101) }), "length 101"},
		{"no tables", testHeader(100, func(b []byte) { be.PutUint16(b[12:], 0) }), "no tables"},
		{"no compressed data", testHeader(100, func(b []byte) { be.PutUint32(b[20:], 0) }), "totalCompressedSize"},
		{"compressed data too long", testHeader(100, func(b []byte) { be.PutUint32(b[20:], 101) }), "totalCompressedSize"},
		{"metadata past the end", testHeader(100, func(b []byte) { be.PutUint32(b[28:], 96); be.PutUint32(b[32:], 8) }), "metadata block"},
		{"metadata in the header", testHeader(100, func(b []byte) { be.PutUint32(b[28:], 4); be.PutUint32(b[32:], 8) }), "metadata block"},
		{"metadata offset overflows", testHeader(100, func(b []byte) { be.PutUint32(b[28:], 0xFFFFFFF0); be.PutUint32(b[32:], 0x20) }), "metadata block"},
		{"private data past the end", testHeader(100, func(b []byte) { be.PutUint32(b[40:], 60); be.PutUint32(b[44:], 41) }), "private data block"},
	} {
		if _, err := parseHeader(tc.b); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}

	for _, flavor := range []string{"OTTO", "true", "\x00\x01\x00\x00"} {
		if h, err := parseHeader(testHeader(100, func(b []byte) { copy(b[4:], flavor) })); err != nil || h.flavor != be.Uint32([]byte(flavor)) {
			t.Errorf("flavor %q: %+v, %v", flavor, h, err)
		}
	}
	_, err = parseHeader(testHeader(100, func(b []byte) { copy(b[4:], "ttcf") }))
	if !errors.Is(err, ErrCollection) {
		t.Errorf("ttcf: %v, want ErrCollection", err)
	}
}

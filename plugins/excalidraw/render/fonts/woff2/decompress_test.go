package woff2

import (
	"bytes"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func compress(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, 5)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestDecompress(t *testing.T) {
	data := bytes.Repeat([]byte("woff2 "), 1000)
	c := compress(data)
	got, err := decompress(c, uint32(len(data)))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("got %d bytes, %v", len(got), err)
	}
	if got, err := decompress(compress(nil), 0); err != nil || len(got) != 0 {
		t.Errorf("empty stream: %d bytes, %v", len(got), err)
	}
	corrupt := bytes.Clone(c)
	corrupt[len(corrupt)/2] ^= 0xFF
	for _, tc := range []struct {
		name string
		c    []byte
		size uint32
		err  string
	}{
		{"more than declared", c, uint32(len(data)) - 1, "stream holds more than the 5999 bytes"},
		{"less than declared", c, uint32(len(data)) + 1, "stream holds 6000 bytes, the table directory says 6001"},
		{"truncated", c[:len(c)-2], uint32(len(data)), "brotli"},
		{"corrupt", corrupt, uint32(len(data)), "brotli"},
		{"not brotli", []byte("plain text, not a brotli stream"), 10, "brotli"},
	} {
		if _, err := decompress(tc.c, tc.size); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}
}

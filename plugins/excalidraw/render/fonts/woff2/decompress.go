package woff2

import (
	"bytes"
	"io"

	"github.com/andybalholm/brotli"
)

// decompress decodes the Brotli stream compressed (§5), which must hold
// exactly size bytes. The buffer grows with the data actually produced,
// never past size, so a file that declares more than it holds costs no
// more than it holds.
func decompress(compressed []byte, size uint32) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(min(int(size), 4*len(compressed), maxDecodedSize))
	n, err := buf.ReadFrom(io.LimitReader(brotli.NewReader(bytes.NewReader(compressed)), int64(size)+1))
	switch {
	case err != nil:
		return nil, errorf("brotli: %v", err)
	case n > int64(size):
		return nil, errorf("brotli: stream holds more than the %d bytes the table directory says", size)
	case n < int64(size):
		return nil, errorf("brotli: stream holds %d bytes, the table directory says %d", n, size)
	}
	return buf.Bytes(), nil
}

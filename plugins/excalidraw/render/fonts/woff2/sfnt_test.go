package woff2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"testing"
)

// checkSFNT checks an SFNT file's structure: the directory's search
// fields, its order, table bounds, alignment and padding, every table's
// checksum and head's checkSumAdjustment.
func checkSFNT(b []byte) error {
	be := binary.BigEndian
	if len(b) < 12 || len(b)%4 != 0 {
		return fmt.Errorf("%d bytes", len(b))
	}
	n := int(be.Uint16(b[4:]))
	sel := bits.Len(uint(n)) - 1
	if got, want := [3]uint16{be.Uint16(b[6:]), be.Uint16(b[8:]), be.Uint16(b[10:])}, [3]uint16{uint16(16 << sel), uint16(sel), uint16(16*n - 16<<sel)}; got != want {
		return fmt.Errorf("searchRange, entrySelector, rangeShift %v, want %v", got, want)
	}
	prev := ""
	var headAdj uint32
	end := 12 + 16*n
	for i := range n {
		rec := b[12+16*i:]
		tag := string(rec[:4])
		sum, off, length := be.Uint32(rec[4:]), int(be.Uint32(rec[8:])), int(be.Uint32(rec[12:]))
		if tag <= prev {
			return fmt.Errorf("table %q after %q", tag, prev)
		}
		prev = tag
		if off%4 != 0 || off < 12+16*n || off+pad4(length) > len(b) {
			return fmt.Errorf("table %q at [%d, +%d)", tag, off, length)
		}
		if !bytes.Equal(b[off+length:off+pad4(length)], make([]byte, pad4(length)-length)) {
			return fmt.Errorf("table %q: nonzero padding", tag)
		}
		data := b[off : off+pad4(length)]
		want := checksum(data)
		if tag == "head" {
			headAdj = be.Uint32(data[8:])
			want -= headAdj
		}
		if sum != want {
			return fmt.Errorf("table %q: checksum %#08x, want %#08x", tag, sum, want)
		}
		end = max(end, off+pad4(length))
	}
	if end != len(b) {
		return fmt.Errorf("%d bytes after the last table", len(b)-end)
	}
	if got := checksum(b); got != checksumMagic {
		return fmt.Errorf("font checksum %#08x (checkSumAdjustment %#08x), want %#08x", got, headAdj, uint32(checksumMagic))
	}
	return nil
}

func TestWriteSFNT(t *testing.T) {
	head := make([]byte, 54)
	binary.BigEndian.PutUint32(head[8:], 0xDEADBEEF) // replaced
	for n := 1; n <= 40; n++ {
		// Tables in reverse tag order, of lengths 1 to n.
		tables := []sfntTable{{"head", bytes.Clone(head)}}
		for i := n - 1; i > 0; i-- {
			tables = append(tables, sfntTable{fmt.Sprintf("t%03d", i), bytes.Repeat([]byte{byte(i)}, i)})
		}
		b, err := writeSFNT(0x00010000, tables)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkSFNT(b); err != nil {
			t.Fatalf("%d tables: %v", n, err)
		}
		got, _ := sfntTables(b)
		for _, tb := range tables[1:] {
			if !bytes.Equal(got[tb.tag], tb.data) {
				t.Errorf("%d tables: %q is % x, want % x", n, tb.tag, got[tb.tag], tb.data)
			}
		}
		if binary.BigEndian.Uint32(b) != 0x00010000 {
			t.Errorf("flavor %#08x", binary.BigEndian.Uint32(b))
		}
	}

	if _, err := writeSFNT(0x00010000, []sfntTable{{"cmap", []byte{1}}}); err == nil {
		t.Error("no error without head")
	}
	if _, err := writeSFNT(0x00010000, []sfntTable{{"head", make([]byte, 53)}}); err == nil {
		t.Error("no error with a short head")
	}
	if _, err := writeSFNT(0x00010000, nil); err == nil {
		t.Error("no error without tables")
	}
	big := make([]byte, maxDecodedSize/2)
	if _, err := writeSFNT(0x00010000, []sfntTable{{"head", head}, {"aaaa", big}, {"bbbb", big}}); err == nil {
		t.Error("no error for a font over the limit")
	}
}

func TestChecksum(t *testing.T) {
	if got := checksum([]byte{0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 1, 0}); got != 0x100 {
		t.Errorf("checksum %#x, want 0x100", got)
	}
	if got := checksum(nil); got != 0 {
		t.Errorf("checksum(nil) = %#x", got)
	}
}

package woff2

// headerSize is the size of the WOFF2 header (§3.2).
const headerSize = 48

const (
	signature      = 0x774F4632 // 'wOF2'
	maxDecodedSize = 64 << 20   // cap on the decompressed data and on the output
)

// Flavors, the "sfnt version" of the font a WOFF2 file holds.
const (
	flavorTrueType = 0x00010000
	flavorApple    = 0x74727565 // 'true', Apple's TrueType
	flavorCFF      = 0x4F54544F // 'OTTO'
	flavorTTCF     = 0x74746366 // 'ttcf', a collection
)

// header is the WOFF2 file header (§3.2).
type header struct {
	flavor              uint32
	length              uint32
	numTables           uint16
	totalSfntSize       uint32
	totalCompressedSize uint32
	metaOffset          uint32
	metaLength          uint32
	metaOrigLength      uint32
	privOffset          uint32
	privLength          uint32
}

// parseHeader reads and checks the header of the WOFF2 file b: the
// signature, the flavor, the declared length against len(b), a table
// count, and that the metadata and private blocks lie inside the file.
func parseHeader(b []byte) (header, error) {
	r := newReader(b, "header")
	sig := r.u32()
	h := header{
		flavor:    r.u32(),
		length:    r.u32(),
		numTables: r.u16(),
	}
	r.u16() // reserved: a decoder must not reject a nonzero value
	h.totalSfntSize = r.u32()
	h.totalCompressedSize = r.u32()
	r.u16() // majorVersion
	r.u16() // minorVersion
	h.metaOffset = r.u32()
	h.metaLength = r.u32()
	h.metaOrigLength = r.u32()
	h.privOffset = r.u32()
	h.privLength = r.u32()
	if r.err != nil {
		return header{}, r.err
	}
	switch {
	case sig != signature:
		return header{}, errorf("not a WOFF2 file (signature %#08x)", sig)
	case h.flavor == flavorTTCF:
		return header{}, ErrCollection
	case h.flavor != flavorTrueType && h.flavor != flavorApple && h.flavor != flavorCFF:
		return header{}, errorf("header: unknown flavor %#08x", h.flavor)
	case uint64(h.length) != uint64(len(b)):
		return header{}, errorf("header: length %d, file has %d bytes", h.length, len(b))
	case h.numTables == 0:
		return header{}, errorf("header: no tables")
	case h.totalCompressedSize == 0 || h.totalCompressedSize > h.length:
		return header{}, errorf("header: totalCompressedSize %d in a %d-byte file", h.totalCompressedSize, h.length)
	}
	if err := checkBlock("metadata", h.metaOffset, h.metaLength, h.length); err != nil {
		return header{}, err
	}
	if err := checkBlock("private data", h.privOffset, h.privLength, h.length); err != nil {
		return header{}, err
	}
	return h, nil
}

// checkBlock checks that an optional block (absent when length is 0)
// lies within a file of fileLen bytes.
func checkBlock(name string, offset, length, fileLen uint32) error {
	if length == 0 {
		return nil
	}
	if offset < headerSize || uint64(offset)+uint64(length) > uint64(fileLen) {
		return errorf("header: %s block [%d, +%d) outside the %d-byte file", name, offset, length, fileLen)
	}
	return nil
}

package woff2

// knownTags are the tags a table directory entry names by index (§4.1,
// "Known Table Tags"); index 63 means an explicit tag follows.
var knownTags = [63]string{
	"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post",
	"cvt ", "fpgm", "glyf", "loca", "prep", "CFF ", "VORG", "EBDT",
	"EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT", "VDMX", "vhea",
	"vmtx", "BASE", "GDEF", "GPOS", "GSUB", "EBSC", "JSTF", "MATH",
	"CBDT", "CBLC", "COLR", "CPAL", "SVG ", "sbix", "acnt", "avar",
	"bdat", "bloc", "bsln", "cvar", "fdsc", "feat", "fmtx", "fvar",
	"gvar", "hsty", "just", "lcar", "mort", "morx", "opbd", "prop",
	"trak", "Zapf", "Silf", "Glat", "Gloc", "Feat", "Sill",
}

const explicitTag = 63

// tableEntry is one entry of the table directory.
type tableEntry struct {
	tag         string
	origLength  uint32
	transformed bool   // a non-null transform was applied
	length      uint32 // bytes the table takes in the decompressed data
	offset      uint32 // where it starts there
}

// parseDirectory reads h.numTables directory entries from r (§4.1). It
// checks the transform versions, that no tag repeats, that 'glyf' and
// 'loca' are transformed together, and that the tables' lengths add up
// to no more than maxDecodedSize. It returns the entries in the order of
// the decompressed data, with their offsets there, and the data's size.
func parseDirectory(r *reader, numTables int) ([]tableEntry, uint32, error) {
	n := min(numTables, r.len()/2) // an entry takes 2 bytes at least
	tables := make([]tableEntry, 0, n)
	seen := make(map[string]bool, n)
	var total uint64
	for range numTables {
		flags := r.u8()
		var t tableEntry
		if i := flags & 0x3F; i == explicitTag {
			t.tag = string(r.bytes(4))
		} else {
			t.tag = knownTags[i]
		}
		version := flags >> 6
		t.origLength = r.base128()
		if r.err != nil {
			return nil, 0, r.err
		}
		switch t.tag {
		case "glyf", "loca":
			// Version 0 is the transform, 3 the null transform.
			switch version {
			case 0:
				t.transformed = true
			case 3:
			default:
				return nil, 0, errorf("table directory: unknown transform %d of %q", version, t.tag)
			}
		case "hmtx":
			// Version 0 is the null transform, 1 the transform.
			switch version {
			case 0:
			case 1:
				t.transformed = true
			default:
				return nil, 0, errorf("table directory: unknown transform %d of %q", version, t.tag)
			}
		default:
			if version != 0 {
				return nil, 0, errorf("table directory: unknown transform %d of %q", version, t.tag)
			}
		}
		t.length = t.origLength
		if t.transformed {
			t.length = r.base128()
			if r.err != nil {
				return nil, 0, r.err
			}
		}
		if seen[t.tag] {
			return nil, 0, errorf("table directory: table %q twice", t.tag)
		}
		seen[t.tag] = true
		t.offset = uint32(total)
		total += uint64(t.length)
		if total > maxDecodedSize {
			return nil, 0, errorf("table directory: tables add up to more than %d bytes", maxDecodedSize)
		}
		tables = append(tables, t)
	}
	glyf, loca := find(tables, "glyf"), find(tables, "loca")
	switch {
	case (glyf == nil) != (loca == nil):
		return nil, 0, errorf("table directory: 'glyf' and 'loca' must come together")
	case glyf != nil && glyf.transformed != loca.transformed:
		return nil, 0, errorf("table directory: 'glyf' and 'loca' must both be transformed or both not")
	case loca != nil && loca.transformed && loca.length != 0:
		return nil, 0, errorf("table directory: transformed 'loca' has transformLength %d, not 0", loca.length)
	}
	return tables, uint32(total), nil
}

// find returns the entry for tag, or nil.
func find(tables []tableEntry, tag string) *tableEntry {
	for i := range tables {
		if tables[i].tag == tag {
			return &tables[i]
		}
	}
	return nil
}

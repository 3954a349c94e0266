package query

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Paged is one page of a long answer. As JSON:
//
//	{"items":[…],"offset":0,"total":312,"nextCursor":"AQAU…"}
type Paged struct {
	// Items are the page's items, in order.
	Items []json.RawMessage `json:"items"`
	// Offset is the position of the first item among all the items.
	Offset int `json:"offset"`
	// Total is how many items there are in all.
	Total int `json:"total"`
	// NextCursor asks for the next page; "" on the last page.
	NextCursor string `json:"nextCursor,omitempty"`
}

// cursorVersion is the first byte of every cursor, so a future format
// can tell old cursors apart.
const cursorVersion = 1

// Page cuts items (for example rows, each encoded) into a page of at most
// maxChars characters (code points) of JSON, counted as the array
// "[item,item,…]" the page's items make: as many items as fit, but at
// least one, so every call makes progress even when one item alone is
// longer. maxChars 0 means no limit; a negative one is invalid_operation
// (pointer "/max_chars").
//
// cursor is "" for the first page, or a NextCursor from a previous page.
// A cursor is opaque (base64url of its format version, the offset, the
// revision and a hash of the revision and of every item), so it only
// continues the same selection of the same revision: one from another
// revision, scene, target or fields is refused with invalid_operation
// (pointer "/cursor"; details cursorRevision and revision when only the
// revision differs) rather than giving a page that does not follow.
func Page(items []json.RawMessage, maxChars int, cursor string, revision int64) (Paged, error) {
	if maxChars < 0 {
		return Paged{}, invalid("/max_chars", "max_chars %d is negative", maxChars)
	}
	sum := selectionHash(items, revision)
	offset := 0
	if cursor != "" {
		var err error
		if offset, err = openCursor(cursor, sum, revision, len(items)); err != nil {
			return Paged{}, err
		}
	}
	p := Paged{Items: []json.RawMessage{}, Offset: offset, Total: len(items)}
	used := 2 // the brackets
	for i := offset; i < len(items); i++ {
		n := utf8.RuneCount(items[i])
		if i > offset {
			n++ // the comma
		}
		if maxChars > 0 && i > offset && used+n > maxChars {
			break
		}
		used += n
		p.Items = append(p.Items, items[i])
	}
	if next := offset + len(p.Items); next < len(items) {
		p.NextCursor = makeCursor(next, revision, sum)
	}
	return p, nil
}

// selectionHash identifies a selection: the revision and every item.
func selectionHash(items []json.RawMessage, revision int64) [8]byte {
	h := sha256.New()
	var buf [binary.MaxVarintLen64]byte
	h.Write(binary.AppendVarint(buf[:0], revision))
	h.Write(binary.AppendUvarint(buf[:0], uint64(len(items))))
	for _, it := range items {
		h.Write(binary.AppendUvarint(buf[:0], uint64(len(it))))
		h.Write(it)
	}
	var out [8]byte
	copy(out[:], h.Sum(nil))
	return out
}

func makeCursor(offset int, revision int64, sum [8]byte) string {
	b := []byte{cursorVersion}
	b = binary.AppendUvarint(b, uint64(offset))
	b = binary.AppendVarint(b, revision)
	b = append(b, sum[:]...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// openCursor checks a cursor against the selection and returns its offset.
func openCursor(cursor string, sum [8]byte, revision int64, total int) (int, error) {
	bad := func() error {
		return invalid("/cursor", "cursor is not one this query gave out; ask for the first page without a cursor")
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) < 1+1+1+8 || b[0] != cursorVersion {
		return 0, bad()
	}
	rest := b[1:]
	off, n := binary.Uvarint(rest)
	if n <= 0 {
		return 0, bad()
	}
	rest = rest[n:]
	rev, n := binary.Varint(rest)
	if n <= 0 || len(rest[n:]) != 8 {
		return 0, bad()
	}
	if rev != revision {
		return 0, invalid("/cursor", "cursor belongs to revision %d of the scene, which is now at revision %d; read again without a cursor", rev, revision).
			With("cursorRevision", rev).With("revision", revision)
	}
	if [8]byte(rest[n:]) != sum || off == 0 || off >= uint64(total) {
		return 0, invalid("/cursor", "cursor belongs to another selection (another scene, target or fields); read again without a cursor")
	}
	return int(off), nil
}

// EncodeRows encodes rows for [Page], compactly and without escaping <,
// > and & (encoding/json would write them as \u003c…, six bytes each).
func EncodeRows(rows []*ojson.Object) []json.RawMessage {
	out := make([]json.RawMessage, len(rows))
	for i, r := range rows {
		b, err := ojson.Marshal(r)
		if err != nil { // rows hold only encodable values
			panic("query: a row does not encode: " + err.Error())
		}
		out[i] = b
	}
	return out
}

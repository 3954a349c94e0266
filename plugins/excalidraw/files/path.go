package files

import (
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Kind is the area a file lives in.
type Kind int

const (
	// Rooms holds a board's files: rooms/{board}/{rest…}. Reading needs
	// read on the board, writing needs write.
	Rooms Kind = iota + 1
	// ShareLinks holds the files of share links: shareLinks/{rest…}. It is
	// open to everyone.
	ShareLinks
)

// Area prefixes of a logical path, and the directories they are kept in.
const (
	roomsArea      = "rooms"
	shareLinksArea = "shareLinks"
)

// Bounds of a logical path.
const (
	// MaxPathBytes bounds a whole logical path ("rooms/b/x/y").
	MaxPathBytes = 512
	// MaxSegmentBytes bounds each segment after the area (and board).
	MaxSegmentBytes = 128
)

// Path is a checked logical path: what ParsePath accepted.
type Path struct {
	Kind Kind
	// Board is the board's scene name (Rooms only).
	Board string
	// Rest is the part after the area and board: one or more segments
	// joined by '/'.
	Rest string
}

// String is the logical path: "rooms/{board}/{rest}" or
// "shareLinks/{rest}".
func (p Path) String() string {
	if p.Kind == Rooms {
		return roomsArea + "/" + p.Board + "/" + p.Rest
	}
	return shareLinksArea + "/" + p.Rest
}

// Name is the last segment of the path.
func (p Path) Name() string { return p.Rest[strings.LastIndexByte(p.Rest, '/')+1:] }

// ParsePath checks a logical path, "rooms/{board}/{rest…}" or
// "shareLinks/{rest…}" (no leading slash), and returns it parsed.
//
// The rules are deliberately narrow, checked byte by byte with no
// decoding, cleaning or case folding: {board} must be a valid scene name
// (store.ValidName); {rest} is one or more segments, each 1 to 128 bytes
// of A-Z a-z 0-9 '.' '_' '-' and neither "." nor ".."; the whole path is
// at most 512 bytes. Anything else — an empty segment, a backslash, a NUL,
// a percent sign, any non-ASCII byte — is invalid_name; a path in neither
// area is not_found.
func ParsePath(s string) (Path, error) {
	if len(s) > MaxPathBytes {
		return Path{}, invalid(s, "the path is longer than %d bytes", MaxPathBytes)
	}
	area, rest, _ := strings.Cut(s, "/")
	var p Path
	switch area {
	case roomsArea:
		p.Kind = Rooms
		board, tail, found := strings.Cut(rest, "/")
		if err := store.ValidName(board); err != nil {
			return Path{}, invalid(s, "the board in a rooms path must be a valid board name (a-z, 0-9, '.', '_', '-'; at most 64 bytes)").With("board", board)
		}
		if !found {
			return Path{}, invalid(s, "a rooms path needs a file after the board: rooms/{board}/{file}")
		}
		p.Board, rest = board, tail
	case shareLinksArea:
		p.Kind = ShareLinks
	default:
		return Path{}, sceneerr.New(sceneerr.NotFound, "no such file: files live under rooms/{board}/ and shareLinks/").With("path", clip(s))
	}
	if err := checkRest(s, rest); err != nil {
		return Path{}, err
	}
	p.Rest = rest
	return p, nil
}

// checkRest checks the segments after the area (and board).
func checkRest(whole, rest string) *sceneerr.Error {
	if rest == "" {
		return invalid(whole, "the path names no file")
	}
	for seg := range strings.SplitSeq(rest, "/") {
		switch {
		case seg == "":
			return invalid(whole, "the path has an empty segment")
		case seg == "." || seg == "..":
			return invalid(whole, `the path must not have "." or ".." segments`)
		case len(seg) > MaxSegmentBytes:
			return invalid(whole, "a path segment is longer than %d bytes", MaxSegmentBytes)
		}
		for i := 0; i < len(seg); i++ {
			if !segmentByte(seg[i]) {
				return invalid(whole, "path segments may only contain A-Z, a-z, 0-9, '.', '_' and '-'")
			}
		}
	}
	return nil
}

func segmentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
}

func invalid(path, format string, args ...any) *sceneerr.Error {
	return sceneerr.New(sceneerr.InvalidName, format, args...).With("path", clip(path))
}

// clip keeps an error's echo of a path short and printable.
func clip(s string) string {
	const max = 80
	b := make([]byte, 0, max+3)
	for i := 0; i < len(s) && len(b) < max; i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			c = '?'
		}
		b = append(b, c)
	}
	if len(s) > max {
		b = append(b, "..."...)
	}
	return string(b)
}

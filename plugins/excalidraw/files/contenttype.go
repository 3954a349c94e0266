package files

import (
	"mime"
	"strings"
)

// DefaultContentType is what a file is stored as when its upload names no
// usable media type.
const DefaultContentType = "application/octet-stream"

// maxMediaTypeBytes bounds the sanitised type (RFC 6838: 127 per half).
const maxMediaTypeBytes = 255

// ContentType sanitises an upload's Content-Type header into what is
// stored and served back: a lower-case "type/subtype" of RFC 6838
// restricted-name characters, plus a charset parameter when one of plain
// characters is given; every other parameter is dropped. Anything that
// does not parse as such is DefaultContentType.
func ContentType(header string) string {
	if strings.TrimSpace(header) == "" {
		return DefaultContentType
	}
	mt, params, err := mime.ParseMediaType(header)
	if err != nil {
		return DefaultContentType
	}
	typ, sub, ok := strings.Cut(mt, "/")
	if !ok || !restrictedName(typ) || !restrictedName(sub) {
		return DefaultContentType
	}
	out := typ + "/" + sub
	if cs := params["charset"]; cs != "" && len(cs) <= 40 && plainToken(cs) {
		out += "; charset=" + strings.ToLower(cs)
	}
	if len(out) > maxMediaTypeBytes {
		return DefaultContentType
	}
	return out
}

// restrictedName is RFC 6838's restricted-name (lower case only: the
// type has been folded by ParseMediaType).
func restrictedName(s string) bool {
	if s == "" || len(s) > 127 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case i > 0 && strings.IndexByte("!#$&-^_.+", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func plainToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !segmentByte(s[i]) {
			return false
		}
	}
	return true
}

// Inline reports whether a stored file of this content type may be shown
// by a browser rather than downloaded: raster images only. Everything
// else, SVG included (an SVG is a document that can carry script), is
// served as an attachment.
func Inline(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.HasPrefix(mt, "image/") && mt != "image/svg+xml"
}

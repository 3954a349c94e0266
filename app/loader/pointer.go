package loader

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
)

// Problems and warnings locate values with RFC 6901 JSON pointers into the
// file (for example /plugins/1/config/maxElements) because operators can
// follow them by eye and tools can resolve them mechanically.

// childPointer appends a property name to a pointer.
func childPointer(ptr, name string) string {
	return ptr + "/" + jsonpointer.Escape(name)
}

// indexPointer appends an array index to a pointer.
func indexPointer(ptr string, i int) string {
	return ptr + "/" + strconv.Itoa(i)
}

// fromSchemaLocation converts an instance location reported by the
// jsonschema validator into a plain JSON pointer. The validator URL-escapes
// each token on top of the RFC 6901 escaping (a key "max size" shows up as
// "max%20size"), which would make pointers in problems differ from the keys
// the operator wrote.
func fromSchemaLocation(loc string) string {
	loc = strings.TrimPrefix(loc, "#")
	if loc == "" {
		return ""
	}
	tokens := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	var b strings.Builder
	for _, tok := range tokens {
		if unescaped, err := url.PathUnescape(tok); err == nil {
			tok = unescaped
		}
		b.WriteByte('/')
		b.WriteString(tok)
	}
	return b.String()
}

// parentPointer drops the last token, so a line can be found for a value
// that is not in the file (a filled-in default) via its nearest ancestor.
func parentPointer(ptr string) (string, bool) {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return "", false
	}
	return ptr[:i], true
}

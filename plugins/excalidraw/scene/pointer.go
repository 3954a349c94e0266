package scene

import (
	"strconv"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
)

// pointer builds a JSON pointer (RFC 6901) from reference tokens, so a
// diagnostic can say exactly which value of the document is wrong. Tokens
// are strings (member names) or ints (array positions).
func pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch v := t.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(jsonpointer.Escape(v))
		}
	}
	return b.String()
}

// elementPointer points into the i-th element.
func elementPointer(i int, tokens ...any) string {
	return pointer(append([]any{"elements", i}, tokens...)...)
}

package engine

import (
	"strconv"
	"strings"
)

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// escape makes k one JSON pointer (RFC 6901) token.
func escape(k string) string { return pointerEscaper.Replace(k) }

// opPointer is the pointer of operation i of an Apply request.
func opPointer(i int) string { return "/operations/" + strconv.Itoa(i) }

package engine

import (
	"strconv"

	"github.com/dshgo/dsh/internal/jsonpointer"
)

// escape makes k one JSON pointer (RFC 6901) token.
func escape(k string) string { return jsonpointer.Escape(k) }

// opPointer is the pointer of operation i of an Apply request.
func opPointer(i int) string { return "/operations/" + strconv.Itoa(i) }

package engine

import (
	"strconv"
)

// opPointer is the pointer of operation i of an Apply request.
func opPointer(i int) string { return "/operations/" + strconv.Itoa(i) }

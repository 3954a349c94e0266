package engine

import (
	"testing"

	"github.com/dshgo/dsh/internal/jsonpointer"
)

func TestPointerTokens(t *testing.T) {
	if jsonpointer.Escape("a/b~c") != "a~1b~0c" || opPointer(12) != "/operations/12" {
		t.Fatal(jsonpointer.Escape("a/b~c"), opPointer(12))
	}
	if listOf([]string{"a", "b"}) != `"a", "b"` || fmtNum(0.5) != "0.5" {
		t.Fatal("format helpers")
	}
}

package apierr

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorAndAs(t *testing.T) {
	cause := errors.New("EIO")
	e := New(500, "io_error", "the disk failed").With("stage", "write").Wrap(cause)
	if e.Error() != "io_error (500): the disk failed: EIO" || !errors.Is(e, cause) {
		t.Fatalf("%q", e.Error())
	}
	c, ok := As(fmt.Errorf("outer: %w", e))
	if !ok || c.ErrorCode() != "io_error" || c.ErrorMessage() != "the disk failed" || c.HTTPStatus() != 500 ||
		c.ErrorDetails()["stage"] != "write" {
		t.Fatalf("%v %v", ok, c)
	}
	if c, ok := As(errors.New("plain")); ok || c != nil {
		t.Fatal("a plain error is coded")
	}
}

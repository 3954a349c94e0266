package store

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"golang.org/x/sys/unix"
)

func TestErrorFormatsAndUnwraps(t *testing.T) {
	cause := &fs.PathError{Op: "openat", Path: "/x", Err: unix.ENOSPC}
	e := newError(CodeIOError, "write scene", cause).with("stage", "write")
	if e.Error() != "io_error: write scene: openat /x: no space left on device" || e.Status != 500 {
		t.Fatalf("%q %d", e.Error(), e.Status)
	}
	wrapped := fmt.Errorf("outer: %w", e)
	var se *Error
	if !errors.As(wrapped, &se) || se != e || !errors.Is(wrapped, unix.ENOSPC) || CodeOf(wrapped) != CodeIOError {
		t.Fatal("errors.As/Is through *Error failed")
	}
	if CodeOf(errors.New("x")) != "" || CodeOf(nil) != "" {
		t.Fatal("CodeOf of foreign errors")
	}
}

func TestEveryCodeHasAStatus(t *testing.T) {
	want := map[string]int{"invalid_name": 400, "not_found": 404, "already_exists": 409, "revision_conflict": 409,
		"scene_busy": 423, "too_large": 413, "permission_denied": 403, "corrupt_scene": 500, "io_error": 500,
		"invalid_scene": 422, "invalid_request": 400}
	for code, status := range want {
		if statusOf(code) != status || errorf(code, "x").Status != status {
			t.Errorf("%s → %d", code, statusOf(code))
		}
	}
}

func TestFSErrorClassification(t *testing.T) {
	for errno, code := range map[unix.Errno]string{
		unix.ELOOP: CodePermissionDenied, unix.ENOTDIR: CodePermissionDenied, unix.EACCES: CodePermissionDenied,
		unix.EPERM: CodePermissionDenied, unix.EIO: CodeIOError, unix.ENOSPC: CodeIOError,
	} {
		if got := fsError("op", &fs.PathError{Op: "x", Path: "y", Err: errno}).Code; got != code {
			t.Errorf("%v → %s, want %s", errno, got, code)
		}
	}
	inner := errorf(CodeAlreadyExists, "x")
	if fsError("op", inner) != inner {
		t.Fatal("*Error not passed through")
	}
}

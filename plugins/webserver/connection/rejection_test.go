package connection

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestRejectionError(t *testing.T) {
	var err error = reject(http.StatusForbidden, CodeForbiddenHost, "nope")
	if !strings.Contains(err.Error(), CodeForbiddenHost) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("Error() = %q, want code and status", err.Error())
	}
	var rej *Rejection
	if !errors.As(err, &rej) || rej.Message != "nope" {
		t.Fatalf("errors.As failed or lost fields: %#v", rej)
	}
	var nilRej *Rejection
	if nilRej.Error() == "" {
		t.Fatal("nil rejection must still describe itself")
	}
}

func TestUnavailableFailsClosed(t *testing.T) {
	u := Unavailable()
	if u.Status != http.StatusServiceUnavailable || u.Code != CodeAdmissionUnavailable {
		t.Fatalf("Unavailable() = %#v", u)
	}
}

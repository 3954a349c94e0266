package admin_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/admin"
)

// TestPprofForAdmins: an admin gets a goroutine dump and a CPU profile
// that parses as one (a second at once is refused in the error
// contract); a member's session and an anonymous request are refused with
// the contract's codes before anything is profiled.
func TestPprofForAdmins(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := hosttest.Client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}

	r := hosttest.Send(t, c, http.MethodGet, h.URL()+admin.PprofPrefix+"/goroutine?debug=2", "", bearer...)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "goroutine ") || !strings.Contains(r.Body, "net/http.(*Server).Serve") {
		t.Fatalf("goroutine dump: %d %.300s", r.Status, r.Body)
	}
	r = hosttest.Send(t, c, http.MethodGet, h.URL()+admin.PprofPrefix+"/profile?seconds=1", "", bearer...)
	if r.Status != http.StatusOK {
		t.Fatalf("CPU profile: %d %.300s", r.Status, r.Body)
	}
	strs, err := profileStrings([]byte(r.Body))
	if err != nil {
		t.Fatalf("CPU profile: %v", err)
	}
	if !strs["cpu"] || !strs["nanoseconds"] || !strs["samples"] {
		t.Fatalf("CPU profile's sample types: %v", strs)
	}
	// Another CPU profile under way (the test's own: the host runs in
	// this process) refuses this one in the error contract.
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		t.Fatal(err)
	}
	r = hosttest.Send(t, c, http.MethodGet, h.URL()+admin.PprofPrefix+"/profile?seconds=1", "", bearer...)
	pprof.StopCPUProfile()
	if r.Status != http.StatusConflict || r.Code != admin.CodeProfileRefused || !strings.Contains(r.Body, "already in use") {
		t.Fatalf("a second CPU profile at once: %d %.300s", r.Status, r.Body)
	}
	r = hosttest.Send(t, c, http.MethodGet, h.URL()+admin.PprofPrefix+"/", "", bearer...)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "goroutine?debug=1") {
		t.Fatalf("index: %d %.300s", r.Status, r.Body)
	}
	if r = hosttest.Send(t, c, http.MethodGet, h.URL()+admin.PprofPrefix+"/nosuch", "", bearer...); r.Status != http.StatusNotFound || r.Code != "not_found" {
		t.Fatalf("an unknown profile: %d %s", r.Status, r.Body)
	}

	member(t, h, "bob", "correct horse battery")
	bob := signIn(t, c, h, "bob", "correct horse battery")
	for _, path := range []string{"/goroutine?debug=2", "/profile?seconds=1", "/"} {
		r = hosttest.Send(t, c, http.MethodGet, h.URL()+admin.PprofPrefix+path, "", "Cookie", bob, "Origin", h.URL(), "Sec-Fetch-Site", "same-origin")
		if r.Status != http.StatusForbidden || r.Code != admin.CodeAdminRequired {
			t.Errorf("a member, %s: %d %.200s", path, r.Status, r.Body)
		}
		r = hosttest.Send(t, c, http.MethodGet, h.URL()+admin.PprofPrefix+path, "")
		if r.Status != http.StatusUnauthorized || r.Code == "" {
			t.Errorf("anonymous, %s: %d %.200s", path, r.Status, r.Body)
		}
	}
}

// profileStrings reads a pprof profile (gzipped protocol buffers, the
// Profile message of pprof's profile.proto) far enough to know it is
// one: every field well formed to the end, and its string table (field
// 6), which names the sample types.
func profileStrings(gz []byte) (map[string]bool, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	strs := map[string]bool{}
	fields := 0
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("a bad field key")
		}
		b = b[n:]
		switch key & 7 {
		case 0: // varint
			if _, n = binary.Uvarint(b); n <= 0 {
				return nil, errors.New("a bad varint")
			}
			b = b[n:]
		case 2: // bytes
			size, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < size {
				return nil, errors.New("a bad length")
			}
			if key>>3 == 6 {
				strs[string(b[n:n+int(size)])] = true
			}
			b = b[n+int(size):]
		default:
			return nil, errors.New("a wire type profile.proto does not use")
		}
		fields++
	}
	if fields == 0 || !strs[""] {
		return nil, errors.New("no profile: no fields, or a string table without its empty first string")
	}
	return strs, nil
}

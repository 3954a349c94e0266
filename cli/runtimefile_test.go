package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRuntimeFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadRuntimeFile(dir); err == nil {
		t.Fatal("missing file must be an error")
	}
	in := RuntimeInfo{URL: "http://127.0.0.1:1", PID: os.Getpid(), Token: "dsh_x", StartedAt: time.Now().UTC().Truncate(time.Second)}
	path, err := WriteRuntimeFile(dir, in)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v err %v", st.Mode(), err)
	}
	out, err := ReadRuntimeFile(dir)
	if err != nil || out != in {
		t.Fatalf("read %+v, %v", out, err)
	}
	RemoveRuntimeFile(dir, in.PID+1) // someone else's: kept
	if _, err := os.Stat(path); err != nil {
		t.Fatal("removed another process's file")
	}
	RemoveRuntimeFile(dir, in.PID)
	if _, err := os.Stat(filepath.Join(dir, RuntimeFileName)); !os.IsNotExist(err) {
		t.Fatal("file not removed")
	}
}

// TestRuntimeFileMissingIsNoHost: the CLI tells "no host runs here" (edit
// the sessions file directly) from a runtime file it cannot read.
func TestRuntimeFileMissingIsNoHost(t *testing.T) {
	_, err := ReadRuntimeFile(t.TempDir())
	if !errors.Is(err, ErrNoHost) || !strings.Contains(err.Error(), "dsh serve") {
		t.Fatalf("got %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, RuntimeFileName), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRuntimeFile(dir); err == nil || errors.Is(err, ErrNoHost) {
		t.Fatalf("a corrupt runtime file is not \"no host\": %v", err)
	}
}

//go:build linux

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// openPTY is a new pseudo-terminal: the side a program writes to (a
// terminal to it) and the side that reads what it wrote.
func openPTY(t *testing.T) (term, reader *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(); _ = m.Close() })
	return s, m
}

// On a terminal, dsh board export shows the boards done of all, the
// bytes and the time left, and then clears its line; the summary still goes to standard
// output.
func TestBoardExportProgressOnATerminal(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, _ := serve(t, cfg)
	c := browser(t)
	for _, b := range []string{"alpha", "beta", "gamma"} {
		if _, err := run(t, context.Background(), "board", "create", b, "--config", cfg); err != nil {
			t.Fatal(err)
		}
		putScene(t, c, info, b, "box-"+b)
	}
	term, reader := openPTY(t)
	seen := make(chan []byte)
	go func() {
		var b bytes.Buffer
		_, _ = io.Copy(&b, reader) // ends with EIO once term is closed
		seen <- b.Bytes()
	}()
	var out dshtest.Buffer
	root := newRoot()
	root.SetArgs([]string{"board", "export", "--all", "--out", filepath.Join(t.TempDir(), "out"), "--config", cfg})
	root.SetOut(&out)
	root.SetErr(term)
	err := root.ExecuteContext(context.Background())
	_ = term.Close()
	shown := string(<-seen)
	if err != nil || !strings.HasPrefix(out.String(), "exported 3 boards, ") {
		t.Fatalf("export: %v\n%s", err, out.String())
	}
	if !strings.Contains(shown, "\rexported 1/3 boards, ") || !strings.Contains(shown, " left)") || !strings.HasSuffix(shown, "\r\x1b[K") {
		t.Fatalf("the terminal showed %q, want the boards done of all and a cleared line", shown)
	}
}

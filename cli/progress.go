package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// progress counts the files and bytes long work (backup, restore,
// migrate) has done: on a terminal it shows them as it goes, on standard
// error; in any case it ends with one summary line on standard output.
type progress struct {
	verb        string
	noun        string // what is counted: files, which have bytes, or items
	tty         io.Writer
	start, last time.Time
	files       int
	bytes       int64
}

// newProgress is a progress whose summary says "<verb> N files, ...".
func newProgress(cmd *cobra.Command, verb string) *progress {
	return newCounter(cmd, verb, "files")
}

// newCounter is a progress of things called noun; only files have bytes.
func newCounter(cmd *cobra.Command, verb, noun string) *progress {
	p := &progress{verb: verb, noun: noun, start: time.Now()}
	if f, ok := cmd.ErrOrStderr().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = f
	}
	return p
}

// add counts one file of size bytes.
func (p *progress) add(size int64) {
	p.files++
	p.bytes += size
	if p.tty == nil || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.tty, "\r%s %s (%s)\x1b[K", p.verb, p.counts(), time.Since(p.start).Round(time.Second))
}

// counts is "N files, X MiB", or "N items" for what has no bytes.
func (p *progress) counts() string {
	if p.noun != "files" {
		return fmt.Sprintf("%d %s", p.files, p.noun)
	}
	return fmt.Sprintf("%d files, %s", p.files, byteCount(p.bytes))
}

// clear clears the terminal's line, before other output.
func (p *progress) clear() {
	if p.tty != nil {
		fmt.Fprint(p.tty, "\r\x1b[K")
	}
}

// finish clears the terminal's line and prints the summary.
func (p *progress) finish(cmd *cobra.Command, where string) {
	p.clear()
	fmt.Fprintf(cmd.OutOrStdout(), "%s %s in %s: %s\n", p.verb, p.counts(), time.Since(p.start).Round(time.Millisecond), where)
}

// byteCount is n in bytes, KiB, MiB or GiB.
func byteCount(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	d, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 2; m /= unit {
		d *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(d), "KMG"[exp])
}

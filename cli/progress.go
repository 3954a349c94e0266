package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// progress counts what long work (backup, restore, migrate, export) has
// done: on a terminal it shows the counts as it goes, on standard error,
// with the time left when it knows how many there are; in any case it
// ends with one summary line on standard output.
type progress struct {
	verb        string
	noun        string // what is counted
	sized       bool   // the things counted have bytes
	total       int    // how many there are to do (0: not known)
	tty         io.Writer
	start, last time.Time
	files       int
	bytes       int64
	skipped     int // passed over as done already (a re-run's)
}

// ProgressHook, when set, is called after each thing a long command
// counts, with the command's verb ("backed up", "migrated", "exported",
// "copied into the database") and how many it has done so far. It is for
// tests, which interrupt a command at a chosen point with it; dsh leaves
// it nil.
var ProgressHook func(verb string, done int)

// newProgress is a progress whose summary says "<verb> N files, ...".
func newProgress(cmd *cobra.Command, verb string) *progress {
	p := newCounter(cmd, verb, "files")
	p.sized = true
	return p
}

// newCounter is a progress of things called noun, which have no bytes.
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
	p.show()
}

// skip counts one thing passed over because it was done already.
func (p *progress) skip() {
	p.skipped++
	p.show()
}

// show draws the terminal's line (at most ten times a second) and calls
// ProgressHook.
func (p *progress) show() {
	if ProgressHook != nil {
		ProgressHook(p.verb, p.files+p.skipped)
	}
	if p.tty == nil || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.tty, "\r%s %s (%s%s)\x1b[K", p.verb, p.counts(), time.Since(p.start).Round(time.Second), p.left())
}

// left is ", about D left" when the total is known and something is
// done, else "".
func (p *progress) left() string {
	done := p.files + p.skipped
	if p.total <= 0 || done == 0 || done >= p.total {
		return ""
	}
	per := time.Since(p.start) / time.Duration(done)
	return fmt.Sprintf(", about %s left", (per * time.Duration(p.total-done)).Round(time.Second))
}

// counts is "N files, X MiB" ("N/T boards, X MiB" when the total is
// known), or "N items" for what has no bytes, with ", K unchanged" when
// some were skipped.
func (p *progress) counts() string {
	n, count := fmt.Sprint(p.files), p.files
	if p.total > 0 {
		n, count = fmt.Sprintf("%d/%d", p.files+p.skipped, p.total), p.total
	}
	noun := p.noun
	if count == 1 {
		noun = strings.TrimSuffix(noun, "s") // "1 board", "1 file"
	}
	s := n + " " + noun
	if p.sized {
		s += ", " + byteCount(p.bytes)
	}
	if p.skipped > 0 {
		s += fmt.Sprintf(", %d unchanged", p.skipped)
	}
	return s
}

// clear clears the terminal's line, before other output.
func (p *progress) clear() {
	if p.tty != nil {
		fmt.Fprint(p.tty, "\r\x1b[K")
	}
}

// finish clears the terminal's line and prints the summary: "<verb> N
// files, X MiB in D: <where>" (with ", K unchanged" after the bytes when
// some were skipped).
func (p *progress) finish(cmd *cobra.Command, where string) {
	p.clear()
	p.total = 0
	fmt.Fprintf(cmd.OutOrStdout(), "%s %s in %s: %s\n", p.verb, p.counts(), time.Since(p.start).Round(time.Millisecond), where)
}

// Progress is a plugin command's view of the progress of long work
// (`dsh board export`): a live line on a terminal, a summary line.
type Progress struct{ p *progress }

// NewProgress counts total things called noun (0: not known), which
// have bytes when sized; its summary starts with verb.
func NewProgress(cmd *cobra.Command, verb, noun string, total int, sized bool) *Progress {
	p := newCounter(cmd, verb, noun)
	p.total, p.sized = total, sized
	return &Progress{p}
}

// Add counts one thing of size bytes done.
func (p *Progress) Add(size int64) { p.p.add(size) }

// Skip counts one thing passed over as done already.
func (p *Progress) Skip() { p.p.skip() }

// Clear clears the terminal's line, before other output.
func (p *Progress) Clear() { p.p.clear() }

// Counts is the summary's counts so far: "N boards, X MiB, K unchanged".
func (p *Progress) Counts() string {
	total := p.p.total
	p.p.total = 0
	defer func() { p.p.total = total }()
	return p.p.counts()
}

// Finish clears the terminal's line and prints the summary line, ending
// with where.
func (p *Progress) Finish(cmd *cobra.Command, where string) { p.p.finish(cmd, where) }

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

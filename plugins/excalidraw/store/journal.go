package store

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// Journal defaults (JournalOptions' zero values).
const (
	DefaultJournalMaxEntries    = 10000
	DefaultJournalMaxAge        = 90 * 24 * time.Hour
	DefaultJournalMaxImageBytes = 8 << 20
)

// JournalOptions configure each scene's commit journal
// (.dsh-excalidraw/journal/<name>.journal, format in package journal).
type JournalOptions struct {
	// Disabled writes no journal: no history, no restore. For benchmarks
	// and embedders that keep history elsewhere.
	Disabled bool
	// MaxEntries is how many entries per scene are kept (default 10,000;
	// negative: all). Older ones are dropped in batches, so a journal may
	// briefly hold up to a tenth more.
	MaxEntries int
	// MaxAge drops entries older than this (default 90 days; negative:
	// never). The newest entry is always kept.
	MaxAge time.Duration
	// MaxImageBytes caps an entry's before-images, uncompressed (default
	// 8 MiB); above it the entry says they were skipped.
	MaxImageBytes int
}

// WithDefaults is o with its zero values replaced by the defaults, as
// every backend applies them.
func (o JournalOptions) WithDefaults() JournalOptions { return o.withDefaults() }

func (o JournalOptions) withDefaults() JournalOptions {
	if o.MaxEntries == 0 {
		o.MaxEntries = DefaultJournalMaxEntries
	}
	if o.MaxAge == 0 {
		o.MaxAge = DefaultJournalMaxAge
	}
	if o.MaxImageBytes <= 0 {
		o.MaxImageBytes = DefaultJournalMaxImageBytes
	}
	return o
}

// Differ is an optional Codec capability: what changed between two
// documents, element by element, with the affected elements as they were
// before. Without it the journal records commits but not their elements
// (and nothing can be restored from it). before is nil for a new scene.
type Differ interface {
	Diff(before, after []byte) (journal.Changes, error)
}

// commitIDs makes the journal's commit ids: ULIDs, monotonic within the
// process so two commits in one millisecond still sort in order.
var commitIDs = struct {
	sync.Mutex
	src *ulid.MonotonicEntropy
}{src: ulid.Monotonic(rand.Reader, 0)}

// NewCommitID is a new commit id for a commit at at: a ULID, monotonic
// within the process, so every backend's ids sort by time alike.
func NewCommitID(at time.Time) string { return newCommitID(at) }

func newCommitID(at time.Time) string {
	commitIDs.Lock()
	defer commitIDs.Unlock()
	return ulid.MustNew(ulid.Timestamp(at), commitIDs.src).String()
}

// journalHandle is a txn's open journal: the valid end and the newest
// entry, found (and a torn tail truncated) when the txn loaded the scene.
type journalHandle struct {
	f    *os.File
	end  int64
	last *journal.Frame // nil: empty
}

// openJournal opens the txn's journal for appending, creating it, and
// checks its tail: a frame that does not check out is a torn append
// (a crash mid-write), so the file is cut back to its last valid frame.
func (t *txn) openJournal() (*journalHandle, error) {
	f, err := t.s.fs.OpenFile(t.dirs.journal, journalFile(t.name), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fsError("open journal", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fsError("stat journal", err)
	}
	if err := checkJournalFile(t.name, info); err != nil {
		f.Close()
		return nil, err
	}
	j := &journalHandle{f: f, end: info.Size()}
	if j.end == 0 {
		return j, nil
	}
	if j.last, err = journal.Last(f, j.end); err == nil {
		return j, nil
	} else if !errors.Is(err, journal.ErrBadFrame) {
		f.Close()
		return nil, fsError("read journal", err)
	}
	valid, frames, err := journal.Scan(f, j.end, nil)
	if err != nil {
		f.Close()
		return nil, fsError("scan journal", err)
	}
	t.s.log.Warn("journal has a torn tail; cutting it off", zap.String("name", t.name),
		zap.Int64("size", j.end), zap.Int64("validEnd", valid), zap.Int("entries", frames))
	if err := t.truncateJournal(j, valid); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// checkJournalFile refuses anything but a plain single-link file.
func checkJournalFile(name string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return errorf(CodePermissionDenied, "journal of %s is not a regular file", name)
	}
	if _, _, nlink, ok := fileID(info); ok && nlink > 1 {
		return errorf(CodePermissionDenied, "journal of %s has other hard links", name)
	}
	return nil
}

// truncateJournal cuts j back to end (durably) and re-reads its newest
// entry.
func (t *txn) truncateJournal(j *journalHandle, end int64) error {
	if err := j.f.Truncate(end); err != nil {
		return fsError("truncate journal", err)
	}
	if err := t.s.fs.Sync(j.f); err != nil {
		return fsError("fsync journal", err)
	}
	j.end, j.last = end, nil
	if end > 0 {
		last, err := journal.Last(j.f, end)
		if err != nil {
			return fsError("read journal", err)
		}
		j.last = last
	}
	return nil
}

// discardAbove drops the entries of revisions after rev: commits that
// appended their entry but never reached the file (the scene and its
// sidecar say rev).
func (t *txn) discardAbove(rev int64) error {
	j := t.journal
	if j == nil {
		return nil
	}
	for j.last != nil && j.last.Entry.Revision > rev {
		t.s.log.Warn("discarding journal entry of a commit that did not complete", zap.String("name", t.name),
			zap.Int64("revision", j.last.Entry.Revision), zap.String("commit", j.last.Entry.Commit),
			zap.Int64("sceneRevision", rev))
		if err := t.truncateJournal(j, j.last.Offset); err != nil {
			return err
		}
	}
	return nil
}

// entryFor is the journal entry of ch over cur: its record and, through
// the codec's Differ, the changed elements with their before-images.
func (t *txn) entryFor(cur *current, ch change, sha string, now time.Time) (*journal.Entry, *journal.Images) {
	e := t.baseEntry(ch, sha, now)
	switch {
	case ch.create || !cur.exists:
		return t.diffInto(e, nil, ch.data)
	case cur.corrupt == nil:
		e.PreviousRevision = cur.meta.Revision
		return t.diffInto(e, cur.data, ch.data)
	default: // a corrupt file has no elements to compare with
		e.PreviousRevision = cur.meta.Revision
		return e, nil
	}
}

// baseEntry is the record of ch without its elements (ImagesUnavailable).
func (t *txn) baseEntry(ch change, sha string, now time.Time) *journal.Entry {
	e := &journal.Entry{
		Commit: newCommitID(now), Seq: 1, Scene: t.name, Revision: ch.revision, SHA256: sha,
		ByteLength: ch.length(), ElementCount: ch.count, At: formatTime(now),
		Actor: string(ch.actor), Name: ch.attr.Name, Bot: ch.attr.Bot, Person: ch.attr.Person,
		PersonID: ch.attr.PersonID, Client: ch.attr.Client, Via: ch.attr.Via, Note: ch.attr.Note,
		RequestID: ch.requestID, AccessID: ch.attr.AccessID, Forced: ch.forced, Undoes: ch.attr.Undoes, Mode: ch.attr.Mode,
		Images: journal.ImagesUnavailable,
	}
	if t.journal.last != nil {
		e.Seq = t.journal.last.Entry.Seq + 1
	}
	return e
}

// diffInto adds what changed from before (nil: nothing existed) to
// after, if the codec can tell.
func (t *txn) diffInto(e *journal.Entry, before, after []byte) (*journal.Entry, *journal.Images) {
	return t.recordDiff(e, t.diff(before, after))
}

// diff is what changed from before to after, as the codec tells it (nil
// when it cannot).
func (t *txn) diff(before, after []byte) *journal.Changes {
	d, ok := t.s.opts.Codec.(Differ)
	if !ok {
		return nil
	}
	c, err := d.Diff(before, after)
	if err != nil {
		t.s.log.Warn("journal: cannot tell what changed", zap.String("name", t.name), zap.Error(err))
		return nil
	}
	return &c
}

// recordDiff adds c (nil: not known) to e.
func (t *txn) recordDiff(e *journal.Entry, c *journal.Changes) (*journal.Entry, *journal.Images) {
	if c == nil {
		return e, nil
	}
	return e, e.Record(c, t.s.opts.Journal.MaxImageBytes)
}

// appendEntry writes e durably at the journal's end. The caller keeps
// the previous end to cut it back if the commit fails after all.
func (t *txn) appendEntry(e *journal.Entry, im *journal.Images) (*journal.Frame, error) {
	run, err := t.appendEntries([]*journal.Entry{e}, []*journal.Images{im})
	if err != nil {
		return nil, err
	}
	return run.last, nil
}

// appendedRun is where a commit's entries are in the journal: the offset
// the first starts at (the journal is cut back to it if the commit
// fails) and the last one's frame.
type appendedRun struct {
	start int64
	last  *journal.Frame
}

// appendEntries writes es (with their images ims) durably at the
// journal's end, in one write and one fsync.
func (t *txn) appendEntries(es []*journal.Entry, ims []*journal.Images) (*appendedRun, error) {
	j := t.journal
	var buf []byte
	var last *journal.Frame
	for i, e := range es {
		frame, err := journal.Encode(e, ims[i])
		if err != nil {
			return nil, newError(CodeIOError, "encode journal entry", err)
		}
		last = &journal.Frame{Offset: j.end + int64(len(buf)), Length: int64(len(frame)), Entry: *e}
		if buf == nil && len(es) == 1 {
			buf = frame
		} else {
			buf = append(buf, frame...)
		}
	}
	if _, err := j.f.Seek(j.end, 0); err != nil {
		return nil, fsError("seek journal", err)
	}
	if _, err := t.s.fs.Write(j.f, buf); err != nil {
		_ = j.f.Truncate(j.end)
		return nil, fsError("append journal", err).with("stage", "journal")
	}
	if err := t.s.fs.Sync(j.f); err != nil {
		_ = j.f.Truncate(j.end)
		return nil, fsError("fsync journal", err).with("stage", "journal")
	}
	return &appendedRun{start: j.end, last: last}, nil
}

// groupEntries are the journal entries of ch over cur: one for each of
// a group's prior writes (each over the one before it), then ch's own.
func (t *txn) groupEntries(cur *current, ch change, sha string, now time.Time) ([]*journal.Entry, []*journal.Images) {
	if len(ch.prior) == 0 {
		e, im := t.entryFor(cur, ch, sha, now)
		return []*journal.Entry{e}, []*journal.Images{im}
	}
	es := make([]*journal.Entry, 0, len(ch.prior)+1)
	ims := make([]*journal.Images, 0, len(ch.prior)+1)
	prevRev := cur.meta.Revision
	steps := append(ch.prior[:len(ch.prior):len(ch.prior)], ch)
	for k, st := range steps {
		stSHA := st.sha
		if k == len(steps)-1 {
			stSHA = sha
		}
		e := t.baseEntry(st, stSHA, now)
		e.Seq += int64(k)
		e.PreviousRevision = prevRev
		e, im := t.recordDiff(e, st.changes) // told as UpdateGroup made the step
		es, ims = append(es, e), append(ims, im)
		prevRev = st.revision
	}
	return es, ims
}

// appended moves the journal past a committed frame and applies the
// retention rules.
func (t *txn) appended(f *journal.Frame) {
	j := t.journal
	j.end, j.last = f.End(), f
	t.retain()
}

// retain drops the oldest entries once there are more than MaxEntries
// (plus a tenth, so the rewrite is rare) or the oldest is older than
// MaxAge. It rewrites the journal without them, atomically, under the
// txn's lock; a failure only leaves the journal longer (logged).
func (t *txn) retain() {
	o, j := t.s.opts.Journal, t.journal
	if j.last == nil {
		return
	}
	// Look every few commits (at most every slack-th, so the count stays
	// within its slack) and at most hourly for age: reading the first
	// entry is cheap but not free.
	slack := int64(max(o.MaxEntries/10, 1))
	now := t.s.opts.Now()
	ageDue := false
	if o.MaxAge > 0 {
		last, seen := t.s.agedAt.Load(t.name)
		ageDue = !seen || now.Sub(last.(time.Time)) >= time.Hour
	}
	if j.last.Entry.Seq%min(slack, 32) != 0 && !ageDue {
		return
	}
	if ageDue {
		t.s.agedAt.Store(t.name, now)
	}
	first, err := journal.ReadAt(j.f, 0, j.end)
	if err != nil {
		return
	}
	count := j.last.Entry.Seq - first.Entry.Seq + 1
	tooMany := o.MaxEntries > 0 && count > int64(o.MaxEntries)+slack
	var cutoff time.Time
	tooOld := false
	if o.MaxAge > 0 {
		cutoff = now.Add(-o.MaxAge)
		if at, err := time.Parse(time.RFC3339Nano, first.Entry.At); err == nil && at.Before(cutoff) {
			tooOld = true
		}
	}
	if !tooMany && !tooOld {
		return
	}
	// Walk back from the newest, keeping at most MaxEntries younger than
	// the cutoff; cut is where the oldest kept entry starts.
	cut, kept := j.end, 0
	_ = journal.Backward(j.f, j.end, func(f *journal.Frame) bool {
		if kept > 0 && o.MaxEntries > 0 && kept >= o.MaxEntries {
			return false
		}
		if at, err := time.Parse(time.RFC3339Nano, f.Entry.At); kept > 0 && tooOld && err == nil && at.Before(cutoff) {
			return false
		}
		cut, kept = f.Offset, kept+1
		return true
	})
	if cut == 0 {
		return
	}
	rest := make([]byte, j.end-cut)
	if _, err := j.f.ReadAt(rest, cut); err != nil {
		t.s.log.Warn("journal retention: read", zap.String("name", t.name), zap.Error(err))
		return
	}
	if err := t.s.writeAtomic(t.dirs.journal, journalFile(t.name), rest, 0o600, false); err != nil {
		t.s.log.Warn("journal retention: rewrite", zap.String("name", t.name), zap.Error(err))
		return
	}
	t.s.log.Info("journal retention dropped old entries", zap.String("name", t.name),
		zap.Int64("dropped", count-int64(kept)), zap.Int("kept", kept))
	// The txn's handle is the old file now; reopen the new one.
	j.f.Close()
	nj, err := t.openJournal()
	if err != nil {
		t.journal = nil
		t.s.log.Warn("journal retention: reopen", zap.String("name", t.name), zap.Error(err))
		return
	}
	t.journal = nj
}

// closeJournal releases the txn's journal handle.
func (t *txn) closeJournal() {
	if t.journal != nil {
		t.journal.f.Close()
		t.journal = nil
	}
}

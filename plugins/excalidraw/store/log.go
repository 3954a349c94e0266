package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// Log page sizes.
const (
	DefaultLogLimit = 20
	MaxLogLimit     = 200
)

// LogQuery selects a scene's journal entries, newest first. Every filter
// is optional; they combine with AND.
type LogQuery struct {
	Name string
	// Cursor continues a previous page (LogPage.Next).
	Cursor string
	// Actor is a kind ("agent", "ui", "recovery", "system"), a name (the
	// writer's, bot's or person's), a person's id or a client's name.
	Actor string
	// Element keeps the commits that changed this element id.
	Element string
	// Since and Until bound the commit time (inclusive).
	Since, Until time.Time
	// MinRevision and MaxRevision bound the revision (inclusive; 0: open).
	MinRevision, MaxRevision int64
	// Limit is the page size: default DefaultLogLimit, at most MaxLogLimit.
	Limit int
}

// LogPage is one page of a scene's journal.
type LogPage struct {
	Entries []journal.Entry
	// Next is the cursor of the following (older) page; "" at the end.
	Next string
	// Revision is the scene's revision the page was read at: entries of
	// later revisions (commits still in flight) are not shown.
	Revision int64
}

// Log reads a page of a scene's journal, newest first, without a lock:
// the journal is only appended to (or replaced whole by retention), and
// entries above the sidecar's revision belong to commits not yet
// complete, so they are left out.
func (s *Store) Log(ctx context.Context, q LogQuery) (*LogPage, error) {
	limit, err := q.PageSize()
	if err != nil {
		return nil, err
	}
	end, commit, err := ParseLogCursor(q.Cursor)
	if err != nil {
		return nil, err
	}
	page := &LogPage{Entries: []journal.Entry{}}
	err = s.reading(ctx, q.Name, func(dirs *metaDirs) error {
		head, f, size, err := s.openLog(dirs, q.Name)
		if err != nil || f == nil {
			return err
		}
		defer f.Close()
		page.Revision = head
		if q.Cursor != "" {
			if end, err = resume(f, size, end, commit); err != nil {
				return err
			}
		} else {
			end = size
		}
		var last *journal.Frame
		full := false
		err = walkBack(f, end, func(fr *journal.Frame) bool {
			if q.MinRevision > 0 && fr.Entry.Revision < q.MinRevision {
				return false // entries run newest first: none older can match
			}
			if fr.Entry.Revision > head || !q.Matches(&fr.Entry) {
				return true
			}
			if len(page.Entries) == limit {
				full = true
				return false
			}
			page.Entries = append(page.Entries, fr.Entry)
			last = fr
			return true
		})
		if full && last != nil {
			page.Next = LogCursor(last.Offset, last.Entry.Commit)
		}
		return err
	})
	return page, err
}

// Commit reads one journal entry with its images (nil when it kept none).
// An unknown id is not_found.
func (s *Store) Commit(ctx context.Context, name, id string) (*journal.Entry, *journal.Images, error) {
	var entry *journal.Entry
	var images *journal.Images
	err := s.reading(ctx, name, func(dirs *metaDirs) error {
		head, f, size, err := s.openLog(dirs, name)
		if err != nil {
			return err
		}
		if f == nil {
			return unknownCommit(name, id)
		}
		defer f.Close()
		var found *journal.Frame
		if err := walkBack(f, size, func(fr *journal.Frame) bool {
			if fr.Entry.Commit == id && fr.Entry.Revision <= head {
				found = fr
				return false
			}
			return true
		}); err != nil {
			return err
		}
		if found == nil {
			return unknownCommit(name, id)
		}
		im, err := found.Images(f)
		if err != nil {
			return fsError("read journal images", err)
		}
		entry, images = &found.Entry, im
		return nil
	})
	return entry, images, err
}

// UnknownCommit is the not_found of a commit id that is not in a scene's
// journal (never was, or retention dropped it).
func UnknownCommit(name, id string) *Error { return unknownCommit(name, id) }

func unknownCommit(name, id string) *Error {
	return errorf(CodeNotFound, "commit %q is not in the journal of %s", id, name).with("name", name).with("commit", id)
}

// openLog opens a scene's journal for reading; f is nil when there is
// none. head is the sidecar's revision (0 without one).
func (s *Store) openLog(dirs *metaDirs, name string) (head int64, f *os.File, size int64, err error) {
	side, err := s.readSidecar(dirs.meta, name)
	if err != nil {
		return 0, nil, 0, err
	}
	if side.parsed != nil {
		head = side.parsed.Revision
	}
	f, err = s.fs.OpenFile(dirs.journal, journalFile(name), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if head == 0 {
			if _, _, err := s.readScene(name); errors.Is(err, fs.ErrNotExist) {
				return 0, nil, 0, notFoundError(name)
			}
		}
		return head, nil, 0, nil
	}
	if err != nil {
		return 0, nil, 0, fsError("open journal", err)
	}
	info, err := f.Stat()
	if err == nil {
		err = checkJournalFile(name, info)
	}
	if err != nil {
		f.Close()
		return 0, nil, 0, err
	}
	return head, f, info.Size(), nil
}

// walkBack is journal.Backward that also reads past a tail it cannot walk
// (a torn append not yet cut off, or one being written right now): it
// then scans the file forward and visits the valid frames newest first.
func walkBack(f *os.File, end int64, fn func(*journal.Frame) bool) error {
	stopped := int64(-1)
	err := journal.Backward(f, end, func(fr *journal.Frame) bool {
		stopped = fr.Offset
		return fn(fr)
	})
	if !errors.Is(err, journal.ErrBadFrame) {
		return err
	}
	if stopped >= 0 {
		end = stopped
	}
	var frames []*journal.Frame
	if _, _, err := journal.Scan(f, end, func(fr *journal.Frame) bool {
		frames = append(frames, fr)
		return true
	}); err != nil {
		return err
	}
	for _, fr := range slices.Backward(frames) {
		if !fn(fr) {
			return nil
		}
	}
	return nil
}

// PageSize is the page size q asks for: DefaultLogLimit for 0, and
// invalid_request (details: max) outside 1 to MaxLogLimit.
func (q LogQuery) PageSize() (int, error) {
	switch {
	case q.Limit == 0:
		return DefaultLogLimit, nil
	case q.Limit < 0 || q.Limit > MaxLogLimit:
		return 0, errorf(CodeInvalidRequest, "limit must be 1 to %d", MaxLogLimit).with("max", MaxLogLimit)
	}
	return q.Limit, nil
}

// LogCursor is the cursor (LogPage.Next) of a page whose last entry is
// commit, found at pos: where the backend resumes (the file store's
// journal offset, a database's entry number). The caller treats it as
// opaque.
func LogCursor(pos int64, commit string) string {
	return strconv.FormatInt(pos, 36) + "." + commit
}

// ParseLogCursor splits a LogCursor; "" is the first page (0, "").
// Anything else that is not one is invalid_request (details: field).
func ParseLogCursor(c string) (pos int64, commit string, err error) {
	if c == "" {
		return 0, "", nil
	}
	off, commit, ok := strings.Cut(c, ".")
	n, err := strconv.ParseInt(off, 36, 64)
	if !ok || err != nil || n < 0 || commit == "" {
		return 0, "", errorf(CodeInvalidRequest, "cursor %q is not one a log page gave", c).with("field", "cursor")
	}
	return n, commit, nil
}

// CursorGone is the invalid_request of a cursor whose commit is no longer
// in the journal (retention dropped it).
func CursorGone(commit string) *Error {
	return errorf(CodeInvalidRequest, "cursor names commit %s, which is no longer in the journal", commit).with("field", "cursor")
}

// resume finds where a cursor's page ended: at its offset if the frame
// there is still the cursor's commit, else (retention rewrote the file)
// wherever that commit is now.
func resume(f *os.File, size, off int64, commit string) (int64, error) {
	if fr, err := journal.ReadAt(f, off, size); err == nil && fr.Entry.Commit == commit {
		return off, nil
	}
	at := int64(-1)
	if err := walkBack(f, size, func(fr *journal.Frame) bool {
		if fr.Entry.Commit == commit {
			at = fr.Offset
			return false
		}
		return true
	}); err != nil {
		return 0, err
	}
	if at < 0 {
		return 0, CursorGone(commit)
	}
	return at, nil
}

// Matches reports whether e passes every filter of q (Name, Cursor and
// Limit aside): the one definition of the filters, which every backend
// applies.
func (q LogQuery) Matches(e *journal.Entry) bool {
	if q.Actor != "" && q.Actor != e.Actor && q.Actor != e.Name && q.Actor != e.Bot && q.Actor != e.Person &&
		q.Actor != e.PersonID && q.Actor != e.Client {
		return false
	}
	if q.MinRevision > 0 && e.Revision < q.MinRevision || q.MaxRevision > 0 && e.Revision > q.MaxRevision {
		return false
	}
	if !q.Since.IsZero() || !q.Until.IsZero() {
		at, err := time.Parse(time.RFC3339Nano, e.At)
		if err != nil || (!q.Since.IsZero() && at.Before(q.Since)) || (!q.Until.IsZero() && at.After(q.Until)) {
			return false
		}
	}
	return q.Element == "" || e.Touches(q.Element)
}

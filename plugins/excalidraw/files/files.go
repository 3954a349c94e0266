// Package files is the Excalidraw plugin's file service: the opaque bytes
// (already encrypted and compressed by the client) that boards' image
// elements point at, stored and returned verbatim.
//
// Files have logical paths (see ParsePath): rooms/{board}/{rest…} for a
// board's files, shareLinks/{rest…} for share links'. Who may read or
// write which is decided by the caller (the HTTP routes ask the scene
// service); this package only keeps the bytes.
//
// A Backend keeps them: Store, a directory on the local disk (Open), or
// PGStore, a table of a PostgreSQL database that every node of a cluster
// shares (OpenPostgres). Both have the same size cap, the same errors and
// the same writes: the first Put at a path creates the file (created is
// true for exactly one of racing first writers, on PostgreSQL and on
// Linux), a later one replaces a board's file whole and reports created
// false (one of the same bytes and type changes nothing a reader can
// see), and a refused or failed Put leaves the path as it was. Share
// links' files, which anyone may write, are create-only and capped in
// total (see sharelinks.go); a Limiter bounds each client address's
// uploads. List, Restore, Copy and CopyAll move every file from one
// backend to another verbatim, for migrating.
//
// The rest of this comment is the directory backend's; it keeps every
// file inside its directory whatever the path says.
//
// # Layout
//
//	<dir>/rooms/<board>/<sha256(logical path)>.dshfile
//	<dir>/shareLinks/<sha256(logical path)>.dshfile
//
// Only three kinds of name ever reach the filesystem: the two fixed area
// directories, a board name that passed store.ValidName (lower-case ASCII,
// no ".."), and 64 hex digits. The client's segments are never used as
// file names, so no spelling of them (dots, case on a case-insensitive
// disk, Unicode, length) can name anything else. Every directory is opened
// relative to the handle of the one above with O_NOFOLLOW|O_DIRECTORY,
// starting from a handle on <dir> taken at Open: a symlink anywhere on the
// way is refused (permission_denied), never followed. Every filesystem
// operation goes through a store.FS, the scene store's symlink-safe
// directory-handle seam (Config.FS), so tests can inject faults; only
// the temporary file's own chmod, stat and, for Restore, its dating do
// not.
//
// # File format
//
// Each file holds its data and, after it, what is known about it:
//
//	data (N bytes) ‖ meta JSON (M bytes) ‖ M (uint32, big-endian) ‖ "DSHFILE1"
//
// where the meta JSON is {"v":1,"path","contentType","size":N,"sha256"}.
// Keeping the content type and hash in the same file as the bytes is what
// makes a replacement atomic as a whole: a write fills a temporary file in
// the same directory, fsyncs it, renames it over the old one and fsyncs
// the directory, so a reader opens either the old file or the new one and
// never pairs one write's bytes with another's type or hash. Concurrent
// writes to one path: the last rename wins, nothing is torn. The meta
// comes after the data so that a write streams the body once, hashing it
// as it goes, without holding it in memory.
package files

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Size bounds of Config.MaxFileBytes.
const (
	DefaultMaxFileBytes int64 = 4 << 20
	MinMaxFileBytes     int64 = 1 << 10
	MaxMaxFileBytes     int64 = 64 << 20
)

// LimitName names the size limit in too_large errors, as its key in the
// plugin's configuration.
const LimitName = "files.maxFileBytes"

const (
	fileExt   = ".dshfile"
	tmpPrefix = ".tmp-"
	magic     = "DSHFILE1"
	tailLen   = 4 + len(magic)
	maxMeta   = 4 << 10
	formatV   = 1
	dirPerm   = 0o700
	filePerm  = 0o600
)

// Backend is a file store, as the file service's routes and the
// migration between stores use it. *Store (a directory) and *PGStore
// (PostgreSQL) implement it alike.
type Backend interface {
	// MaxFileBytes is the largest file Put accepts.
	MaxFileBytes() int64
	// Put stores the data read from body as the file at p (see
	// Store.Put): the body is read to at most MaxFileBytes plus one
	// byte, and nothing is stored unless all of it was read and is
	// within the cap. created reports whether there was no file at p.
	// At a share link's path there must be none (already_exists, told
	// before the body is read), and the file must fit in
	// MaxShareLinkBytes with the share links' others
	// (insufficient_storage).
	Put(ctx context.Context, p Path, contentType string, size int64, body io.Reader) (info Info, created bool, err error)
	// Get opens the file at p, one whole write of it: not_found if
	// there is none.
	Get(ctx context.Context, p Path) (*File, error)
	// Stat is the Info of the file at p: not_found if there is none.
	Stat(ctx context.Context, p Path) (Info, error)
	// List yields the Info of every stored file, in order of path. A
	// file that cannot be read yields an error, and the listing goes on
	// if the caller does.
	List(ctx context.Context) iter.Seq2[Info, error]
	// Restore stores body as the file at info.Path with info's content
	// type and modification time, for copying a file from another
	// backend: body must be exactly info.Size bytes hashing to
	// info.SHA256, or nothing is stored. When the file there already has
	// that size, hash and content type it does nothing (and reads
	// nothing) and reports false.
	Restore(ctx context.Context, info Info, body io.Reader) (copied bool, err error)
	// Close releases what the backend holds.
	Close() error
}

var (
	_ Backend = (*Store)(nil)
	_ Backend = (*PGStore)(nil)
)

// Config configures Open and OpenPostgres.
type Config struct {
	// Dir is the files directory; created (0700) if missing, its parent
	// too. It must not be a symlink. OpenPostgres ignores it.
	Dir string
	// MaxFileBytes bounds one file's data; 0 is DefaultMaxFileBytes.
	MaxFileBytes int64
	// MaxShareLinkBytes bounds the data of all share links' files
	// together; 0 is DefaultMaxShareLinkBytes.
	MaxShareLinkBytes int64
	// FS is the filesystem seam, for fault injection; nil is
	// store.OSFS(). It must not follow symlinks (see store.FS).
	// OpenPostgres ignores it.
	FS store.FS
}

// Store is the directory backend: files kept in one directory of the
// local disk.
type Store struct {
	dir   string
	fs    store.FS
	root  *os.File
	max   int64
	share shareTotal
}

// shareTotal is what the share links' files hold, counted once from
// the directory (on the first share-link write) and then kept up to date
// by this process's writes; reserved is what writes in progress may
// still add. The files directory is this process's (one dsh serve per
// data directory).
type shareTotal struct {
	mu       sync.Mutex
	max      int64
	loaded   bool
	used     int64
	reserved int64
}

// Info is what is known about a stored file.
type Info struct {
	// Path is the logical path (Path.String()).
	Path string
	// Size is the data's length in bytes.
	Size int64
	// ContentType is the sanitised media type it was stored with.
	ContentType string
	// SHA256 is the data's hash, lower-case hex.
	SHA256 string
	// ModTime is when it was last written.
	ModTime time.Time
}

// meta is the JSON kept after a file's data.
type meta struct {
	V           int    `json:"v"`
	Path        string `json:"path"`
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
}

// Open opens (creating if missing) the files directory.
func Open(cfg Config) (*Store, error) {
	if cfg.Dir == "" {
		return nil, errors.New("files: Config.Dir is required")
	}
	max, err := maxBytes(cfg)
	if err != nil {
		return nil, err
	}
	shareMax, err := maxShareBytes(cfg)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("files: directory: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), dirPerm); err != nil {
		return nil, fmt.Errorf("files: directory: %w", err)
	}
	s := &Store{dir: dir, fs: cfg.FS, max: max, share: shareTotal{max: shareMax}}
	if s.fs == nil {
		s.fs = store.OSFS()
	}
	if s.root, _, err = s.ensureDir(nil, dir, true); err != nil {
		return nil, err
	}
	return s, nil
}

// maxBytes is cfg's size cap, checked.
func maxBytes(cfg Config) (int64, error) {
	return positiveOr("MaxFileBytes", cfg.MaxFileBytes, DefaultMaxFileBytes)
}

// maxShareBytes is cfg's cap on share links' files, checked.
func maxShareBytes(cfg Config) (int64, error) {
	return positiveOr("MaxShareLinkBytes", cfg.MaxShareLinkBytes, DefaultMaxShareLinkBytes)
}

// positiveOr is v, or def when v is unset (0); a negative v is refused.
func positiveOr(field string, v, def int64) (int64, error) {
	if v == 0 {
		v = def
	}
	if v < 1 {
		return 0, fmt.Errorf("files: %s must be positive (got %d)", field, v)
	}
	return v, nil
}

// Close releases the directory handle.
func (s *Store) Close() error { return s.root.Close() }

// Dir is the files directory.
func (s *Store) Dir() string { return s.dir }

// MaxFileBytes is the largest file Put accepts.
func (s *Store) MaxFileBytes() int64 { return s.max }

// TooLarge is the too_large error for a file of actual bytes against the
// limit max; over says actual is only what was seen before giving up
// (the file is at least that large).
func TooLarge(actual, max int64, over bool) *sceneerr.Error {
	is := "is"
	if over {
		is = "is more than"
		actual = max + 1
	}
	return sceneerr.New(sceneerr.TooLarge, "the file %s %s bytes; the limit is %s (%s)", is, group(actual), group(max), LimitName).
		With("limit", LimitName).With("max", max).With("actual", actual)
}

// Put stores the data read from body as the file at p, with the content
// type given (sanitised by ContentType), replacing any file there; at a
// share link's path there must be none (already_exists), and the file
// must fit under MaxShareLinkBytes (insufficient_storage), both told
// before the body is read when they can be.
// size is the body's declared length, or -1: a declared length over the
// limit is refused before anything is read or created, and the body is
// read to at most the limit plus one byte either way. created reports
// whether there was no file at p before.
//
// Nothing is visible at p until the whole body has been read, written
// and synced; a failed or cancelled Put leaves p as it was. ctx ending
// (the request's credential revoked, the client gone) before the file is
// in place abandons it.
func (s *Store) Put(ctx context.Context, p Path, contentType string, size int64, body io.Reader) (info Info, created bool, err error) {
	return s.put(ctx, p, contentType, size, body, nil)
}

// put is Put, and with want set Restore's write: the body must be
// want's bytes, and the file gets want's modification time.
func (s *Store) put(ctx context.Context, p Path, contentType string, size int64, body io.Reader, want *Info) (info Info, created bool, err error) {
	if size > s.max {
		return Info{}, false, TooLarge(size, s.max, false)
	}
	if err := ctx.Err(); err != nil {
		return Info{}, false, err
	}
	dir, err := s.openDir(p, true)
	if err != nil {
		return Info{}, false, err
	}
	defer dir.Close()
	name := fileName(p)
	if err := s.checkTarget(dir, name, p); err != nil {
		return Info{}, false, err
	}
	// A share link's file is written once, and within the share links'
	// total: room for it (its declared size, else the cap) is reserved
	// before a byte is read, so uploads at the same moment cannot pass
	// the total between them.
	createOnly := p.Kind == ShareLinks && want == nil
	if createOnly {
		if _, err := s.fs.Lstat(dir, name); err == nil {
			return Info{}, false, exists(p)
		}
		resv := size
		if resv < 0 {
			resv = s.max
		}
		if err := s.share.reserve(s, dir, resv); err != nil {
			return Info{}, false, err
		}
		stored := int64(-1)
		defer func() { s.share.settle(resv, stored) }()
		defer func() {
			if err == nil {
				stored = info.Size
			}
		}()
	}
	tmp, tmpName, err := s.createTemp(dir)
	if err != nil {
		return Info{}, false, err
	}
	committed := false
	defer func() {
		if !committed {
			_ = tmp.Close()
			_ = s.fs.Remove(dir, tmpName)
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(fsWriter{s.fs, tmp}, h), io.LimitReader(ctxReader{ctx, body}, s.max+1))
	if err != nil {
		return Info{}, false, fmt.Errorf("files: write %s: %w", p, err)
	}
	if n > s.max {
		return Info{}, false, TooLarge(n, s.max, true)
	}
	if createOnly && n > size && size >= 0 {
		// More than declared: room for the rest too.
		if err := s.share.reserve(s, dir, n-size); err != nil {
			return Info{}, false, err
		}
		defer s.share.settle(n-size, -1)
	}
	m := meta{V: formatV, Path: p.String(), ContentType: ContentType(contentType), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
	if want != nil && (m.Size != want.Size || m.SHA256 != want.SHA256) {
		return Info{}, false, mismatch(p)
	}
	if _, err := s.fs.Write(tmp, encodeTail(m)); err != nil {
		return Info{}, false, fmt.Errorf("files: write %s: %w", p, err)
	}
	if err := tmp.Chmod(filePerm); err != nil {
		return Info{}, false, fmt.Errorf("files: write %s: %w", p, err)
	}
	if want != nil {
		if err := store.SetModTime(dir, tmpName, want.ModTime); err != nil {
			return Info{}, false, fmt.Errorf("files: write %s: %w", p, err)
		}
	}
	if err := s.fs.Sync(tmp); err != nil {
		return Info{}, false, fmt.Errorf("files: sync %s: %w", p, err)
	}
	st, err := tmp.Stat()
	if err != nil {
		return Info{}, false, fmt.Errorf("files: write %s: %w", p, err)
	}
	if err := ctx.Err(); err != nil {
		return Info{}, false, err
	}
	committed = true
	if err := tmp.Close(); err != nil {
		_ = s.fs.Remove(dir, tmpName)
		return Info{}, false, fmt.Errorf("files: write %s: %w", p, err)
	}
	if createOnly {
		// The rename that refuses to replace: of two first writes of one
		// share link, the second is already_exists.
		err = s.fs.Rename(dir, tmpName, name, true)
		created = err == nil
		if errors.Is(err, fs.ErrExist) {
			_ = s.fs.Remove(dir, tmpName)
			return Info{}, false, exists(p)
		}
	} else {
		created, err = s.install(dir, tmpName, name)
	}
	if err != nil {
		_ = s.fs.Remove(dir, tmpName)
		return Info{}, false, fmt.Errorf("files: rename %s: %w", p, err)
	}
	if p.Kind == ShareLinks && want != nil {
		s.share.forget() // a restore may replace: counted afresh
	}
	if err := s.fs.Sync(dir); err != nil {
		return Info{}, false, fmt.Errorf("files: sync directory of %s: %w", p, err)
	}
	return m.info(st.ModTime()), created, nil
}

// install renames tmpName over name inside dir (a rename never follows a
// symlink at name: it would replace the link itself) and reports whether
// there was no file at name before. The rename that refuses to replace
// comes first, so that of two first writes racing exactly one reports
// created where the filesystem can refuse atomically (store.FS falls back
// to looking just before renaming elsewhere); fs.ErrExist from it means
// there is a file to replace.
func (s *Store) install(dir *os.File, tmpName, name string) (created bool, err error) {
	err = s.fs.Rename(dir, tmpName, name, true)
	if !errors.Is(err, fs.ErrExist) {
		return err == nil, err
	}
	return false, s.fs.Rename(dir, tmpName, name, false)
}

// fsWriter writes to f through the FS seam.
type fsWriter struct {
	fs store.FS
	f  *os.File
}

func (w fsWriter) Write(p []byte) (int, error) { return w.fs.Write(w.f, p) }

// mismatch is Restore's refusal of a body that is not the file listed.
func mismatch(p Path) error {
	return fmt.Errorf("files: restore %s: the bytes read are not the file listed (size or sha256 differs); nothing stored", p)
}

// File is an open stored file: its Info, and its data to read.
type File struct {
	Info
	data  io.Reader
	close func() error
}

// Read reads the file's data (never its meta).
func (f *File) Read(p []byte) (int, error) { return f.data.Read(p) }

// Close closes it.
func (f *File) Close() error {
	if f.close == nil {
		return nil
	}
	return f.close()
}

// Get opens the file at p: not_found if there is none. The file read is
// the one that was at p when Get opened it, whatever is written there
// meanwhile.
func (s *Store) Get(ctx context.Context, p Path) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dir, err := s.openDir(p, false)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	// Non-blocking, so that a FIFO planted there cannot hang the open.
	f, err := s.fs.OpenFile(dir, fileName(p), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, notFound(p)
	case noFollowRefused(err):
		return nil, refused(p, "is a symlink")
	case err != nil:
		return nil, fmt.Errorf("files: open %s: %w", p, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("files: stat %s: %w", p, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, refused(p, "is not a regular file")
	}
	m, err := readTail(f, st.Size(), p)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{Info: m.info(st.ModTime()), data: io.NewSectionReader(f, 0, m.Size), close: f.Close}, nil
}

// Stat is the Info of the file at p: not_found if there is none.
func (s *Store) Stat(ctx context.Context, p Path) (Info, error) {
	f, err := s.Get(ctx, p)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	return f.Info, nil
}

func (m meta) info(mod time.Time) Info {
	return Info{Path: m.Path, Size: m.Size, ContentType: m.ContentType, SHA256: m.SHA256, ModTime: mod}
}

// fileName is p's file name in its directory.
func fileName(p Path) string {
	sum := sha256.Sum256([]byte(p.String()))
	return hex.EncodeToString(sum[:]) + fileExt
}

// openDir opens p's directory below the root, creating what is missing
// when create is set (else a missing one is not_found).
func (s *Store) openDir(p Path, create bool) (*os.File, error) {
	names := []string{shareLinksArea}
	if p.Kind == Rooms {
		names = []string{roomsArea, p.Board}
	} else if p.Kind != ShareLinks {
		return nil, sceneerr.New(sceneerr.NotFound, "no such file")
	}
	dir := s.root
	for _, name := range names {
		next, missing, err := s.ensureDir(dir, name, create)
		if dir != s.root {
			dir.Close()
		}
		if missing {
			return nil, notFound(p)
		}
		if err != nil {
			return nil, err
		}
		dir = next
	}
	return dir, nil
}

// ensureDir opens name inside parent (nil: name is a path) as a
// directory without following a symlink, creating it (0700, and syncing
// parent) first when it is missing and create is set; missing reports a
// directory that is not there when create is not.
func (s *Store) ensureDir(parent *os.File, name string, create bool) (dir *os.File, missing bool, err error) {
	st, err := s.fs.Lstat(parent, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !create {
			return nil, true, nil
		}
		if err := s.fs.Mkdir(parent, name, dirPerm); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, false, fmt.Errorf("files: create directory %s: %w", label(parent, name), err)
		}
		if parent != nil {
			if err := s.fs.Sync(parent); err != nil {
				return nil, false, fmt.Errorf("files: sync directory %s: %w", parent.Name(), err)
			}
		}
	case err != nil:
		return nil, false, fmt.Errorf("files: stat %s: %w", label(parent, name), err)
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, false, sceneerr.New(sceneerr.PermissionDenied, "%s is a symlink; refused", dirLabel(parent, name))
	case !st.IsDir():
		return nil, false, sceneerr.New(sceneerr.PermissionDenied, "%s is not a directory; refused", dirLabel(parent, name))
	}
	// O_NOFOLLOW|O_DIRECTORY is the check that holds even if a symlink
	// replaced the directory after the stat above.
	dir, err = s.fs.OpenDir(parent, name)
	switch {
	case noFollowRefused(err):
		return nil, false, sceneerr.New(sceneerr.PermissionDenied, "%s is not a directory; refused", dirLabel(parent, name))
	case errors.Is(err, fs.ErrNotExist) && !create:
		return nil, true, nil
	case err != nil:
		return nil, false, fmt.Errorf("files: open directory %s: %w", label(parent, name), err)
	}
	return dir, false, nil
}

// noFollowRefused reports an open that O_NOFOLLOW or O_DIRECTORY refused:
// ELOOP (EMLINK on some BSDs) for a symlink, ENOTDIR for something that
// is not a directory.
func noFollowRefused(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) || errors.Is(err, syscall.ENOTDIR)
}

// checkTarget refuses to replace anything at name but a regular file
// (a symlink, a directory, a FIFO planted there).
func (s *Store) checkTarget(dir *os.File, name string, p Path) error {
	st, err := s.fs.Lstat(dir, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("files: stat %s: %w", p, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return refused(p, "is a symlink")
	case !st.Mode().IsRegular():
		return refused(p, "is not a regular file")
	}
	return nil
}

// createTemp creates a new private temporary file in dir.
func (s *Store) createTemp(dir *os.File) (*os.File, string, error) {
	for range 10 {
		var b [12]byte
		_, _ = rand.Read(b[:])
		name := tmpPrefix + hex.EncodeToString(b[:])
		f, err := s.fs.OpenFile(dir, name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("files: create temporary file: %w", err)
		}
		return f, name, nil
	}
	return nil, "", errors.New("files: create temporary file: names exhausted")
}

func encodeTail(m meta) []byte {
	js, _ := json.Marshal(m) // strings and numbers only: cannot fail
	out := make([]byte, 0, len(js)+tailLen)
	out = append(out, js...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(js)))
	return append(out, magic...)
}

// readTail reads and checks the meta of f, a file of size bytes that
// must hold p.
func readTail(f *os.File, size int64, p Path) (meta, error) {
	m, err := readMeta(f, size, p.String())
	if err == nil && m.Path != p.String() {
		return meta{}, fmt.Errorf("files: %s is corrupt: it holds another path", p)
	}
	return m, err
}

// readMeta reads and checks the meta of f, a file of size bytes, whatever
// path it holds; label names it in errors.
func readMeta(f *os.File, size int64, label string) (meta, error) {
	corrupt := func(why string) (meta, error) {
		return meta{}, fmt.Errorf("files: %s is corrupt: %s", label, why)
	}
	if size < int64(tailLen) {
		return corrupt("too short")
	}
	var tail [tailLen]byte
	if _, err := f.ReadAt(tail[:], size-int64(tailLen)); err != nil {
		return meta{}, fmt.Errorf("files: read %s: %w", label, err)
	}
	if string(tail[4:]) != magic {
		return corrupt("no trailer")
	}
	n := int64(binary.BigEndian.Uint32(tail[:4]))
	if n > maxMeta || n > size-int64(tailLen) {
		return corrupt("bad trailer length")
	}
	js := make([]byte, n)
	if _, err := f.ReadAt(js, size-int64(tailLen)-n); err != nil {
		return meta{}, fmt.Errorf("files: read %s: %w", label, err)
	}
	var m meta
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return corrupt("bad meta")
	}
	switch {
	case m.V != formatV:
		return corrupt("unknown format " + strconv.Itoa(m.V))
	case m.Size != size-int64(tailLen)-n:
		return corrupt("size mismatch")
	case len(m.SHA256) != 64:
		return corrupt("bad hash")
	case m.ContentType == "":
		return corrupt("no content type")
	}
	return m, nil
}

// ctxReader stops reading once ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func notFound(p Path) error {
	return sceneerr.New(sceneerr.NotFound, "no file at %s", p).With("path", p.String())
}

func refused(p Path, why string) error {
	return sceneerr.New(sceneerr.PermissionDenied, "the file at %s %s; refused", p, why).With("path", p.String())
}

// label names a file opened relative to dir, for logs and errors.
func label(dir *os.File, name string) string {
	if dir == nil {
		return name
	}
	return filepath.Join(dir.Name(), name)
}

// dirLabel names a directory in an error: below the files directory only
// its name, so a client is never shown where the files are kept (a nil
// parent is the files directory itself, which only Open names).
func dirLabel(parent *os.File, name string) string {
	if parent == nil {
		return "the files directory " + name
	}
	return strconv.Quote(name) + " in the files directory"
}

// group writes n in decimal with commas between thousands.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// reserve makes room for n more bytes of share links' files, counting
// what they hold first if it has not been counted (in dir, the
// shareLinks directory): insufficient_storage when they would pass the
// cap. Each reserve is undone by one settle.
func (t *shareTotal) reserve(s *Store, dir *os.File, n int64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.loaded {
		used, err := s.countShareLinks(dir)
		if err != nil {
			return err
		}
		t.used, t.loaded = used, true
	}
	if t.used+t.reserved+n > t.max {
		return StorageFull(t.used+t.reserved, n, t.max)
	}
	t.reserved += n
	return nil
}

// settle ends a reservation of resv bytes: stored bytes were written
// (-1: none).
func (t *shareTotal) settle(resv, stored int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reserved -= resv
	if stored > 0 && t.loaded {
		t.used += stored
	}
}

// forget has the total counted again from the directory.
func (t *shareTotal) forget() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.loaded = false
}

// countShareLinks adds up the data of the files in dir (the shareLinks
// directory): each file's size as its meta says, or its whole size when
// the meta cannot be read.
func (s *Store) countShareLinks(dir *os.File) (int64, error) {
	names, err := s.fs.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("files: list share links: %w", err)
	}
	var total int64
	for _, name := range names {
		if !strings.HasSuffix(name, fileExt) || strings.HasPrefix(name, tmpPrefix) {
			continue
		}
		f, err := s.fs.OpenFile(dir, name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue // gone, or not a file to count (a symlink)
		}
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if m, err := readMeta(f, st.Size(), name); err == nil {
				total += m.Size
			} else {
				total += st.Size()
			}
		}
		f.Close()
	}
	return total, nil
}

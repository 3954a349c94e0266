// Package exports keeps exported pictures and scenes and hands out links
// to them that are signed (HMAC-SHA256) and expire; a sweep removes
// exports older than the retention.
//
// The exports are kept in a folder of the data directory (Open) or in a
// table of a PostgreSQL database (OpenPostgres). A link is signed by the
// configured secret alone, the same way on both, so on PostgreSQL a link
// one node made opens on any node configured with the same secret. List,
// Copy and CopyAll move exports between the two, for migrating.
package exports

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Formats and their media types.
var mimes = map[string]string{
	"png":        "image/png",
	"svg":        "image/svg+xml",
	"excalidraw": "application/vnd.excalidraw+json",
	"json":       "application/json",
}

// PathPrefix is where links point: GET /exports/<id>?exp=…&sig=….
const PathPrefix = "/exports/"

// Config configures a Store.
type Config struct {
	// Dir is the exports folder (created if missing). OpenPostgres
	// ignores it.
	Dir string
	// Secret signs links; every node on one database needs the same.
	// Empty: a random key for this process, so links stop working when it
	// restarts, and other nodes refuse them (Open logs a warning).
	Secret []byte
	// LinkTTL is how long a link works unless the caller asks for less
	// (0: an hour). MaxTTL bounds what a caller may ask (0: a week).
	LinkTTL, MaxTTL time.Duration
	// Keep is how long a file stays before the sweep removes it (0: a day,
	// and never less than MaxTTL would need).
	Keep   time.Duration
	Now    func() time.Time
	Logger *zap.Logger
	// FS is the filesystem seam of the folder (nil: store.OSFS()); it
	// must not follow symlinks (see store.FS). OpenPostgres ignores it.
	FS store.FS
}

// Store keeps exports and signs links to them. It is safe for concurrent
// use.
type Store struct {
	b      backend
	secret []byte
	ttl    time.Duration
	maxTTL time.Duration
	keep   time.Duration
	now    func() time.Time
	log    *zap.Logger
	// ephemeral: signed with a key of this process only.
	ephemeral bool
}

// Ephemeral reports whether links are signed with a key of this process
// only (no secret configured): they stop working when it restarts.
func (s *Store) Ephemeral() bool { return s.ephemeral }

// Open prepares the folder, and is a Store keeping exports in it.
func Open(cfg Config) (*Store, error) {
	b, err := openDir(cfg.Dir, cfg.FS)
	if err != nil {
		return nil, err
	}
	return newStore(cfg, b, "")
}

// newStore is a Store on b; ephemeralWhy adds to the warning logged when
// no secret is configured.
func newStore(cfg Config, b backend, ephemeralWhy string) (*Store, error) {
	s := &Store{b: b, secret: cfg.Secret, ttl: cfg.LinkTTL, maxTTL: cfg.MaxTTL, keep: cfg.Keep, now: cfg.Now, log: cfg.Logger}
	if s.log == nil {
		s.log = zap.NewNop()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.ttl <= 0 {
		s.ttl = time.Hour
	}
	if s.maxTTL <= 0 {
		s.maxTTL = 7 * 24 * time.Hour
	}
	if s.ttl > s.maxTTL {
		s.ttl = s.maxTTL
	}
	if s.keep <= 0 {
		s.keep = 24 * time.Hour
	}
	if len(s.secret) == 0 {
		s.secret = make([]byte, 32)
		if _, err := rand.Read(s.secret); err != nil {
			return nil, err
		}
		s.ephemeral = true
		s.log.Warn("export links are signed with a key of this process only: they stop working when dsh restarts" + ephemeralWhy + "; set exports.secret in the excalidraw plugin's config to keep them")
	}
	return s, nil
}

// backend keeps the exports' bytes: a folder (dirBackend) or PostgreSQL
// (pgBackend). Times are the Store's clock's.
type backend interface {
	// put stores data as the export id, created at, replacing any.
	put(ctx context.Context, id string, data []byte, at time.Time) error
	// open opens the export id: ErrNoLongerKept if there is none.
	open(ctx context.Context, id string) (*File, error)
	// sweep removes what was created before cutoff, counting it.
	sweep(ctx context.Context, cutoff time.Time) (int, error)
	// list is every export, in order of id.
	list(ctx context.Context) ([]Entry, error)
}

// Entry is what is known of a kept export.
type Entry struct {
	// ID is the export's id (see NewID), its format the extension.
	ID string
	// Format is the id's extension: png, svg, excalidraw or json.
	Format string
	// Size is its length in bytes.
	Size int64
	// Created is when it was written; the sweep goes by it.
	Created time.Time
}

// File is an open export: its Entry, and its bytes to read.
type File struct {
	Entry
	r     io.Reader
	close func() error
}

// Read reads the export's bytes.
func (f *File) Read(p []byte) (int, error) { return f.r.Read(p) }

// Close releases it.
func (f *File) Close() error {
	if f.close == nil {
		return nil
	}
	return f.close()
}

// opTimeout bounds what a call without a context asks of the backend.
const opTimeout = time.Minute

// Link is a signed, expiring link to one exported file.
type Link struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"` // path and query; the caller prefixes the host's URL
	ExpiresAt time.Time `json:"expiresAt"`
	Bytes     int       `json:"bytes"`
	MIME      string    `json:"mime"`
}

// idPattern is what a file's id looks like: 32 hex digits, an optional
// tile suffix, and the format.
var idPattern = regexp.MustCompile(`^[0-9a-f]{32}(-[0-9a-z]{1,16})?\.(png|svg|excalidraw|json)$`)

// NewID is a fresh random id stem (32 hex digits).
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Put writes data as the file id (stem + "." + format, see NewID),
// durably, and links to it for ttl (0: the store's default; more than the
// maximum is refused). It is PutContext bounded by a minute.
func (s *Store) Put(id string, data []byte, ttl time.Duration) (Link, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	return s.PutContext(ctx, id, data, ttl)
}

// PutContext is Put, abandoned when ctx ends. In a folder the file is
// written to a temporary file, synced and renamed into place; on
// PostgreSQL it is one statement.
func (s *Store) PutContext(ctx context.Context, id string, data []byte, ttl time.Duration) (Link, error) {
	if !idPattern.MatchString(id) {
		return Link{}, fmt.Errorf("exports: bad id %q", id)
	}
	if ttl <= 0 {
		ttl = s.ttl
	}
	if ttl > s.maxTTL {
		return Link{}, &TTLError{Max: s.maxTTL}
	}
	if err := s.b.put(ctx, id, data, s.now()); err != nil {
		return Link{}, err
	}
	return s.Sign(id, ttl, len(data)), nil
}

// TTLError is a link lifetime over the maximum.
type TTLError struct{ Max time.Duration }

func (e *TTLError) Error() string {
	return fmt.Sprintf("a link may last at most %d seconds", int(e.Max.Seconds()))
}

// Sign is the link to id for ttl.
func (s *Store) Sign(id string, ttl time.Duration, size int) Link {
	exp := s.now().Add(ttl).Truncate(time.Second)
	e := strconv.FormatInt(exp.Unix(), 10)
	q := url.Values{"exp": {e}, "sig": {s.sig(id, e)}}
	return Link{ID: id, URL: PathPrefix + id + "?" + q.Encode(), ExpiresAt: exp.UTC(), Bytes: size, MIME: MIME(id)}
}

func (s *Store) sig(id, exp string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(id + "\n" + exp))
	return hex.EncodeToString(m.Sum(nil))
}

// MIME is the media type of a file id.
func MIME(id string) string {
	return mimes[format(id)]
}

// format is a file id's extension.
func format(id string) string { return id[strings.LastIndexByte(id, '.')+1:] }

// Refusals of a link, in the order they are checked.
var (
	ErrBadLink      = errors.New("exports: the link is not one dsh made (bad id, signature or expiry)")
	ErrExpired      = errors.New("exports: the link has expired")
	ErrNoLongerKept = errors.New("exports: the file is no longer kept")
)

// Open checks a link's id, expiry time and signature, then opens its file.
// A tampered link is ErrBadLink whatever else is wrong with it; a genuine
// one past its time is ErrExpired; a genuine, live one whose file was
// swept is ErrNoLongerKept. It is OpenContext bounded by a minute.
func (s *Store) Open(id, exp, sig string) (*File, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	return s.OpenContext(ctx, id, exp, sig)
}

// OpenContext is Open, abandoned when ctx ends. On PostgreSQL the
// export's bytes are loaded whole.
func (s *Store) OpenContext(ctx context.Context, id, exp, sig string) (*File, error) {
	if !idPattern.MatchString(id) || len(exp) > 20 || len(sig) != 64 {
		return nil, ErrBadLink
	}
	if !hmac.Equal([]byte(s.sig(id, exp)), []byte(strings.ToLower(sig))) {
		return nil, ErrBadLink
	}
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return nil, ErrBadLink
	}
	if !s.now().Before(time.Unix(e, 0)) {
		return nil, ErrExpired
	}
	return s.b.open(ctx, id)
}

// Sweep removes exports older than the retention (and, in a folder,
// temporary files left by a crash). It returns how many it removed. It is
// bounded by a minute.
func (s *Store) Sweep() (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	return s.b.sweep(ctx, s.now().Add(-s.retention()))
}

// retention keeps a file at least as long as the longest link to it.
func (s *Store) retention() time.Duration { return max(s.keep, s.maxTTL) }

// SweepEvery is how often Run sweeps.
const SweepEvery = 10 * time.Minute

// Run sweeps now and every SweepEvery until stop is closed.
func (s *Store) Run(stop <-chan struct{}) {
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	for {
		if n, err := s.Sweep(); err != nil {
			s.log.Warn("export sweep failed", zap.Error(err))
		} else if n > 0 {
			s.log.Info("removed old exports", zap.Int("files", n))
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

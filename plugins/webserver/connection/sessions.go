package connection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/statefile"
)

// SessionFileName is the sessions file's name inside the data directory.
const SessionFileName = "sessions.json"

// SessionFile is where a host whose data directory is dataDir keeps its
// browser sessions; `dsh sessions` edits the same file when no host runs.
func SessionFile(dataDir string) string { return filepath.Join(dataDir, SessionFileName) }

// ErrSessionNotFound is returned by Revoke when no live session has the
// id, so callers can tell "already gone" from an I/O failure.
var ErrSessionNotFound = errors.New("connection: session not found")

// sessionIDPrefix marks session ids, as "tok_" marks token ids.
const sessionIDPrefix = "ses_"

// maxLabelRunes bounds a session's label: enough of a User-Agent to tell
// two browsers apart, short enough for one line of `dsh sessions ls`.
const maxLabelRunes = 80

// SessionInfo describes a browser session without anything that would let
// someone use it: what `dsh sessions ls` shows and the admin API returns.
type SessionInfo struct {
	// ID is a short, non-secret handle for listing and revoking, derived
	// from the secret's hash ("ses_" + its first 12 hex characters).
	ID string `json:"id"`
	// Label helps a person recognise the session: the browser's
	// User-Agent, printable characters only, truncated.
	Label string `json:"label"`
	// Person is the id of the person signed in ("" for sessions login
	// links started before there were accounts: the host's owner).
	Person    string    `json:"person,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// SessionRecord is what is stored about a session: its info and the
// SHA-256 of the cookie's secret, never the secret, so a leaked sessions
// file cannot be replayed.
type SessionRecord struct {
	SessionInfo
	SHA256 string `json:"sha256"`
}

// sessionFile is the on-disk shape, an object (like the token file) so
// fields can be added without breaking older readers.
type sessionFile struct {
	Sessions []SessionRecord `json:"sessions"`
}

// sessionIndex is a parsed sessions file: the records in creation order
// and the same records by hash, for the per-request lookup. Keying by the
// secret's hash means lookup timing can only leak something about the
// hash, which does not help anyone guess the secret.
type sessionIndex struct {
	records []SessionRecord
	byHash  map[string]SessionRecord
}

func indexSessions(recs []SessionRecord) sessionIndex {
	idx := sessionIndex{records: recs, byHash: make(map[string]SessionRecord, len(recs))}
	for _, r := range recs {
		idx.byHash[strings.ToLower(r.SHA256)] = r
	}
	return idx
}

// SessionStore keeps browser sessions, the ones login links and password
// sign-ins start, in a state document: a file in the data directory (so
// they survive a restart of `dsh serve` and can be listed and revoked from
// the command line), or the "sessions" document of a shared backend
// (pgstate), where every node sees every session: a login on one node is
// valid on all, a logout on any ends it everywhere. It follows the token
// store's pattern: only hashes at rest, the file private (0600) and
// replaced atomically, a missing document is an empty store, and one that
// does not parse is reported and never overwritten. Expired sessions are
// dropped whenever the document is written.
//
// The running server answers lookups from a cached view that checks the
// document for changes on every lookup (see statefile.View), so a change
// by another process or node (`dsh sessions revoke`, a logout elsewhere)
// applies to the next request. Every change is a read-modify-write under
// the document's lock, so none is lost to another writer's.
//
// With no document the sessions live in memory only and end with the
// process (embedded hosts and tests without a data directory). Each
// method takes the caller's context, which bounds its reads and writes
// of the document.
type SessionStore struct {
	doc statefile.Doc // nil: in memory
	now func() time.Time

	mu   sync.Mutex                    // serialises changes in memory
	view *statefile.View[sessionIndex] // doc != nil
	mem  sessionIndex                  // doc == nil
}

// SessionsWhat names the sessions document in errors.
const SessionsWhat = "sessions file"

// OpenSessionStore returns a store for the file at path ("" keeps
// sessions in memory). Nothing is read or created until it is used.
func OpenSessionStore(path string) *SessionStore {
	return openSessionStore(path, time.Now, nil)
}

// NewSessionStore returns a store kept in d (a shared backend's "sessions"
// document; nil keeps sessions in memory). Nothing is read or created
// until it is used.
func NewSessionStore(d statefile.Doc) *SessionStore {
	return newSessionStore(d, time.Now, nil)
}

func openSessionStore(path string, now func() time.Time, log *zap.Logger) *SessionStore {
	var d statefile.Doc
	if path != "" {
		d = statefile.File(path, SessionsWhat)
	}
	return newSessionStore(d, now, log)
}

func newSessionStore(d statefile.Doc, now func() time.Time, log *zap.Logger) *SessionStore {
	if log == nil {
		log = zap.NewNop()
	}
	s := &SessionStore{doc: d, now: now, mem: indexSessions(nil)}
	if d != nil {
		s.view = statefile.ViewOf(d, parseSessionIndex, log)
	}
	return s
}

// Path is where the store lives: a file's path, a shared document's
// place, or "" in memory.
func (s *SessionStore) Path() string {
	if s.doc == nil {
		return ""
	}
	return s.doc.Where()
}

// create mints a session labelled label that lasts ttl. The secret (the
// cookie's value) is returned once; only its hash is kept.
func (s *SessionStore) create(ctx context.Context, label, person string, ttl time.Duration) (string, SessionRecord, error) {
	// Whole seconds, like token records: the cookie's Expires has no more.
	now := s.now().UTC().Truncate(time.Second)
	var secret string
	var rec SessionRecord
	err := s.update(ctx, func(recs []SessionRecord) ([]SessionRecord, bool, error) {
		for {
			secret = newSecret()
			hash := HashToken(secret)
			rec = SessionRecord{
				SessionInfo: SessionInfo{ID: sessionID(hash), Label: sessionLabel(label), Person: person, CreatedAt: now, ExpiresAt: now.Add(ttl)},
				SHA256:      hash,
			}
			// 48 bits of id: a collision is all but impossible, but the
			// id is how a session is revoked, so it must be unique.
			if !slices.ContainsFunc(recs, func(r SessionRecord) bool { return r.ID == rec.ID }) {
				return append(recs, rec), true, nil
			}
		}
	})
	if err != nil {
		return "", SessionRecord{}, err
	}
	return secret, rec, nil
}

// lookup finds the live session whose secret this is. err is set when the
// sessions cannot be read; callers then refuse the request.
func (s *SessionStore) lookup(ctx context.Context, secret string) (SessionRecord, bool, error) {
	if secret == "" {
		return SessionRecord{}, false, nil
	}
	idx, err := s.current(ctx)
	if err != nil {
		return SessionRecord{}, false, err
	}
	rec, ok := idx.byHash[HashToken(secret)]
	if !ok || !s.now().Before(rec.ExpiresAt) {
		return SessionRecord{}, false, nil
	}
	return rec, true, nil
}

// List returns the live sessions in creation order.
func (s *SessionStore) List(ctx context.Context) ([]SessionInfo, error) {
	idx, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := []SessionInfo{}
	for _, r := range idx.records {
		if now.Before(r.ExpiresAt) {
			out = append(out, r.SessionInfo)
		}
	}
	return out, nil
}

// Revoke ends the live session with this id. An unknown (or already
// expired) id is ErrSessionNotFound and leaves the sessions as they were.
func (s *SessionStore) Revoke(ctx context.Context, id string) error {
	now := s.now()
	return s.update(ctx, func(recs []SessionRecord) ([]SessionRecord, bool, error) {
		i := slices.IndexFunc(recs, func(r SessionRecord) bool { return r.ID == id && now.Before(r.ExpiresAt) })
		if i < 0 {
			return nil, false, fmt.Errorf("%w: %q", ErrSessionNotFound, id)
		}
		return slices.Delete(recs, i, i+1), true, nil
	})
}

// revokeWhere ends the sessions that match and reports how many.
func (s *SessionStore) revokeWhere(ctx context.Context, match func(SessionRecord) bool) (int, error) {
	n := 0
	err := s.update(ctx, func(recs []SessionRecord) ([]SessionRecord, bool, error) {
		kept := slices.DeleteFunc(recs, match)
		n = len(recs) - len(kept)
		return kept, n > 0, nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// RevokeAll ends every session and reports how many were live.
func (s *SessionStore) RevokeAll(ctx context.Context) (int, error) {
	now := s.now()
	live := 0
	err := s.update(ctx, func(recs []SessionRecord) ([]SessionRecord, bool, error) {
		for _, r := range recs {
			if now.Before(r.ExpiresAt) {
				live++
			}
		}
		// Nothing to write for no sessions: a missing file stays missing.
		return nil, len(recs) > 0, nil
	})
	if err != nil {
		return 0, err
	}
	return live, nil
}

// current is the index as of now: the cached view of the document, or
// memory.
func (s *SessionStore) current(ctx context.Context) (sessionIndex, error) {
	if s.view != nil {
		return s.view.Load(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mem, nil
}

// update runs change on the records read afresh (not from the view) under
// the document's lock, so a write never undoes another writer's change,
// and stores what it returns, minus the expired sessions, when write is
// true.
func (s *SessionStore) update(ctx context.Context, change func(recs []SessionRecord) ([]SessionRecord, bool, error)) error {
	live := func(recs []SessionRecord) []SessionRecord {
		now := s.now()
		kept := []SessionRecord{}
		for _, r := range recs {
			if now.Before(r.ExpiresAt) {
				kept = append(kept, r)
			}
		}
		return kept
	}
	if s.doc == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		next, write, err := change(slices.Clone(s.mem.records))
		if err == nil && write {
			s.mem = indexSessions(live(next))
		}
		return err
	}
	defer s.view.Invalidate()
	return statefile.UpdateDoc(ctx, s.doc, parseSessionFile, func(f sessionFile) (sessionFile, bool, error) {
		next, write, err := change(f.Sessions)
		if err != nil || !write {
			return f, false, err
		}
		return sessionFile{Sessions: live(next)}, true, nil
	})
}

func parseSessionFile(where string, data []byte) (sessionFile, error) {
	idx, err := parseSessionIndex(where, data)
	return sessionFile{Sessions: idx.records}, err
}

func parseSessionIndex(path string, data []byte) (sessionIndex, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return indexSessions(nil), nil
	}
	var f sessionFile
	if err := json.Unmarshal(data, &f); err != nil {
		return sessionIndex{}, fmt.Errorf("connection: parse sessions file %s: %w", path, err)
	}
	for _, r := range f.Sessions {
		if err := checkSHA256Hex(r.SHA256); err != nil {
			return sessionIndex{}, fmt.Errorf("connection: sessions file %s: session %q: %w", path, r.ID, err)
		}
		if r.ID == "" {
			return sessionIndex{}, fmt.Errorf("connection: sessions file %s: a session has no id", path)
		}
	}
	return indexSessions(f.Sessions), nil
}

// sessionID derives the public handle from the secret's hash. It reveals
// 48 bits of a hash of 256 random bits: nothing that helps forge a cookie.
func sessionID(hash string) string { return sessionIDPrefix + strings.ToLower(hash[:12]) }

// sessionLabel makes a User-Agent safe to print in a terminal: valid
// UTF-8, printable characters only (no escape sequences), runs of white
// space as one space, at most maxLabelRunes runes.
func sessionLabel(userAgent string) string {
	s := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(userAgent, ""))
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > maxLabelRunes {
		s = string([]rune(s)[:maxLabelRunes-1]) + "…"
	}
	return s
}

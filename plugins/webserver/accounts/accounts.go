// Package accounts keeps the people who can sign in to a dsh host: their
// accounts live in one private JSON document (a file in the data
// directory, or the "accounts" document of a backend several nodes share),
// passwords are hashed with argon2id, and newcomers join through one-time
// invites.
//
// The host's owner is the administrator and signs in with the login links
// the host prints, so the owner needs no password. Everyone else is added
// with an invite ([Store.Add]), whose secret is shown once and stored only
// as its SHA-256; accepting it ([Store.AcceptInvite]) sets the person's
// password. [Store.CheckPassword] is the login page's check: the same
// answer, in about the same time, for an unknown name, a wrong password or
// an account without a password yet, and a per-name throttle against
// guessing, counted in the backend's windows (every node's failures count
// when they are shared).
//
// Every change is a read-modify-write of the document under its lock
// (statefile.UpdateDoc), so the host and a `dsh user` command, or two
// nodes, never lose each other's changes; lookups are answered from a
// cached view that re-reads the document when another writer changed it.
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/names"
	"go.uber.org/zap"
)

// FileName is the accounts file's name inside the data directory.
const FileName = "accounts.json"

// File is where a host whose data directory is dataDir keeps its accounts;
// `dsh user` edits the same file.
func File(dataDir string) string { return filepath.Join(dataDir, FileName) }

// StateDoc is the accounts' document in a shared backend (Options.State).
const StateDoc = "accounts"

// DefaultInviteTTL is how long an invite lasts when Add or Reinvite is
// given no positive ttl.
const DefaultInviteTTL = 7 * 24 * time.Hour

// DefaultHashParams are the argon2id parameters new password hashes use:
// OWASP's minimum for argon2id (19 MiB, 2 iterations, 1 lane), with a
// 16-byte salt and a 32-byte key. Hashes record their own parameters, so
// raising these later keeps old passwords working.
var DefaultHashParams = argon2id.Params{
	Memory:      19 * 1024,
	Iterations:  2,
	Parallelism: 1,
	SaltLength:  16,
	KeyLength:   32,
}

// fileWhat names the file in errors and logs.
const fileWhat = "accounts file"

// idPrefix marks person ids, as "tok_" marks tokens and "ses_" sessions.
const idPrefix = "per_"

// Person is someone who can sign in to the host.
type Person struct {
	// ID is the stable, non-secret handle: "per_" and 12 random hex
	// characters. Sessions refer to a person by it; it is never reused.
	ID string `json:"id"`
	// Name is the login name (see Add for the rules), lower case.
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	// Owner marks the host's owner, the administrator; there is exactly
	// one once EnsureOwner has run.
	Owner bool `json:"owner,omitempty"`
	// PasswordHash is an argon2id PHC string, "" until the person accepts
	// an invite or is given a password (SetPassword). The owner signs in
	// with login links and needs none.
	PasswordHash string `json:"passwordHash,omitempty"`
	// Invite is the outstanding invite, if any.
	Invite    *Invite   `json:"invite,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// Invite is an outstanding one-time invite: the SHA-256 (hex) of its
// secret, never the secret, so a leaked file cannot be used to join.
type Invite struct {
	SHA256    string    `json:"sha256"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// clone is a copy that shares nothing with p, so callers cannot change
// the cached view through what they are given.
func (p Person) clone() Person {
	if p.Invite != nil {
		inv := *p.Invite
		p.Invite = &inv
	}
	return p
}

// accountsFile is the on-disk shape, an object (like the token and
// sessions files) so fields can be added without breaking older readers.
type accountsFile struct {
	People []Person `json:"people"`
}

func (f *accountsFile) indexFunc(match func(Person) bool) int {
	return slices.IndexFunc(f.People, match)
}

// find is the index of the person whose id or (normalised) name is
// idOrName, or -1. An id wins: "per_…" is also a valid name.
func (f *accountsFile) find(idOrName string) int {
	if i := f.indexFunc(func(p Person) bool { return p.ID == idOrName }); i >= 0 {
		return i
	}
	name := normalizeName(idOrName)
	return f.indexFunc(func(p Person) bool { return p.Name == name })
}

// index is a parsed accounts file: the people in creation order and the
// same people by id, name and invite hash, for per-request lookups.
type index struct {
	people   []Person
	byID     map[string]int
	byName   map[string]int
	byInvite map[string]int
}

func indexPeople(people []Person) index {
	idx := index{
		people:   people,
		byID:     make(map[string]int, len(people)),
		byName:   make(map[string]int, len(people)),
		byInvite: map[string]int{},
	}
	for i, p := range people {
		idx.byID[p.ID] = i
		idx.byName[p.Name] = i
		if p.Invite != nil {
			idx.byInvite[p.Invite.SHA256] = i
		}
	}
	return idx
}

// Options configure a Store; the zero value is fine.
type Options struct {
	// Now is the clock (invite expiry, creation times, the throttle);
	// nil is time.Now.
	Now func() time.Time
	// Logger gets the store's few events; nil logs nothing.
	Logger *zap.Logger
	// HashParams, when set, replaces DefaultHashParams for new hashes
	// (tests lower them to stay fast).
	HashParams *argon2id.Params
	// State, when set, keeps the accounts in its StateDoc document
	// instead of the file, and counts the sign-in throttle in its
	// windows: with a backend several nodes share (pgstate's), every
	// node sees the same people and a name's failures on any node count
	// against it on all. nil: the file, and a throttle in memory.
	State statefile.Backend
}

// Store is the accounts document. It is safe for concurrent use, and
// several Stores (in several processes, on several nodes) may share one.
// Every method that reads or writes it (or the throttle's windows) takes
// the caller's context, which bounds the reads and writes.
type Store struct {
	doc    statefile.Doc
	now    func() time.Time
	log    *zap.Logger
	params argon2id.Params
	view   *statefile.View[index]

	// compare checks a password against a PHC hash (argon2id's; tests
	// count the calls).
	compare func(password, hash string) (bool, error)

	dummyOnce sync.Once
	dummy     string // a hash of nothing anyone knows, for unknown names

	throttle throttle
}

// Open returns the store kept in the file at path (see File), or with
// opts.State in that backend's StateDoc (path is then not used). Nothing
// is read or created until it is used; a missing document is an empty
// store, and one that does not parse is an error for every call and is
// never overwritten.
func Open(path string, opts Options) *Store {
	s := &Store{
		doc:     statefile.File(path, fileWhat),
		now:     opts.Now,
		log:     opts.Logger,
		params:  DefaultHashParams,
		compare: argon2id.ComparePasswordAndHash,
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = zap.NewNop()
	}
	if opts.HashParams != nil {
		s.params = *opts.HashParams
	}
	windows := statefile.NewMemoryWindows()
	if opts.State != nil {
		s.doc, windows = opts.State.Doc(StateDoc), opts.State.Windows()
	}
	s.view = statefile.ViewOf(s.doc, parseIndex, s.log)
	s.throttle = throttle{w: windows, log: s.log}
	return s
}

// Path is where the store keeps the accounts: the file's path, or the
// shared document's place.
func (s *Store) Path() string { return s.doc.Where() }

// EnsureOwner makes sure the host has an owner: if no one is the owner, it
// creates one named name, without a password (the owner signs in with the
// login links the host prints), and reports created. Otherwise it returns
// the existing owner, whatever its name, and name is not even checked.
func (s *Store) EnsureOwner(ctx context.Context, name string) (owner Person, created bool, err error) {
	err = s.update(ctx, func(f *accountsFile) (bool, error) {
		if i := f.indexFunc(func(p Person) bool { return p.Owner }); i >= 0 {
			owner = f.People[i]
			return false, nil
		}
		n, err := validName(name)
		if err != nil {
			return false, err
		}
		if f.find(n) >= 0 {
			return false, errAlreadyExists(n)
		}
		owner = Person{ID: newID(f), Name: n, Owner: true, CreatedAt: s.stamp()}
		f.People = append(f.People, owner)
		created = true
		return true, nil
	})
	if err != nil {
		return Person{}, false, err
	}
	if created {
		s.log.Info("owner account created", zap.String("name", owner.Name), zap.String("id", owner.ID))
	}
	return owner.clone(), created, nil
}

// Owner returns the host's owner; ok is false before EnsureOwner.
func (s *Store) Owner(ctx context.Context) (Person, bool, error) {
	idx, err := s.view.Load(ctx)
	if err != nil {
		return Person{}, false, err
	}
	for _, p := range idx.people {
		if p.Owner {
			return p.clone(), true, nil
		}
	}
	return Person{}, false, nil
}

// Add creates a member named name with an invite that lasts ttl (0 is
// DefaultInviteTTL) and returns the person and the invite's secret, which
// is not stored and so cannot be shown again (Reinvite makes a new one).
//
// A name is 1 to 64 characters: letters a–z, digits, '.', '_' and '-',
// starting with a letter or a digit. It is trimmed and lower-cased first,
// so names are case-insensitive, and it must be unique (CodeAlreadyExists).
// email is optional.
func (s *Store) Add(ctx context.Context, name, email string, ttl time.Duration) (Person, string, error) {
	n, err := validName(name)
	if err != nil {
		return Person{}, "", err
	}
	email, err = validEmail(email)
	if err != nil {
		return Person{}, "", err
	}
	secret, inv := s.newInvite(ttl)
	var p Person
	err = s.update(ctx, func(f *accountsFile) (bool, error) {
		if f.find(n) >= 0 {
			return false, errAlreadyExists(n)
		}
		p = Person{ID: newID(f), Name: n, Email: email, Invite: &inv, CreatedAt: s.stamp()}
		f.People = append(f.People, p)
		return true, nil
	})
	if err != nil {
		return Person{}, "", err
	}
	s.log.Info("person added", zap.String("name", p.Name), zap.String("id", p.ID))
	return p.clone(), secret, nil
}

// Reinvite gives the person whose id or name is idOrName a fresh invite
// that lasts ttl (0 is DefaultInviteTTL); the previous one stops working.
// It is also how a forgotten password is reset: the password in place
// keeps working until the new invite is accepted. It returns the person
// and the new secret.
func (s *Store) Reinvite(ctx context.Context, idOrName string, ttl time.Duration) (Person, string, error) {
	secret, inv := s.newInvite(ttl)
	var p Person
	err := s.update(ctx, func(f *accountsFile) (bool, error) {
		i := f.find(idOrName)
		if i < 0 {
			return false, errNotFound(idOrName)
		}
		f.People[i].Invite = &inv
		p = f.People[i]
		return true, nil
	})
	if err != nil {
		return Person{}, "", err
	}
	s.log.Info("person reinvited", zap.String("name", p.Name), zap.String("id", p.ID))
	return p.clone(), secret, nil
}

// Get returns the person with this id. It reads the cached view, so it is
// cheap enough for every request.
func (s *Store) Get(ctx context.Context, id string) (Person, bool, error) {
	idx, err := s.view.Load(ctx)
	if err != nil {
		return Person{}, false, err
	}
	i, ok := idx.byID[id]
	if !ok {
		return Person{}, false, nil
	}
	return idx.people[i].clone(), true, nil
}

// ByName returns the person with this name (trimmed, any case), from the
// cached view.
func (s *Store) ByName(ctx context.Context, name string) (Person, bool, error) {
	idx, err := s.view.Load(ctx)
	if err != nil {
		return Person{}, false, err
	}
	i, ok := idx.byName[normalizeName(name)]
	if !ok {
		return Person{}, false, nil
	}
	return idx.people[i].clone(), true, nil
}

// List returns everyone in creation order.
func (s *Store) List(ctx context.Context) ([]Person, error) {
	idx, err := s.view.Load(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Person, len(idx.people))
	for i, p := range idx.people {
		out[i] = p.clone()
	}
	return out, nil
}

// Remove deletes the person whose id or name is idOrName and returns who
// it was. The owner cannot be removed (CodeInvalidOperation); an unknown
// person is CodeNotFound.
func (s *Store) Remove(ctx context.Context, idOrName string) (Person, error) {
	var p Person
	err := s.update(ctx, func(f *accountsFile) (bool, error) {
		i := f.find(idOrName)
		if i < 0 {
			return false, errNotFound(idOrName)
		}
		if f.People[i].Owner {
			return false, &Error{Code: CodeInvalidOperation, Message: fmt.Sprintf("%s is the host's owner and cannot be removed", f.People[i].Name)}
		}
		p = f.People[i]
		f.People = slices.Delete(f.People, i, i+1)
		return true, nil
	})
	if err != nil {
		return Person{}, err
	}
	s.log.Info("person removed", zap.String("name", p.Name), zap.String("id", p.ID))
	return p.clone(), nil
}

// AcceptInvite uses the invite whose secret this is: it sets the invited
// person's password and ends the invite, which works once. An unknown,
// expired or used invite is CodeInvalidInvite, the same error for all
// three. The password is checked first (CodeWeakPassword), so a bad one
// leaves the invite usable.
func (s *Store) AcceptInvite(ctx context.Context, secret, password string) (Person, error) {
	if err := checkPasswordRules(password); err != nil {
		return Person{}, err
	}
	if secret == "" {
		return Person{}, errInvalidInvite()
	}
	hash := hashSecret(secret)
	// Look in the view first, so a made-up secret costs no password hash.
	idx, err := s.view.Load(ctx)
	if err != nil {
		return Person{}, err
	}
	i, ok := idx.byInvite[hash]
	if !ok || !s.now().Before(idx.people[i].Invite.ExpiresAt) {
		return Person{}, errInvalidInvite()
	}
	pwHash, err := s.hashPassword(password)
	if err != nil {
		return Person{}, err
	}
	var p Person
	err = s.update(ctx, func(f *accountsFile) (bool, error) {
		// Again under the lock: someone may have used or replaced the
		// invite since the view was read.
		i := f.indexFunc(func(p Person) bool { return p.Invite != nil && p.Invite.SHA256 == hash })
		if i < 0 || !s.now().Before(f.People[i].Invite.ExpiresAt) {
			return false, errInvalidInvite()
		}
		f.People[i].PasswordHash = pwHash
		f.People[i].Invite = nil
		p = f.People[i]
		return true, nil
	})
	if err != nil {
		return Person{}, err
	}
	s.throttle.reset(context.WithoutCancel(ctx), p.Name) // the password changed whatever the caller does now
	s.log.Info("invite accepted", zap.String("name", p.Name), zap.String("id", p.ID))
	return p.clone(), nil
}

// SetPassword sets the password of the person with this id, and ends any
// outstanding invite (it could otherwise replace the password again).
func (s *Store) SetPassword(ctx context.Context, id, password string) error {
	if err := checkPasswordRules(password); err != nil {
		return err
	}
	// Look first, so an unknown id costs no password hash.
	_, ok, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		return errNotFound(id)
	}
	pwHash, err := s.hashPassword(password)
	if err != nil {
		return err
	}
	var name string
	err = s.update(ctx, func(f *accountsFile) (bool, error) {
		i := f.indexFunc(func(p Person) bool { return p.ID == id })
		if i < 0 {
			return false, errNotFound(id)
		}
		f.People[i].PasswordHash = pwHash
		f.People[i].Invite = nil
		name = f.People[i].Name
		return true, nil
	})
	if err != nil {
		return err
	}
	s.throttle.reset(context.WithoutCancel(ctx), name) // the password changed whatever the caller does now
	return nil
}

// update changes the document under its lock (read afresh, so it never
// undoes another writer's change) and makes the view re-read it after a
// write.
// change reports whether there is anything to write.
func (s *Store) update(ctx context.Context, change func(f *accountsFile) (bool, error)) error {
	wrote := false
	err := statefile.UpdateDoc(ctx, s.doc, parseFile, func(f accountsFile) (accountsFile, bool, error) {
		write, err := change(&f)
		if err != nil || !write {
			return f, false, err
		}
		if f.People == nil {
			f.People = []Person{}
		}
		wrote = true
		return f, true, nil
	})
	if wrote {
		s.view.Invalidate()
	}
	return err
}

// stamp is now in whole seconds, UTC, like the other state files' times.
func (s *Store) stamp() time.Time { return s.now().UTC().Truncate(time.Second) }

// newInvite mints an invite secret and what is stored of it.
func (s *Store) newInvite(ttl time.Duration) (string, Invite) {
	if ttl <= 0 {
		ttl = DefaultInviteTTL
	}
	secret := newSecret()
	return secret, Invite{SHA256: hashSecret(secret), ExpiresAt: s.stamp().Add(ttl)}
}

// newSecret returns 32 random bytes, base64url without padding.
// crypto/rand.Read cannot fail on supported platforms (Go 1.24+).
func newSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// hashSecret is what is stored of an invite secret: its SHA-256, hex.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// newID returns an id no one in f has. 48 random bits make a collision all
// but impossible, but ids are how sessions name a person, so it is checked.
func newID(f *accountsFile) string {
	for {
		var b [6]byte
		_, _ = rand.Read(b[:])
		id := idPrefix + hex.EncodeToString(b[:])
		if f.indexFunc(func(p Person) bool { return p.ID == id }) < 0 {
			return id
		}
	}
}

// normalizeName is the form names are stored and compared in.
func normalizeName(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// maxNameLen bounds a login name.
const maxNameLen = 64

// validName normalises name and checks it against the name rules: the
// host's for every name first (names.Check: a control character is
// refused, not trimmed away), then a login name's own.
func validName(name string) (string, error) {
	bad := func(msg string) (string, error) {
		return "", &Error{Code: CodeInvalidName, Message: msg}
	}
	if err := names.Check("a name", name); err != nil {
		return bad(err.(*names.Error).ErrorMessage())
	}
	n := normalizeName(name)
	switch {
	case n == "":
		return bad("a name is required")
	case utf8.RuneCountInString(n) > maxNameLen:
		return bad(fmt.Sprintf("a name is at most %d characters", maxNameLen))
	case !isLetterOrDigit(n[0]):
		return bad("a name must start with a letter (a–z) or a digit")
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; !isLetterOrDigit(c) && c != '.' && c != '_' && c != '-' {
			return bad("a name may contain only letters a–z, digits, '.', '_' and '-'")
		}
	}
	return n, nil
}

func isLetterOrDigit(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// maxEmailLen is the longest address SMTP allows.
const maxEmailLen = 254

// validEmail trims email and checks that it is "" or one bare address
// (no display name): it is shown in listings, so it must be plain text.
func validEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return "", nil
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Name != "" || a.Address != email || len(email) > maxEmailLen {
		return "", &Error{Code: CodeInvalidEmail, Message: "an email must be a plain address like name@example.com"}
	}
	return email, nil
}

func parseIndex(path string, data []byte) (index, error) {
	f, err := parseFile(path, data)
	if err != nil {
		return index{}, err
	}
	return indexPeople(f.People), nil
}

// parseFile parses and checks the file: a file this package would not have
// written (a bad name, a duplicate, two owners) is an error, so callers
// fail closed rather than guess who someone is.
func parseFile(path string, data []byte) (accountsFile, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return accountsFile{}, nil
	}
	var f accountsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return accountsFile{}, fmt.Errorf("accounts: parse %s %s: %w", fileWhat, path, err)
	}
	ids, names, owners := map[string]bool{}, map[string]bool{}, 0
	for i, p := range f.People {
		bad := func(format string, args ...any) (accountsFile, error) {
			return accountsFile{}, fmt.Errorf("accounts: %s %s: person %d (%q): %s", fileWhat, path, i, p.ID, fmt.Sprintf(format, args...))
		}
		if !validID(p.ID) {
			return bad("bad id")
		}
		if n, err := validName(p.Name); err != nil || n != p.Name {
			return bad("bad name %q", p.Name)
		}
		if ids[p.ID] {
			return bad("duplicate id")
		}
		if names[p.Name] {
			return bad("duplicate name %q", p.Name)
		}
		ids[p.ID], names[p.Name] = true, true
		if p.Owner {
			owners++
		}
		if p.Invite != nil && !isSHA256Hex(p.Invite.SHA256) {
			return bad("invite is not a SHA-256 in hex")
		}
		if p.PasswordHash != "" {
			if _, _, _, err := argon2id.DecodeHash(p.PasswordHash); err != nil {
				return bad("password hash: %v", err)
			}
		}
	}
	if owners > 1 {
		return accountsFile{}, fmt.Errorf("accounts: %s %s: %d owners, at most one is allowed", fileWhat, path, owners)
	}
	return f, nil
}

func validID(id string) bool {
	hexPart, ok := strings.CutPrefix(id, idPrefix)
	return ok && len(hexPart) == 12 && isLowerHex(hexPart)
}

func isSHA256Hex(s string) bool { return len(s) == 2*sha256.Size && isLowerHex(s) }

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ValidName is nil when name (trimmed, lower-cased) is a valid login
// name, else the error saying why.
func ValidName(name string) error {
	_, err := validName(name)
	return err
}

package connection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/names"
)

// ErrTokenNotFound is returned by Revoke when nothing matches, so the CLI can
// tell "already gone" from an I/O failure.
var ErrTokenNotFound = errors.New("connection: token not found")

// tokenFile is the on-disk shape. It is an object rather than a bare array
// so fields can be added later without breaking older readers.
type tokenFile struct {
	Tokens []TokenRecord `json:"tokens"`
}

// TokenStore manages the bearer tokens behind `dsh token create|ls|revoke`
// and the connect tokens people mint: the token file, or the "tokens"
// document of a shared backend (pgstate), which every node reads. It
// re-reads the document on every call instead of caching, because the CLI
// and the running server (or several nodes) share it; every change is
// made under the document's lock (statefile.UpdateDoc), so none is lost
// to another writer's. Each method takes the caller's context, which
// bounds its reads and writes.
type TokenStore struct {
	doc statefile.Doc
	now func() time.Time
}

// TokensWhat names the token document in errors.
const TokensWhat = "token file"

// OpenTokenStore returns a store for the file at path. Nothing is read or
// created until it is used; a missing file is an empty store.
func OpenTokenStore(path string) *TokenStore {
	return NewTokenStore(statefile.File(path, TokensWhat))
}

// NewTokenStore returns a store kept in d (a shared backend's "tokens"
// document). Nothing is read or created until it is used; a missing
// document is an empty store.
func NewTokenStore(d statefile.Doc) *TokenStore {
	return &TokenStore{doc: d, now: time.Now}
}

// Path is where the store lives (a file's path, or a shared document's
// place), for messages like "tokens are in ...".
func (t *TokenStore) Path() string { return t.doc.Where() }

// TokenSpec is what a new token is: its name and, for a connect token, the
// person it acts for and its grant.
type TokenSpec struct {
	Name      string
	Person    string
	Grant     *identity.Grant
	ExpiresAt *time.Time
	Client    string
}

// Create mints a host token named name. The plaintext is returned once and
// never stored; only its hash reaches the disk.
func (t *TokenStore) Create(ctx context.Context, name string) (string, TokenRecord, error) {
	return t.Mint(ctx, TokenSpec{Name: name})
}

// Mint makes a token as spec says; the plaintext is returned once. Names
// are unique among host tokens and among one person's connect tokens
// (they are how people tell tokens apart and revoke them).
//
// A name that is not printable text is names.Check's invalid_name,
// before anything is read or written.
func (t *TokenStore) Mint(ctx context.Context, spec TokenSpec) (string, TokenRecord, error) {
	if err := names.Check("token name", spec.Name); err != nil {
		return "", TokenRecord{}, err
	}
	name := strings.TrimSpace(spec.Name)
	if name == "" {
		return "", TokenRecord{}, errors.New("connection: token name must not be empty")
	}
	plaintext := newPlaintextToken()
	rec := TokenRecord{
		ID:        newTokenID(),
		Name:      name,
		SHA256:    HashToken(plaintext),
		CreatedAt: t.now().UTC().Truncate(time.Second),
		Person:    spec.Person,
		Grant:     spec.Grant,
		ExpiresAt: spec.ExpiresAt,
		Client:    spec.Client,
	}
	err := t.update(ctx, func(records []TokenRecord) ([]TokenRecord, error) {
		for _, r := range records {
			if r.Name == name && r.Person == spec.Person && r.Bot() == rec.Bot() {
				return nil, fmt.Errorf("%w: a token named %q already exists (id %s)", ErrTokenExists, name, r.ID)
			}
		}
		return append(records, rec), nil
	})
	if err != nil {
		return "", TokenRecord{}, err
	}
	return plaintext, rec, nil
}

// ErrTokenAmbiguous is Revoke's error for a name several tokens have.
var ErrTokenAmbiguous = errors.New("connection: token name is ambiguous")

// ErrTokenExists is Mint's error for a name already taken.
var ErrTokenExists = errors.New("connection: token exists")

// List returns the stored records in creation order.
func (t *TokenStore) List(ctx context.Context) ([]TokenRecord, error) {
	return statefile.ReadDoc(ctx, t.doc, parseTokenFile)
}

// Get is the record with this id.
func (t *TokenStore) Get(ctx context.Context, id string) (TokenRecord, bool, error) {
	recs, err := t.List(ctx)
	if err != nil {
		return TokenRecord{}, false, err
	}
	for _, r := range recs {
		if r.ID == id {
			return r, true, nil
		}
	}
	return TokenRecord{}, false, nil
}

// Update changes the record with this id (its grant, when a bot creates a
// board it is then bound to); the id and hash stay as they are.
func (t *TokenStore) Update(ctx context.Context, id string, change func(*TokenRecord) error) (TokenRecord, error) {
	var out TokenRecord
	err := t.update(ctx, func(records []TokenRecord) ([]TokenRecord, error) {
		for i := range records {
			if records[i].ID != id {
				continue
			}
			r := records[i]
			if err := change(&r); err != nil {
				return nil, err
			}
			r.ID, r.SHA256 = records[i].ID, records[i].SHA256
			records[i], out = r, r
			return records, nil
		}
		return nil, fmt.Errorf("%w: %q", ErrTokenNotFound, id)
	})
	return out, err
}

// Revoke deletes the token whose ID or name is idOrName and returns it.
func (t *TokenStore) Revoke(ctx context.Context, idOrName string) (TokenRecord, error) {
	var gone TokenRecord
	err := t.update(ctx, func(records []TokenRecord) ([]TokenRecord, error) {
		i := slices.IndexFunc(records, func(r TokenRecord) bool { return r.ID == idOrName })
		if i < 0 {
			var named []int
			for j, r := range records {
				if r.Name == idOrName {
					named = append(named, j)
				}
			}
			switch len(named) {
			case 0:
				return nil, fmt.Errorf("%w: %q", ErrTokenNotFound, idOrName)
			case 1:
				i = named[0]
			default:
				// People's bots may share a name; revoking all of them
				// by it would surprise, and cut only one's sessions.
				return nil, fmt.Errorf("%w: %d tokens are named %q; revoke one by its id (see `dsh token ls`)", ErrTokenAmbiguous, len(named), idOrName)
			}
		}
		gone = records[i]
		return slices.Delete(records, i, i+1), nil
	})
	return gone, err
}

// Verify reports whether plaintext is a stored token, and which. A store
// that cannot be read verifies nothing.
func (t *TokenStore) Verify(ctx context.Context, plaintext string) (TokenRecord, bool) {
	records, err := t.List(ctx)
	if err != nil {
		return TokenRecord{}, false
	}
	return matchToken(plaintext, records)
}

func (t *TokenStore) update(ctx context.Context, change func([]TokenRecord) ([]TokenRecord, error)) error {
	parse := func(path string, data []byte) (tokenFile, error) {
		recs, err := parseTokenFile(path, data)
		return tokenFile{Tokens: recs}, err
	}
	return statefile.UpdateDoc(ctx, t.doc, parse, func(f tokenFile) (tokenFile, bool, error) {
		next, err := change(f.Tokens)
		if err != nil {
			return tokenFile{}, false, err
		}
		if next == nil {
			next = []TokenRecord{}
		}
		return tokenFile{Tokens: next}, true, nil
	})
}

func parseTokenFile(path string, data []byte) ([]TokenRecord, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil
	}
	var f tokenFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("connection: parse token file %s: %w", path, err)
	}
	for _, r := range f.Tokens {
		if err := validateRecord(r); err != nil {
			return nil, fmt.Errorf("connection: token file %s: %w", path, err)
		}
	}
	return f.Tokens, nil
}

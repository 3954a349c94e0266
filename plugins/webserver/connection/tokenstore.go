package connection

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// ErrTokenNotFound is returned by Revoke when nothing matches, so the CLI can
// tell "already gone" from an I/O failure.
var ErrTokenNotFound = errors.New("connection: token not found")

// tokenFile is the on-disk shape. It is an object rather than a bare array
// so fields can be added later without breaking older readers.
type tokenFile struct {
	Tokens []TokenRecord `json:"tokens"`
}

// TokenStore manages the bearer-token file behind `dsh token create|ls|revoke`.
// It re-reads the file on every call instead of caching, because the CLI and
// the running server are different processes sharing the same file.
//
// Writes are atomic (see WriteFileAtomic) and serialised within a process;
// two CLI invocations racing each other can lose one update, which is
// acceptable for an interactive admin command.
type TokenStore struct {
	path string
	now  func() time.Time
	mu   sync.Mutex
}

// OpenTokenStore returns a store for path. Nothing is read or created until
// it is used; a missing file is an empty store.
func OpenTokenStore(path string) *TokenStore {
	return &TokenStore{path: path, now: time.Now}
}

// Path is where the store lives, for messages like "tokens are in ...".
func (t *TokenStore) Path() string { return t.path }

// Create mints a token named name. The plaintext is returned once and never
// stored; only its hash reaches the disk.
func (t *TokenStore) Create(name string) (string, TokenRecord, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", TokenRecord{}, errors.New("connection: token name must not be empty")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	records, err := readTokenFile(t.path)
	if err != nil {
		return "", TokenRecord{}, err
	}
	for _, r := range records {
		if r.Name == name {
			// Names are how people revoke tokens; duplicates would make
			// "revoke by name" ambiguous.
			return "", TokenRecord{}, fmt.Errorf("connection: a token named %q already exists (id %s)", name, r.ID)
		}
	}
	plaintext := newPlaintextToken()
	rec := TokenRecord{
		ID:        newTokenID(),
		Name:      name,
		SHA256:    HashToken(plaintext),
		CreatedAt: t.now().UTC().Truncate(time.Second),
	}
	if err := writeTokenFile(t.path, append(records, rec)); err != nil {
		return "", TokenRecord{}, err
	}
	return plaintext, rec, nil
}

// List returns the stored records in creation order.
func (t *TokenStore) List() ([]TokenRecord, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return readTokenFile(t.path)
}

// Revoke deletes the token whose ID or name is idOrName.
func (t *TokenStore) Revoke(idOrName string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	records, err := readTokenFile(t.path)
	if err != nil {
		return err
	}
	kept := records[:0:0]
	for _, r := range records {
		if r.ID == idOrName || r.Name == idOrName {
			continue
		}
		kept = append(kept, r)
	}
	if len(kept) == len(records) {
		return fmt.Errorf("%w: %q", ErrTokenNotFound, idOrName)
	}
	return writeTokenFile(t.path, kept)
}

// Verify reports whether plaintext is a stored token, and which.
func (t *TokenStore) Verify(plaintext string) (TokenRecord, bool) {
	records, err := t.List()
	if err != nil {
		return TokenRecord{}, false
	}
	return matchToken(plaintext, records)
}

func readTokenFile(path string) ([]TokenRecord, error) {
	return readStoreFile(path, "token file", parseTokenFile)
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

func writeTokenFile(path string, records []TokenRecord) error {
	if records == nil {
		records = []TokenRecord{}
	}
	return writePrivateJSON(path, "token file", tokenFile{Tokens: records})
}

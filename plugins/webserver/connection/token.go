package connection

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/dshgo/dsh/plugins/identity"
)

// TokenPrefix marks dsh bearer tokens so that secret scanners and humans can
// recognise one that leaked into a log or repository.
const TokenPrefix = "dsh_"

// TokenRecord is what is stored about a bearer token: never the token itself,
// only its SHA-256, so a leaked token file cannot be replayed.
//
// A record with a Grant is a connect token: a bot that acts for Person
// within the grant's boards and role. A record without one is a host
// token, with every right (the CLI's, `dsh token create NAME`).
type TokenRecord struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	SHA256    string    `json:"sha256"`
	CreatedAt time.Time `json:"createdAt"`
	// Person is the id of the person who minted it ("" for host tokens
	// made on the command line).
	Person string `json:"person,omitempty"`
	// Grant bounds a connect token; nil for a host token.
	Grant *identity.Grant `json:"grant,omitempty"`
	// ExpiresAt, when set, is when the token stops working.
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	// Client is how it was issued: "" (minted by a person or the CLI) or
	// "oauth:<client id>" for a token a remote client obtained.
	Client string `json:"client,omitempty"`
}

// Bot reports whether the record is a connect token.
func (r TokenRecord) Bot() bool { return r.Grant != nil }

// HashToken returns the lower-case hex SHA-256 of a plaintext token. A fast
// hash is enough here because tokens carry 256 bits of randomness; there is
// nothing to brute-force.
func HashToken(plaintext string) string {
	sum := sha256.Sum256([]byte(plaintext))
	return hex.EncodeToString(sum[:])
}

// newPlaintextToken mints a token shown to the user exactly once.
func newPlaintextToken() string {
	return TokenPrefix + newSecret()
}

// newTokenID is a short, non-secret handle used by `dsh token revoke`.
func newTokenID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "tok_" + hex.EncodeToString(b[:])
}

// validateRecord rejects records that could never match, so that a typo in
// configuration is reported instead of silently locking a client out.
func validateRecord(rec TokenRecord) error {
	if err := checkSHA256Hex(rec.SHA256); err != nil {
		return fmt.Errorf("connection: token %q: %w", rec.Name, err)
	}
	return nil
}

// checkSHA256Hex accepts a hex SHA-256 digest (either case): what the token
// and sessions files store instead of secrets.
func checkSHA256Hex(h string) error {
	if len(h) != sha256.Size*2 {
		return fmt.Errorf("sha256 must be %d hex characters", sha256.Size*2)
	}
	if _, err := hex.DecodeString(h); err != nil {
		return fmt.Errorf("sha256 is not hex: %w", err)
	}
	return nil
}

// matchToken finds the record for plaintext. Every record is compared in
// constant time and the loop never exits early, so timing does not reveal
// which (or whether a) stored hash shares a prefix with the candidate.
func matchToken(plaintext string, records ...[]TokenRecord) (TokenRecord, bool) {
	if plaintext == "" {
		return TokenRecord{}, false
	}
	want := []byte(HashToken(plaintext))
	var found TokenRecord
	ok := false
	for _, list := range records {
		for _, rec := range list {
			if subtle.ConstantTimeCompare(want, []byte(strings.ToLower(rec.SHA256))) == 1 && !ok {
				found, ok = rec, true
			}
		}
	}
	return found, ok
}

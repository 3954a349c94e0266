package connection

import "time"

// ServiceName is the name admission is provided under in the scope tree.
const ServiceName = "connection"

// MintToken makes a bearer token that is held only in memory: its
// plaintext for the caller and the record (hash only) for a Config's
// Tokens. The host mints one per process for its own CLI and tests.
func MintToken(name string) (plaintext string, rec TokenRecord, err error) {
	plaintext = newPlaintextToken()
	return plaintext, TokenRecord{ID: newTokenID(), Name: name, SHA256: HashToken(plaintext), CreatedAt: time.Now().UTC()}, nil
}

package room

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/dshgo/dsh/internal/statefile"
)

// StateDoc is the document the rooms' secret is kept in (a file beside
// the boards' records, or a row of the shared database, so every node
// names a board's room alike).
const StateDoc = "rooms"

// FileName is StateDoc's file, in the drawings' metadata directory.
const FileName = "rooms.json"

type secretDoc struct {
	// Secret derives every board's room id and key (base64, 32 bytes).
	Secret string `json:"secret"`
}

// LoadKeys reads the rooms' secret from doc, making it on first use.
func LoadKeys(ctx context.Context, doc statefile.Doc) (*Keys, error) {
	parse := func(where string, data []byte) (secretDoc, error) {
		var d secretDoc
		if err := json.Unmarshal(data, &d); err != nil {
			return d, fmt.Errorf("%s: %w", where, err)
		}
		return d, nil
	}
	var secret []byte
	err := statefile.UpdateDoc(ctx, doc, parse, func(d secretDoc) (secretDoc, bool, error) {
		if b, err := base64.StdEncoding.DecodeString(d.Secret); err == nil && len(b) >= 32 {
			secret = b
			return d, false, nil
		}
		secret = make([]byte, 32)
		_, _ = rand.Read(secret)
		return secretDoc{Secret: base64.StdEncoding.EncodeToString(secret)}, true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("room secret: %w", err)
	}
	return NewKeys(secret)
}

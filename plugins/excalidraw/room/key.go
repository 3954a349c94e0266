package room

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// Key is a room's key: the 128-bit AES-GCM key Excalidraw's collaboration
// encrypts every message with. A room link carries it (#room=<id>,<key>)
// as the `k` of its JSON Web Key: 22 characters of unpadded base64url.
type Key struct {
	raw  []byte
	aead cipher.AEAD
}

// ivSize is the AES-GCM nonce Excalidraw sends beside each message.
const ivSize = 12

// NewKey makes a Key of 16 bytes.
func NewKey(raw []byte) (*Key, error) {
	if len(raw) != 16 {
		return nil, fmt.Errorf("room: a key has 16 bytes, not %d", len(raw))
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCMWithNonceSize(block, ivSize)
	if err != nil {
		return nil, err
	}
	return &Key{raw: append([]byte(nil), raw...), aead: aead}, nil
}

// ParseKey reads a key as a room link writes it.
func ParseKey(s string) (*Key, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("room: key %q is not base64url", s)
	}
	return NewKey(raw)
}

// String is the key as a room link writes it.
func (k *Key) String() string { return base64.RawURLEncoding.EncodeToString(k.raw) }

// Seal encrypts a message with a fresh random IV, as a peer sends it.
func (k *Key) Seal(plain []byte) (data, iv []byte) {
	iv = make([]byte, ivSize)
	_, _ = rand.Read(iv) // crypto/rand never fails (Go 1.24+)
	return k.aead.Seal(nil, iv, plain, nil), iv
}

// ErrUndecryptable is Open's answer to bytes not sealed with the key (or
// changed on the way).
var ErrUndecryptable = errors.New("room: message not encrypted with the room's key")

// Open decrypts a message a peer sent.
func (k *Key) Open(data, iv []byte) ([]byte, error) {
	if len(iv) != ivSize {
		return nil, ErrUndecryptable
	}
	plain, err := k.aead.Open(nil, iv, data, nil)
	if err != nil {
		return nil, ErrUndecryptable
	}
	return plain, nil
}

// Keys derives each board's room id and key from one secret, so every
// node that shares the secret (it is kept in the host's state: one file,
// or the shared database) gives a board the same room.
type Keys struct{ secret []byte }

// NewKeys derives from secret (at least 32 bytes).
func NewKeys(secret []byte) (*Keys, error) {
	if len(secret) < 32 {
		return nil, errors.New("room: the room secret needs at least 32 bytes")
	}
	return &Keys{secret: append([]byte(nil), secret...)}, nil
}

func (k *Keys) derive(what, board string) []byte {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte(what))
	m.Write([]byte{0})
	m.Write([]byte(board))
	return m.Sum(nil)
}

// RoomID is board's room id: 20 hex digits, as Excalidraw's own room ids
// (a board name may hold a '.', which a room link may not).
func (k *Keys) RoomID(board string) string {
	return hex.EncodeToString(k.derive("room id", board)[:10])
}

// Key is board's room key.
func (k *Keys) Key(board string) *Key {
	key, err := NewKey(k.derive("room key", board)[:16])
	if err != nil {
		panic(err) // 16 bytes always make a key
	}
	return key
}

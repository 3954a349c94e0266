package connection

import (
	"strings"
	"testing"
)

func TestHashTokenIsHexSHA256(t *testing.T) {
	// sha256("abc"), a published test vector.
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := HashToken("abc"); got != want {
		t.Fatalf("HashToken = %s", got)
	}
}

func TestNewPlaintextTokenShape(t *testing.T) {
	tok := newPlaintextToken()
	if !strings.HasPrefix(tok, TokenPrefix) || len(tok) != len(TokenPrefix)+43 {
		t.Fatalf("token %q", tok)
	}
	if newPlaintextToken() == tok {
		t.Fatal("tokens repeat")
	}
	if id := newTokenID(); !strings.HasPrefix(id, "tok_") || id == newTokenID() {
		t.Fatalf("bad id %q", id)
	}
}

func TestMatchToken(t *testing.T) {
	a := TokenRecord{ID: "a", Name: "a", SHA256: HashToken("secret-a")}
	b := TokenRecord{ID: "b", Name: "b", SHA256: strings.ToUpper(HashToken("secret-b"))}
	if rec, ok := matchToken("secret-b", []TokenRecord{a}, []TokenRecord{b}); !ok || rec.ID != "b" {
		t.Fatalf("got %v %v", rec, ok)
	}
	if _, ok := matchToken("nope", []TokenRecord{a, b}); ok {
		t.Fatal("wrong token matched")
	}
	if _, ok := matchToken("", []TokenRecord{{SHA256: HashToken("")}}); ok {
		t.Fatal("empty token must never match")
	}
}

func TestValidateRecord(t *testing.T) {
	if err := validateRecord(TokenRecord{SHA256: HashToken("x")}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "abc", strings.Repeat("z", 64)} {
		if validateRecord(TokenRecord{SHA256: bad}) == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

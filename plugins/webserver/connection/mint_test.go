package connection

import "testing"

func TestMintToken(t *testing.T) {
	a, ra, err := MintToken("local")
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := MintToken("local")
	if a == b {
		t.Fatal("tokens repeat")
	}
	if ra.SHA256 != HashToken(a) || ra.Name != "local" || ra.ID == "" {
		t.Fatalf("record %+v does not match", ra)
	}
}

package identity

import "testing"

// A change is named by the credential that made it: a bot by its token
// and person, a person by their name, a host token by its name, never by
// anything a client says of itself.
func TestAuthorNamesTheCredential(t *testing.T) {
	for _, c := range []struct {
		who  Principal
		want string
	}{
		{Principal{Kind: KindToken, ID: "tok_1", Name: "claude", Person: "per_1", PersonName: "erin", Grant: NewGrant(map[string]any{})}, "claude (for erin)"},
		{Principal{Kind: KindToken, ID: "tok_2", Name: "cli", Admin: true}, "cli"},
		{Principal{Kind: KindToken, ID: "sha256:abc", Admin: true}, "a host token"},
		{Principal{Kind: KindSession, ID: "ses_1", Name: "erin", Person: "per_1", PersonName: "erin"}, "erin"},
		{Principal{Kind: KindSession, ID: "ses_2", Name: "Mozilla/5.0 (X11)", Admin: true, HostOwner: true}, "the owner"},
		{Principal{Kind: KindProxy, ID: "per_2", Name: "fay", Person: "per_2", PersonName: "fay"}, "fay"},
		{Local, "local"},
	} {
		if got := c.who.Author(); got != c.want {
			t.Errorf("%s: Author() = %q, want %q", c.who, got, c.want)
		}
	}
}

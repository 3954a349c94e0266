package cli

import (
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

func TestPersonStatus(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Hour), now.Add(-time.Hour)
	for _, tc := range []struct {
		p    accounts.Person
		want string
	}{
		{accounts.Person{Owner: true}, "active"},
		{accounts.Person{PasswordHash: "x"}, "active"},
		{accounts.Person{Invite: &accounts.Invite{ExpiresAt: later}}, "invited (expires " + later.Local().Format("2006-01-02 15:04") + ")"},
		{accounts.Person{Invite: &accounts.Invite{ExpiresAt: earlier}}, "invite expired"},
		{accounts.Person{PasswordHash: "x", Invite: &accounts.Invite{ExpiresAt: later}}, "active, reinvited (expires " + later.Local().Format("2006-01-02 15:04") + ")"},
		{accounts.Person{}, "no password"},
	} {
		if got := personStatus(tc.p, now); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}

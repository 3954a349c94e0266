package accounts_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// The host makes sure it has an owner, the owner invites someone, and
// that person sets a password through the invite and then signs in.
func ExampleStore() {
	dir, _ := os.MkdirTemp("", "dsh-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store := accounts.Open(accounts.File(dir), accounts.Options{})

	owner, created, _ := store.EnsureOwner(ctx, "olga")
	fmt.Println(owner.Name, owner.Owner, created)

	// `dsh user add Bob`: the secret goes into the invite link, once.
	bob, secret, _ := store.Add(ctx, "Bob", "bob@example.com", 24*time.Hour)
	fmt.Println(bob.Name, bob.PasswordHash == "")

	// Bob opens the link and chooses a password.
	_, err := store.AcceptInvite(ctx, secret, "short")
	fmt.Println(err)
	_, _ = store.AcceptInvite(ctx, secret, "correct horse battery")
	_, err = store.AcceptInvite(ctx, secret, "correct horse battery")
	fmt.Println(err)

	// The login page.
	p, err := store.CheckPassword(ctx, "bob", "correct horse battery")
	fmt.Println(p.ID == bob.ID, err)
	_, err = store.CheckPassword(ctx, "bob", "wrong")
	fmt.Println(err)
	// Output:
	// olga true true
	// bob true
	// accounts: weak_password: a password must be at least 8 characters long and at most 256 bytes
	// accounts: invalid_invite: this invite is not valid: it may have expired or been used; ask for a new one
	// true <nil>
	// accounts: bad_credentials: wrong name or password
}

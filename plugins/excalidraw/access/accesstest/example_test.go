package accesstest_test

import (
	"fmt"
	"os"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/identity"
)

// A test moves the clock the code under test reads.
func ExampleClock() {
	clock := accesstest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	clock.Advance(90 * time.Minute)
	fmt.Println(clock.Now().Format(time.Kitchen))
	// Output: 10:30AM
}

// Principals of each kind, and the role each has on a board Ann owns
// and Bob edits.
func ExampleBot() {
	ann := accesstest.Person("per_ann", "Ann")
	bob := accesstest.Person("per_bob", "Bob")
	plan := boards.Board{Name: "plan", Owner: ann.Person, Members: map[string]string{bob.Person: identity.RoleEditor}}
	for _, who := range []identity.Principal{
		ann,
		bob,
		accesstest.Person("per_cy", "Cy"),
		accesstest.Owner("Olga"),
		accesstest.Host("tok_cli"),
		accesstest.Bot("tok_1", ann, access.Grant{Role: identity.RoleViewer, Boards: []string{"plan"}}),
		accesstest.Bot("tok_2", ann, access.Grant{Role: identity.RoleEditor}),
	} {
		fmt.Printf("%s %s: %q\n", who, who.Display(), access.RoleOn(who, plan))
	}
	// Output:
	// session:ses_ann Ann: "owner"
	// session:ses_bob Bob: "editor"
	// session:ses_cy Cy: ""
	// session:ses_own Olga: "owner"
	// token:tok_cli cli: "owner"
	// token:tok_1 helper (for Ann): "viewer"
	// token:tok_2 helper (for Ann): ""
}

// A bot creates a board through a guard; the Binder records it, and the
// bot's next call, refreshed, reaches it. (In a test, Guard(t, clock)
// makes the guard, its store and its Binder.)
func ExampleBinder() {
	dir, err := os.MkdirTemp("", "accesstest-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	var binder accesstest.Binder
	guard := access.NewGuard(boards.Open(boards.File(dir), boards.Options{}), &binder, nil)

	bot := accesstest.Bot("tok_1", accesstest.Person("per_ann", "Ann"), access.Grant{Role: identity.RoleViewer, CanCreateBoards: true})
	if err := guard.Created(accesstest.As(bot), "notes"); err != nil {
		panic(err)
	}
	fmt.Println(binder.Bound("tok_1"))
	fmt.Println(guard.Check(accesstest.As(bot), "notes", access.Read))
	fmt.Println(guard.Check(accesstest.As(binder.Refresh(bot)), "notes", access.Write))
	// Output:
	// [notes]
	// not_found: scene notes does not exist
	// <nil>
}

package access

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
)

// The roles of each kind of principal on boards with and without
// metadata, in and out of the trash, bound and not.
func TestRoleOn(t *testing.T) {
	now := time.Now()
	plan := boards.Board{Name: "plan", Owner: "per_ann", Members: map[string]string{"per_bob": "editor", "per_cy": "viewer"}, Folder: "fld_w"}
	old := boards.Board{Name: "old"} // made before accounts: the host owner's
	trashed := plan
	trashed.Name, trashed.TrashedAt = "bin", &now

	ann := identity.Principal{Kind: "session", Person: "per_ann"}
	bob := identity.Principal{Kind: "session", Person: "per_bob"}
	cy := identity.Principal{Kind: "session", Person: "per_cy"}
	dee := identity.Principal{Kind: "session", Person: "per_dee"}
	owner := identity.Principal{Kind: "session", Person: "per_own", Admin: true, HostOwner: true}
	host := identity.Principal{Kind: "token", Admin: true}
	bot := func(person string, g Grant) identity.Principal {
		return identity.Principal{Kind: "token", Person: person, Grant: NewGrant(g)}
	}
	cases := []struct {
		name string
		who  identity.Principal
		b    boards.Board
		want string
	}{
		{"owner of board", ann, plan, "owner"},
		{"editor member", bob, plan, "editor"},
		{"viewer member", cy, plan, "viewer"},
		{"stranger", dee, plan, ""},
		{"host owner", owner, plan, "owner"},
		{"host token", host, plan, "owner"},
		{"person on a pre-accounts board", ann, old, ""},
		{"host owner on a pre-accounts board", owner, old, "owner"},
		{"owner sees own trash", ann, trashed, "owner"},
		{"member does not see trash", bob, trashed, ""},
		{"editor bot of editor", bot("per_bob", Grant{Role: "editor", Boards: []string{"plan"}}), plan, "editor"},
		{"viewer bot of editor", bot("per_bob", Grant{Role: "viewer", Boards: []string{"plan"}}), plan, "viewer"},
		{"editor bot clamped to its viewer person", bot("per_cy", Grant{Role: "editor", Boards: []string{"plan"}}), plan, "viewer"},
		{"bot of the owner is at most editor", bot("per_ann", Grant{Role: "editor", Boards: []string{"plan"}}), plan, "editor"},
		{"bot bound elsewhere", bot("per_ann", Grant{Role: "editor", Boards: []string{"other"}}), plan, ""},
		{"bot bound by folder", bot("per_bob", Grant{Role: "editor", Folders: []string{"fld_w"}}), plan, "editor"},
		{"bot of a stranger bound to it", bot("per_dee", Grant{Role: "editor", Boards: []string{"plan"}}), plan, ""},
		{"bot on a board it created", bot("per_ann", Grant{Role: "viewer", Created: []string{"plan"}}), plan, "editor"},
		{"bot never sees the trash", bot("per_ann", Grant{Role: "editor", Boards: []string{"bin"}}), trashed, ""},
		{"host owner's bot", bot("per_own", Grant{Role: "editor", Boards: []string{"old"}}), old, "editor"},
	}
	for _, c := range cases {
		if c.who.Person == "per_own" {
			c.who.HostOwner = true
		}
		if got := RoleOn(c.who, c.b); got != c.want {
			t.Errorf("%s: role %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	st := boards.Open(filepath.Join(t.TempDir(), "boards.json"), boards.Options{})
	if _, err := st.Create(t.Context(), boards.Board{Name: "plan", Owner: "per_ann", Members: map[string]string{"per_cy": "viewer"}}); err != nil {
		t.Fatal(err)
	}
	p := New(st)
	as := func(who identity.Principal) context.Context { return identity.With(context.Background(), who) }
	cy := as(identity.Principal{Kind: "session", Person: "per_cy"})
	if err := p.Check(cy, "plan", Read); err != nil {
		t.Fatalf("viewer read: %v", err)
	}
	err := p.Check(cy, "plan", Write)
	if sceneerr.CodeOf(err) != sceneerr.PermissionDenied {
		t.Fatalf("viewer write: %v", err)
	}
	dee := as(identity.Principal{Kind: "session", Person: "per_dee"})
	errPlan, errNone := p.Check(dee, "plan", Read), p.Check(dee, "nothing-here", Read)
	if errPlan == nil || errNone == nil || errPlan.Error() != strings.ReplaceAll(errNone.Error(), "nothing-here", "plan") {
		t.Fatalf("a board one may not see must look like one that does not exist: %v / %v", errPlan, errNone)
	}
	// An unmarked context is the process itself.
	if err := p.Check(context.Background(), "plan", Manage); err != nil {
		t.Fatalf("local: %v", err)
	}
	if !p.Visible(cy)("plan") || p.Visible(dee)("plan") {
		t.Fatal("Visible disagrees with the roles")
	}
}

func TestCanCreate(t *testing.T) {
	as := func(who identity.Principal) context.Context { return identity.With(context.Background(), who) }
	if err := CanCreate(as(identity.Principal{Kind: "token", Person: "per_a", Grant: NewGrant(Grant{Role: "editor"})})); sceneerr.CodeOf(err) != sceneerr.PermissionDenied {
		t.Fatalf("bot without canCreateBoards: %v", err)
	}
	if err := CanCreate(as(identity.Principal{Kind: "token", Person: "per_a", Grant: NewGrant(Grant{Role: "viewer", CanCreateBoards: true})})); err != nil {
		t.Fatalf("bot with canCreateBoards: %v", err)
	}
	if err := CanCreate(as(identity.Principal{Kind: "session", Person: "per_a"})); err != nil {
		t.Fatalf("person: %v", err)
	}
	if err := CanCreate(as(identity.Principal{Kind: "none", ID: "nobody"})); sceneerr.CodeOf(err) != sceneerr.PermissionDenied {
		t.Fatalf("nobody: %v", err)
	}
}

// A record left behind by a scene removed outside dsh does not carry its
// owner and members over to a new board of that name.
func TestCreatedForgetsAStaleRecord(t *testing.T) {
	st := boards.Open(filepath.Join(t.TempDir(), "boards.json"), boards.Options{})
	if _, err := st.Create(t.Context(), boards.Board{Name: "plan", Owner: "per_eve", Members: map[string]string{"per_mal": "editor"}}); err != nil {
		t.Fatal(err)
	}
	g := NewGuard(st, nil, nil)
	ann := identity.With(context.Background(), identity.Principal{Kind: "session", Person: "per_ann", PersonName: "ann", Name: "ann"})
	if err := g.Created(ann, "plan"); err != nil {
		t.Fatal(err)
	}
	b, _, _ := st.Get(t.Context(), "plan")
	if b.Owner != "per_ann" || len(b.Members) != 0 || b.CreatedBy != "ann" {
		t.Fatalf("the new board inherited the old record: %+v", b)
	}
}

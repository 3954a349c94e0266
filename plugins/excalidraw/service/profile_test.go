package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
)

// TestSetBoardProfileWho: a board's profile is set by its owner and its
// editors and read by its viewers; a folder's is its owner's alone (a
// stranger is told there is no such folder); the folder's profile is
// under the board's in what a write's planner receives.
func TestSetBoardProfileWho(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "plan")
	carol := accesstest.Person("per_carol", "Carol")
	e.member(t, "plan", bdBob, identity.RoleEditor)
	e.member(t, "plan", carol, identity.RoleViewer)
	fld := e.folder(t, bdAlice, "Design")
	if _, err := e.svc.MoveBoard(accesstest.As(bdAlice), "plan", fld.ID); err != nil {
		t.Fatal(err)
	}

	body := func(s float64) *profile.Profile { return &profile.Profile{TypeScale: map[string]float64{"body": s}} }
	set := func(who identity.Principal, scope ProfileScope, p *profile.Profile) error {
		_, err := e.svc.SetBoardProfile(accesstest.As(who), SetBoardProfileRequest{Scope: scope, Profile: p})
		return err
	}
	board, folder := ProfileScope{Board: "plan"}, ProfileScope{Folder: fld.ID}
	for _, c := range []struct {
		who   identity.Principal
		scope ProfileScope
		p     *profile.Profile
		code  sceneerr.Code // "" allowed
	}{
		{bdAlice, board, body(16), ""},
		{bdBob, board, body(18), ""}, // an editor
		{carol, board, body(20), sceneerr.PermissionDenied},
		{carol, board, nil, ""}, // a viewer reads it
		{accesstest.Bot("tok_v", bdAlice, access.Grant{Role: identity.RoleViewer, Boards: []string{"plan"}}), board, body(20), sceneerr.PermissionDenied},
		{bdAlice, folder, &profile.Profile{TypeScale: map[string]float64{"title": 40, "body": 14}, Spacing: 30}, ""},
		{bdBob, folder, body(12), sceneerr.NotFound}, // not his folder, though he edits the board in it
		{bdBob, folder, nil, sceneerr.NotFound},
	} {
		err := set(c.who, c.scope, c.p)
		if c.code == "" && err != nil || c.code != "" && sceneerr.CodeOf(err) != c.code {
			t.Errorf("%s sets %+v to %v: %v, want %q", c.who.Name, c.scope, c.p, err, c.code)
		}
	}
	got, err := e.svc.BoardProfile(t.Context(), "plan")
	if err != nil || got.TypeScale["body"] != 18 || got.TypeScale["title"] != 40 || got.Spacing != 30 {
		t.Errorf("BoardProfile = %+v (%v): want Bob's body over Alice's folder", got, err)
	}
	// What a Profiled edit receives when it plans.
	e2, err := e.svc.profiled(accesstest.As(bdAlice), "plan", Steps{SetLegend{}})
	if err != nil || e2.(Steps)[0].(SetLegend).profile.TypeScale["title"] != 40 {
		t.Errorf("a Profiled step got %+v (%v)", e2, err)
	}
}

package boards

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestProfiles(t *testing.T) { eachPlace(t, testProfiles) }

// testProfiles: a board's and a folder's profile are kept, read back by
// another store (another process or node), replaced whole, cleared by the
// zero profile, and a bad one is refused at its field, changing nothing.
func testProfiles(t *testing.T, pl place) {
	s, c := pl.open(t)
	ctx := t.Context()
	work := must[Folder](t)(first(s.CreateFolder(ctx, "per_ann", "Work")))
	must[Board](t)(s.Create(ctx, Board{Name: "plan", Owner: "per_ann", Folder: work.ID}))

	bp := profile.Profile{TypeScale: map[string]float64{"body": 16}, Roles: map[string]profile.Role{"db": {Fill: "#b2f2bb", Meaning: "stores data"}}}
	b := must[Board](t)(s.SetProfile(ctx, "plan", bp))
	if b.Profile.TypeScale["body"] != 16 {
		t.Fatalf("SetProfile answered %+v", b.Profile)
	}
	fp := profile.Profile{TypeScale: map[string]float64{"title": 36, "body": 20}, Spacing: 30}
	f := must[Folder](t)(s.SetFolderProfile(ctx, work.ID, fp))
	if f.Profile == nil || f.Profile.Spacing != 30 {
		t.Fatalf("SetFolderProfile answered %+v", f)
	}

	other := pl.again(t, c)
	got, _, err := other.Get(ctx, "plan")
	if err != nil || got.Profile.Roles["db"].Meaning != "stores data" || got.Profile.TypeScale["body"] != 16 {
		t.Fatalf("another store reads %+v (%v)", got.Profile, err)
	}
	got.Profile.TypeScale["body"] = 99 // a copy: the store's index is untouched
	if again, _, _ := other.Get(ctx, "plan"); again.Profile.TypeScale["body"] != 16 {
		t.Fatal("Get shares the profile's map with the store")
	}
	gf, ok, err := other.Folder(ctx, work.ID)
	if err != nil || !ok || gf.Profile == nil || gf.Profile.TypeScale["title"] != 36 {
		t.Fatalf("another store reads folder %+v (%v)", gf, err)
	}

	// Replaced whole, not merged.
	b = must[Board](t)(s.SetProfile(ctx, "plan", profile.Profile{Spacing: 12}))
	if b.Profile.TypeScale != nil || b.Profile.Spacing != 12 {
		t.Fatalf("replaced profile %+v", b.Profile)
	}
	// Refused at its field; nothing changes.
	err = second(s.SetProfile(ctx, "plan", profile.Profile{TypeScale: map[string]float64{"body": 4}}))
	if e := wantCode(t, err, sceneerr.InvalidOperation); e.Details["pointer"] != "/profile/typeScale/body" {
		t.Errorf("pointer %v", e.Details["pointer"])
	}
	wantCode(t, second(s.SetFolderProfile(ctx, work.ID, profile.Profile{Roles: map[string]profile.Role{"x": {Fill: "#12345"}}})), sceneerr.InvalidOperation)
	wantCode(t, second(s.SetFolderProfile(ctx, "fld_000000000000", fp)), sceneerr.NotFound)
	if b, _, _ := s.Get(ctx, "plan"); b.Profile.Spacing != 12 {
		t.Errorf("a refused profile changed the board: %+v", b.Profile)
	}

	// The zero profile clears.
	if b := must[Board](t)(s.SetProfile(ctx, "plan", profile.Profile{})); !b.Profile.IsZero() {
		t.Errorf("cleared board profile %+v", b.Profile)
	}
	if f := must[Folder](t)(s.SetFolderProfile(ctx, work.ID, profile.Profile{})); f.Profile != nil {
		t.Errorf("cleared folder profile %+v", f.Profile)
	}
}

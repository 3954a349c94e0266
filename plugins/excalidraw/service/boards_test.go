package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
)

// bdEnv is a service guarded by access over a real board store.
type bdEnv struct {
	svc    *Service
	meta   *boards.Store
	clock  *accesstest.Clock
	binder *accesstest.Binder
}

func newBoardEnv(t *testing.T) *bdEnv {
	t.Helper()
	clock := accesstest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	guard, meta, binder := accesstest.Guard(t, clock)
	svc, err := New(Config{
		DrawingsDir: accesstest.Drawings(meta), LockTimeout: 2 * time.Second, Now: clock.Now, Rand: rand.New(rand.NewPCG(3, 4)),
		Guard: guard,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return &bdEnv{svc: svc, meta: meta, clock: clock, binder: binder}
}

var (
	bdAlice = accesstest.Person("per_alice", "Alice")
	bdBob   = accesstest.Person("per_bob", "Bob")
)

// board creates a board as who, failing the test on an error.
func (e *bdEnv) board(t *testing.T, who identity.Principal, name string) *CreatedBoard {
	t.Helper()
	res, err := e.svc.CreateBoard(accesstest.As(who), CreateBoardRequest{Name: name})
	if err != nil {
		t.Fatalf("create %s as %s: %v", name, who.Name, err)
	}
	return res
}

func (e *bdEnv) folder(t *testing.T, who identity.Principal, name string) *CreatedFolder {
	t.Helper()
	res, err := e.svc.CreateFolder(accesstest.As(who), name)
	if err != nil {
		t.Fatalf("create folder %s as %s: %v", name, who.Name, err)
	}
	return res
}

func (e *bdEnv) member(t *testing.T, board string, who identity.Principal, role string) {
	t.Helper()
	if _, err := e.meta.SetMember(t.Context(), board, who.Person, role); err != nil {
		t.Fatal(err)
	}
}

// usage is who's use of r.
func (e *bdEnv) usage(t *testing.T, who identity.Principal, r quota.Rule) quota.Usage {
	t.Helper()
	info, err := e.svc.BotInfo(accesstest.As(who))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range info.Quotas {
		if u.Name == r.Name {
			return u
		}
	}
	t.Fatalf("no quota %s in %+v", r.Name, info.Quotas)
	return quota.Usage{}
}

func bdNames(list []BoardInfo) []string {
	out := []string{}
	for _, b := range list {
		out = append(out, b.Name)
	}
	return out
}

func (e *bdEnv) listed(t *testing.T, who identity.Principal, trash bool) []string {
	t.Helper()
	list, err := e.svc.ListBoards(accesstest.As(who), trash)
	if err != nil {
		t.Fatal(err)
	}
	return bdNames(list)
}

func TestCreateBoardNeedsCanCreateBoards(t *testing.T) {
	e := newBoardEnv(t)
	plain := accesstest.Bot("tok_plain", bdAlice, access.Grant{Role: identity.RoleEditor})
	_, err := e.svc.CreateBoard(accesstest.As(plain), CreateBoardRequest{Name: "b1"})
	if se := wantCode(t, err, sceneerr.PermissionDenied); se.Details["permission"] != "canCreateBoards" {
		t.Fatalf("details %v", se.Details)
	}
	// Asking for a folder too does not change what it is told.
	_, err = e.svc.CreateBoard(accesstest.As(plain), CreateBoardRequest{Name: "b1", Folder: "fld_000000000000"})
	if se := wantCode(t, err, sceneerr.PermissionDenied); se.Details["permission"] != "canCreateBoards" {
		t.Fatalf("with a folder: details %v", se.Details)
	}
	if got := e.binder.Bound("tok_plain"); len(got) != 0 {
		t.Fatalf("bound %v", got)
	}
	if _, err := e.svc.store.st.Read(context.Background(), "b1"); err == nil {
		t.Fatal("the refused board was written")
	}

	maker := accesstest.Bot("tok_maker", bdAlice, access.Grant{Role: identity.RoleViewer, CanCreateBoards: true})
	res, err := e.svc.CreateBoard(accesstest.As(maker), CreateBoardRequest{Name: "b1", Title: " Board one ", Description: "what it is"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "b1" || res.Title != "Board one" || res.Description != "what it is" || res.Role != identity.RoleEditor || res.Revision != 1 || res.FolderWarning != "" {
		t.Fatalf("created %+v", res)
	}
	if got := e.binder.Bound("tok_maker"); !slices.Equal(got, []string{"b1"}) {
		t.Fatalf("bound %v", got)
	}
	rec, ok, err := e.meta.Get(t.Context(), "b1")
	if err != nil || !ok || rec.Owner != "per_alice" || rec.CreatedBy != "helper (for Alice)" {
		t.Fatalf("record %+v %v %v", rec, ok, err)
	}
	// Its person owns it; the bot, once its grant lists it, writes there.
	if role, _ := e.svc.Role(accesstest.As(bdAlice), "b1"); role != identity.RoleOwner {
		t.Fatalf("alice's role %q", role)
	}
	if err := e.svc.May(accesstest.As(e.binder.Refresh(maker)), "b1", access.Write); err != nil {
		t.Fatalf("the bot cannot write to its board: %v", err)
	}
	if got := e.listed(t, e.binder.Refresh(maker), false); !slices.Equal(got, []string{"b1"}) {
		t.Fatalf("bot lists %v", got)
	}
	if got := e.listed(t, bdBob, false); len(got) != 0 {
		t.Fatalf("bob lists %v", got)
	}

	mine := e.board(t, bdAlice, "b2")
	if mine.Role != identity.RoleOwner || mine.Title != "b2" {
		t.Fatalf("alice's board %+v", mine)
	}
}

func TestCreateBoardQuotaFollowsTheClock(t *testing.T) {
	e := newBoardEnv(t)
	bot := accesstest.Bot("tok_q", bdAlice, access.Grant{Role: identity.RoleEditor, CanCreateBoards: true})
	start := e.clock.Now()
	for i := range 10 {
		e.board(t, bot, fmt.Sprintf("q%d", i))
		if i == 4 {
			// Failures do not count: a bad name, a taken name.
			_, err := e.svc.CreateBoard(accesstest.As(bot), CreateBoardRequest{Name: "Bad Name"})
			wantCode(t, err, sceneerr.InvalidName)
			_, err = e.svc.CreateBoard(accesstest.As(e.binder.Refresh(bot)), CreateBoardRequest{Name: "q0"})
			wantCode(t, err, sceneerr.AlreadyExists)
			_, err = e.svc.CreateBoard(accesstest.As(bot), CreateBoardRequest{Name: "qx", Title: "two\nlines"})
			wantCode(t, err, sceneerr.InvalidOperation)
			if u := e.usage(t, bot, quota.CreateBoard); u.Used != 5 {
				t.Fatalf("after 5 creates and 3 failures: used %d", u.Used)
			}
		}
		e.clock.Advance(time.Minute)
	}
	// The 11th, 9.5 minutes after the first: the first leaves the window
	// 50.5 minutes from now.
	e.clock.Advance(-30 * time.Second)
	_, err := e.svc.CreateBoard(accesstest.As(bot), CreateBoardRequest{Name: "q10"})
	se := wantCode(t, err, sceneerr.RateLimited)
	if se.Details["retryable"] != true || se.Details["retryAfterSec"] != 3030 || se.Details["max"] != 10 {
		t.Fatalf("details %v", se.Details)
	}
	u := e.usage(t, bot, quota.CreateBoard)
	if u.Used != 10 || u.Limit != 10 || u.WindowSec != 3600 || u.ResetAt == nil || !u.ResetAt.Equal(start.Add(time.Hour)) {
		t.Fatalf("usage %+v", u)
	}
	if _, err := e.svc.store.st.Read(context.Background(), "q10"); err == nil {
		t.Fatal("the refused board was written")
	}
	// Another person's bot has its own window; a person has none.
	other := accesstest.Bot("tok_other", bdBob, access.Grant{Role: identity.RoleEditor, CanCreateBoards: true})
	e.board(t, other, "o1")
	e.board(t, bdAlice, "a1")

	// An hour after the first create, it has left the window.
	e.clock.Advance(time.Hour - 9*time.Minute - 30*time.Second)
	e.board(t, bot, "q10")
	_, err = e.svc.CreateBoard(accesstest.As(bot), CreateBoardRequest{Name: "q11"})
	if se := wantCode(t, err, sceneerr.RateLimited); se.Details["retryAfterSec"] != 60 {
		t.Fatalf("second window: details %v", se.Details)
	}
}

func TestCreateBoardQuotaUnderConcurrency(t *testing.T) {
	e := newBoardEnv(t)
	bot := accesstest.Bot("tok_c", bdAlice, access.Grant{Role: identity.RoleEditor, CanCreateBoards: true})
	var wg sync.WaitGroup
	errs := make([]error, 15)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = e.svc.CreateBoard(accesstest.As(bot), CreateBoardRequest{Name: fmt.Sprintf("c%d", i)})
		})
	}
	wg.Wait()
	created, limited := 0, 0
	for _, err := range errs {
		switch sceneerr.CodeOf(err) {
		case "":
			created++
		case sceneerr.RateLimited:
			limited++
		default:
			t.Fatalf("unexpected %v", err)
		}
	}
	if created != 10 || limited != 5 || len(e.binder.Bound("tok_c")) != 10 {
		t.Fatalf("created %d, limited %d, bound %v", created, limited, e.binder.Bound("tok_c"))
	}
}

func TestCreateFolderIdempotentAndLimited(t *testing.T) {
	e := newBoardEnv(t)
	bot := accesstest.Bot("tok_f", bdAlice, access.Grant{Role: identity.RoleEditor, CanCreateBoards: true, CanCreateFolders: true})
	work := e.folder(t, bot, "Work")
	if !work.Created || work.Name != "Work" || work.ID == "" {
		t.Fatalf("created %+v", work)
	}
	again := e.folder(t, bot, "  wORK ")
	if again.Created || again.ID != work.ID || again.Name != "Work" {
		t.Fatalf("again %+v", again)
	}
	// The same name from the person: the same folder.
	if f := e.folder(t, bdAlice, "work"); f.Created || f.ID != work.ID {
		t.Fatalf("alice %+v", f)
	}
	if u := e.usage(t, bot, quota.CreateFolder); u.Used != 1 || u.Limit != 20 {
		t.Fatalf("usage %+v", u)
	}
	// Another person's folder of that name is theirs.
	if f := e.folder(t, bdBob, "Work"); !f.Created || f.ID == work.ID {
		t.Fatalf("bob %+v", f)
	}
	_, err := e.svc.CreateFolder(accesstest.As(bot), " ")
	if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != "/name" {
		t.Fatalf("blank name: %v", se.Details)
	}

	for i := 1; i < 20; i++ {
		e.folder(t, bot, fmt.Sprintf("f%d", i))
		e.clock.Advance(time.Minute)
	}
	_, err = e.svc.CreateFolder(accesstest.As(bot), "f20")
	se := wantCode(t, err, sceneerr.RateLimited)
	if se.Details["retryable"] != true || se.Details["retryAfterSec"] != 3600-19*60 || se.Details["limit"] != "createFolder" {
		t.Fatalf("details %v", se.Details)
	}
	// At the limit, an existing name still answers, and costs nothing.
	if f := e.folder(t, bot, "f3"); f.Created {
		t.Fatalf("f3 %+v", f)
	}

	// A person has at most 100 folders; they have 20.
	for i := 21; i <= 100; i++ {
		e.folder(t, bdAlice, fmt.Sprintf("p%d", i))
	}
	_, err = e.svc.CreateFolder(accesstest.As(bdAlice), "one more")
	se = wantCode(t, err, sceneerr.RateLimited)
	if se.Details["retryable"] != false || se.Details["retryAfterSec"] != nil || se.Details["max"] != MaxFoldersPerPerson {
		t.Fatalf("person cap: details %v", se.Details)
	}
	// Their bot, with its hour long gone, is held by the same cap.
	e.clock.Advance(2 * time.Hour)
	_, err = e.svc.CreateFolder(accesstest.As(bot), "one more")
	if se := wantCode(t, err, sceneerr.RateLimited); se.Details["retryable"] != false {
		t.Fatalf("bot under the person cap: %v", se.Details)
	}
	if u := e.usage(t, bot, quota.CreateFolder); u.Used != 0 {
		t.Fatalf("refusals counted: %+v", u)
	}
	if f := e.folder(t, bdAlice, "WORK"); f.Created || f.ID != work.ID {
		t.Fatalf("existing at the cap: %+v", f)
	}
	list, err := e.svc.Folders(accesstest.As(bdAlice))
	if err != nil || len(list) != 100 {
		t.Fatalf("alice has %d folders: %v", len(list), err)
	}
}

func TestFoldersNeedBothPermissions(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "plan")
	f := e.folder(t, bdAlice, "Work")
	if _, err := e.svc.MoveBoard(accesstest.As(bdAlice), "plan", f.ID); err != nil {
		t.Fatal(err)
	}
	for _, g := range []access.Grant{
		{Role: identity.RoleEditor, Boards: []string{"plan"}, CanCreateFolders: true},
		{Role: identity.RoleEditor, Boards: []string{"plan"}, CanCreateBoards: true},
		{Role: identity.RoleEditor, Boards: []string{"plan"}},
	} {
		bot := accesstest.Bot("tok_x", bdAlice, g)
		_, err := e.svc.Folders(accesstest.As(bot))
		wantCode(t, err, sceneerr.PermissionDenied)
		_, err = e.svc.CreateFolder(accesstest.As(bot), "Other")
		if se := wantCode(t, err, sceneerr.PermissionDenied); se.Details["permission"] != "canCreateFolders" {
			t.Fatalf("%+v: %v", g, se.Details)
		}
		_, err = e.svc.MoveBoard(accesstest.As(bot), "plan", f.ID)
		wantCode(t, err, sceneerr.PermissionDenied)
		info, err := e.svc.BotInfo(accesstest.As(bot))
		if err != nil || info.Permissions["canCreateFolders"] || info.Permissions["canCreateBoards"] != g.CanCreateBoards {
			t.Fatalf("%+v: permissions %v %v", g, info.Permissions, err)
		}
		// Its list has no folders, rather than failing.
		list, err := e.svc.ListBoards(accesstest.As(bot), false)
		if err != nil || len(list) != 1 || list[0].Folder != nil {
			t.Fatalf("%+v: list %+v %v", g, list, err)
		}
	}
	both := accesstest.Bot("tok_y", bdAlice, access.Grant{Role: identity.RoleEditor, Boards: []string{"plan"}, CanCreateBoards: true, CanCreateFolders: true})
	if list, err := e.svc.ListBoards(accesstest.As(both), false); err != nil || len(list) != 1 || list[0].Folder == nil || list[0].Folder.Name != "Work" {
		t.Fatalf("list with folders %+v %v", list, err)
	}
	if _, err := e.svc.MoveBoard(accesstest.As(both), "plan", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.MoveBoard(accesstest.As(both), "plan", f.ID); err != nil {
		t.Fatal(err)
	}
	list, err := e.svc.Folders(accesstest.As(both))
	if err != nil || len(list) != 1 || list[0].ID != f.ID || !slices.Equal(list[0].Boards, []string{"plan"}) {
		t.Fatalf("folders %+v %v", list, err)
	}
}

func TestRenameAndDescribeAreTheOwners(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "plan")
	e.member(t, "plan", bdBob, identity.RoleEditor)
	editorBot := accesstest.Bot("tok_e", bdAlice, access.Grant{Role: identity.RoleEditor, Boards: []string{"plan"}})
	viewerBot := accesstest.Bot("tok_v", bdAlice, access.Grant{Role: identity.RoleViewer, Boards: []string{"plan"}})
	bobsBot := accesstest.Bot("tok_b", bdBob, access.Grant{Role: identity.RoleEditor, Boards: []string{"plan"}})
	stray := accesstest.Bot("tok_s", bdAlice, access.Grant{Role: identity.RoleEditor, Boards: []string{"other"}})

	_, err := e.svc.RenameBoard(accesstest.As(bdBob), "plan", "Bob's plan")
	if se := wantCode(t, err, sceneerr.PermissionDenied); se.Details["role"] != identity.RoleEditor || se.Details["needs"] != identity.RoleOwner {
		t.Fatalf("editor member: %v", se.Details)
	}
	ch, err := e.svc.RenameBoard(accesstest.As(bdAlice), "plan", "  Plan Q3 ")
	if err != nil || ch.Name != "plan" || ch.Title != "Plan Q3" || ch.PreviousTitle != "plan" {
		t.Fatalf("owner: %+v %v", ch, err)
	}
	ch, err = e.svc.RenameBoard(accesstest.As(editorBot), "plan", "Plan Q4")
	if err != nil || ch.Title != "Plan Q4" || ch.PreviousTitle != "Plan Q3" {
		t.Fatalf("owner's editor bot: %+v %v", ch, err)
	}
	for _, c := range []struct {
		who  identity.Principal
		code sceneerr.Code
	}{{viewerBot, sceneerr.PermissionDenied}, {bobsBot, sceneerr.PermissionDenied}, {stray, sceneerr.NotFound}} {
		_, err := e.svc.RenameBoard(accesstest.As(c.who), "plan", "Nope")
		wantCode(t, err, c.code)
		_, err = e.svc.DescribeBoard(accesstest.As(c.who), "plan", "Nope")
		wantCode(t, err, c.code)
	}

	d, err := e.svc.DescribeBoard(accesstest.As(editorBot), "plan", "The quarter's plan")
	if err != nil || d.Description != "The quarter's plan" || d.PreviousDescription != "" || d.Title != "Plan Q4" {
		t.Fatalf("describe: %+v %v", d, err)
	}
	_, err = e.svc.DescribeBoard(accesstest.As(bdBob), "plan", "mine")
	wantCode(t, err, sceneerr.PermissionDenied)
	d, err = e.svc.DescribeBoard(accesstest.As(bdAlice), "plan", "")
	if err != nil || d.Description != "" || d.PreviousDescription != "The quarter's plan" {
		t.Fatalf("remove: %+v %v", d, err)
	}

	for _, bad := range []string{"", "  ", "two\nlines", strings.Repeat("x", 121)} {
		_, err := e.svc.RenameBoard(accesstest.As(bdAlice), "plan", bad)
		if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != "/title" {
			t.Fatalf("title %q: %v", bad, se.Details)
		}
	}
	long := strings.Repeat("y", 301)
	_, err = e.svc.DescribeBoard(accesstest.As(bdAlice), "plan", long)
	if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != "/description" {
		t.Fatalf("long description: %v", se.Details)
	}
	_, err = e.svc.RenameBoard(accesstest.As(bdAlice), "ghost", "Ghost")
	wantCode(t, err, sceneerr.NotFound)
	rec, _, _ := e.meta.Get(t.Context(), "plan")
	if rec.Title != "Plan Q4" || rec.Description != "" {
		t.Fatalf("stored %+v", rec)
	}
}

func TestMoveBoardToFolder(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "plan")
	e.board(t, bdBob, "bobs")
	e.member(t, "bobs", bdAlice, identity.RoleEditor)
	work := e.folder(t, bdAlice, "Work")
	bobsFolder := e.folder(t, bdBob, "Bob's")
	bot := accesstest.Bot("tok_m", bdAlice, access.Grant{Role: identity.RoleViewer, Boards: []string{"plan", "bobs"}, CanCreateBoards: true, CanCreateFolders: true})

	// Read is enough.
	res, err := e.svc.MoveBoard(accesstest.As(bot), "plan", work.ID)
	if err != nil || res.Name != "plan" || res.Role != identity.RoleViewer || res.Folder == nil || *res.Folder != (FolderRef{ID: work.ID, Name: "Work"}) {
		t.Fatalf("move: %+v %v", res, err)
	}
	list, err := e.svc.ListBoards(accesstest.As(bdAlice), false)
	if err != nil || len(list) != 2 || list[1].Name != "plan" || list[1].Folder == nil || list[1].Folder.ID != work.ID || list[0].Folder != nil {
		t.Fatalf("alice lists %+v %v", list, err)
	}
	// Bob sees his own folders only: none of alice's.
	e.member(t, "plan", bdBob, identity.RoleViewer)
	if list, _ := e.svc.ListBoards(accesstest.As(bdBob), false); len(list) != 2 || list[0].Folder != nil || list[1].Folder != nil {
		t.Fatalf("bob lists %+v", list)
	}

	_, err = e.svc.MoveBoard(accesstest.As(bot), "plan", bobsFolder.ID)
	if se := wantCode(t, err, sceneerr.NotFound); se.Details["pointer"] != "/folderId" {
		t.Fatalf("someone else's folder: %v", se.Details)
	}
	_, err = e.svc.MoveBoard(accesstest.As(bot), "bobs", work.ID)
	wantCode(t, err, sceneerr.PermissionDenied)
	_, err = e.svc.MoveBoard(accesstest.As(bdAlice), "bobs", work.ID)
	wantCode(t, err, sceneerr.PermissionDenied)
	_, err = e.svc.MoveBoard(accesstest.As(bot), "ghost", work.ID)
	wantCode(t, err, sceneerr.NotFound)

	res, err = e.svc.MoveBoard(accesstest.As(bot), "plan", "")
	if err != nil || res.Folder != nil {
		t.Fatalf("out: %+v %v", res, err)
	}
	if rec, _, _ := e.meta.Get(t.Context(), "plan"); rec.Folder != "" {
		t.Fatalf("stored %+v", rec)
	}

	// A board created into a folder is filed at once; into someone
	// else's it is not created at all.
	cb, err := e.svc.CreateBoard(accesstest.As(bot), CreateBoardRequest{Name: "filed", Folder: work.ID})
	if err != nil || cb.Folder == nil || cb.Folder.ID != work.ID || cb.FolderWarning != "" {
		t.Fatalf("create filed: %+v %v", cb, err)
	}
	_, err = e.svc.CreateBoard(accesstest.As(bot), CreateBoardRequest{Name: "astray", Folder: bobsFolder.ID})
	if se := wantCode(t, err, sceneerr.NotFound); se.Details["pointer"] != "/folderId" {
		t.Fatalf("create into bob's folder: %v", se.Details)
	}
	if u := e.usage(t, bot, quota.CreateBoard); u.Used != 1 {
		t.Fatalf("usage %+v", u)
	}
}

func TestTrashHidesTheBoard(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "plan")
	e.board(t, bdAlice, "keep")
	e.member(t, "plan", bdBob, identity.RoleEditor)
	bot := accesstest.Bot("tok_t", bdAlice, access.Grant{Role: identity.RoleEditor, Boards: []string{"plan"}})
	read := func(who identity.Principal) error {
		_, err := e.svc.Read(accesstest.As(who), ReadRequest{Name: "plan"})
		return err
	}

	_, err := e.svc.TrashBoard(accesstest.As(bdBob), "plan")
	wantCode(t, err, sceneerr.PermissionDenied)
	_, err = e.svc.TrashBoard(accesstest.As(bot), "plan")
	wantCode(t, err, sceneerr.PermissionDenied)
	tr, err := e.svc.TrashBoard(accesstest.As(bdAlice), "plan")
	if err != nil || tr.TrashedAt == nil || !tr.TrashedAt.Equal(e.clock.Now()) {
		t.Fatalf("trash: %+v %v", tr, err)
	}

	for _, who := range []identity.Principal{bdBob, bot} {
		wantCode(t, read(who), sceneerr.NotFound)
		if got := e.listed(t, who, false); slices.Contains(got, "plan") {
			t.Fatalf("%s lists %v", who.Name, got)
		}
		if got := e.listed(t, who, true); len(got) != 0 {
			t.Fatalf("%s's trash %v", who.Name, got)
		}
		_, err := e.svc.RenameBoard(accesstest.As(who), "plan", "x")
		wantCode(t, err, sceneerr.NotFound)
	}
	if got := e.listed(t, bdAlice, false); !slices.Equal(got, []string{"keep"}) {
		t.Fatalf("alice lists %v", got)
	}
	trash, err := e.svc.ListBoards(accesstest.As(bdAlice), true)
	if err != nil || len(trash) != 1 || trash[0].Name != "plan" || trash[0].TrashedAt == nil || trash[0].Role != identity.RoleOwner {
		t.Fatalf("alice's trash %+v %v", trash, err)
	}
	if err := read(bdAlice); err != nil {
		t.Fatalf("the owner cannot read her trash: %v", err)
	}

	_, err = e.svc.RestoreBoard(accesstest.As(bot), "plan")
	wantCode(t, err, sceneerr.PermissionDenied)
	_, err = e.svc.RestoreBoard(accesstest.As(bdBob), "plan")
	wantCode(t, err, sceneerr.NotFound)
	rb, err := e.svc.RestoreBoard(accesstest.As(bdAlice), "plan")
	if err != nil || rb.TrashedAt != nil || rb.Role != identity.RoleOwner {
		t.Fatalf("restore: %+v %v", rb, err)
	}
	_, err = e.svc.RestoreBoard(accesstest.As(bdAlice), "plan")
	wantCode(t, err, sceneerr.InvalidOperation)
	if err := read(bdBob); err != nil {
		t.Fatalf("restored, bob cannot read: %v", err)
	}
	if got := e.listed(t, bot, false); !slices.Equal(got, []string{"plan"}) {
		t.Fatalf("bot lists %v", got)
	}
}

func TestBotInfo(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "plan")
	bot := accesstest.Bot("tok_i", bdAlice, access.Grant{Role: identity.RoleViewer, Boards: []string{"plan"}, CanCreateBoards: true, CanCreateFolders: true})
	first := e.clock.Now()
	e.board(t, bot, "n1")
	e.clock.Advance(10 * time.Minute)
	e.board(t, bot, "n2")
	e.folder(t, bot, "Work")
	bot = e.binder.Refresh(bot)

	info, err := e.svc.BotInfo(accesstest.As(bot))
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != "bot" || info.Name != "helper" || info.Person != "Alice" || info.Role != identity.RoleViewer ||
		!info.Permissions["canCreateBoards"] || !info.Permissions["canCreateFolders"] {
		t.Fatalf("info %+v", info)
	}
	roles := map[string]string{}
	for _, b := range info.Boards {
		roles[b.Name] = b.Role
	}
	if len(roles) != 3 || roles["plan"] != identity.RoleViewer || roles["n1"] != identity.RoleEditor || roles["n2"] != identity.RoleEditor {
		t.Fatalf("boards %v", roles)
	}
	if len(info.Quotas) != 2 {
		t.Fatalf("quotas %+v", info.Quotas)
	}
	b, f := info.Quotas[0], info.Quotas[1]
	if b.Name != "createBoard" || b.Used != 2 || b.Limit != 10 || b.ResetAt == nil || !b.ResetAt.Equal(first.Add(time.Hour)) {
		t.Fatalf("board quota %+v", b)
	}
	if f.Name != "createFolder" || f.Used != 1 || f.Limit != 20 || f.ResetAt == nil || !f.ResetAt.Equal(first.Add(70*time.Minute)) {
		t.Fatalf("folder quota %+v", f)
	}

	person, err := e.svc.BotInfo(accesstest.As(bdAlice))
	if err != nil || person.Kind != "person" || len(person.Quotas) != 0 || !person.Permissions["canCreateBoards"] || len(person.Boards) != 3 {
		t.Fatalf("alice %+v %v", person, err)
	}
	host, err := e.svc.BotInfo(context.Background())
	if err != nil || host.Kind != "host" || !host.Permissions["canCreateFolders"] {
		t.Fatalf("the process %+v %v", host, err)
	}
}

// TestCreateOnAnUnavailableName: a name taken by a board the caller does
// not see, by one in someone's trash or in its own, answers one and the
// same name_unavailable (code, message, details), through Create and
// CreateBoard alike, and changes nothing; a board it sees is
// already_exists.
func TestCreateOnAnUnavailableName(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "hidden")
	e.board(t, bdAlice, "binned")
	e.board(t, bdBob, "mine")
	e.board(t, bdBob, "gone")
	for who, name := range map[identity.Principal]string{bdAlice: "binned", bdBob: "gone"} {
		if _, err := e.svc.TrashBoard(accesstest.As(who), name); err != nil {
			t.Fatal(err)
		}
	}
	bot := accesstest.Bot("tok_c", bdBob, access.Grant{Role: identity.RoleEditor, Boards: []string{"mine"}, CanCreateBoards: true})
	var first *sceneerr.Error
	for _, c := range []struct {
		who  identity.Principal
		name string
	}{{bdBob, "hidden"}, {bdBob, "binned"}, {bdBob, "gone"}, {bot, "hidden"}, {bot, "gone"}} {
		for _, create := range []func() error{
			func() error {
				_, err := e.svc.CreateBoard(accesstest.As(c.who), CreateBoardRequest{Name: c.name})
				return err
			},
			func() error { _, err := e.svc.Create(accesstest.As(c.who), CreateRequest{Name: c.name}); return err },
		} {
			got := wantCode(t, create(), sceneerr.NameUnavailable)
			if len(got.Details) != 1 || got.Details["name"] != c.name {
				t.Fatalf("%s creating %s: details %v", c.who.Name, c.name, got.Details)
			}
			se := &sceneerr.Error{Code: got.Code, Message: strings.ReplaceAll(got.Message, c.name, "NAME")}
			if first == nil {
				first = se
			} else if se.Message != first.Message {
				t.Errorf("%s creating %s: %q, unlike %q", c.who.Name, c.name, se.Message, first.Message)
			}
		}
	}
	_, err := e.svc.CreateBoard(accesstest.As(bdBob), CreateBoardRequest{Name: "mine"})
	wantCode(t, err, sceneerr.AlreadyExists)
	if b, _, _ := e.meta.Get(t.Context(), "hidden"); b.Owner != bdAlice.Person {
		t.Fatalf("hidden changed hands: %+v", b)
	}
}

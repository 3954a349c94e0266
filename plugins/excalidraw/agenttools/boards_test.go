package agenttools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/tools"
)

// btEnv is the registry over a service guarded by access, with board
// metadata on disk.
type btEnv struct {
	reg    *tools.Registry
	svc    *service.Service
	clock  *accesstest.Clock
	binder *accesstest.Binder
}

func newBoardToolsEnv(t *testing.T) *btEnv {
	t.Helper()
	clock := accesstest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	guard, meta, binder := accesstest.Guard(t, clock)
	svc, err := service.New(service.Config{DrawingsDir: accesstest.Drawings(meta), LockTimeout: 2 * time.Second, Now: clock.Now,
		Rand: rand.New(rand.NewPCG(5, 6)), Guard: guard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return &btEnv{reg: registry(t, svc), svc: svc, clock: clock, binder: binder}
}

var (
	btAlice = accesstest.Person("per_alice", "Alice")
	btBob   = accesstest.Person("per_bob", "Bob")
)

// btBot is a connect token of Alice's.
func btBot(id string, g access.Grant) identity.Principal { return accesstest.Bot(id, btAlice, g) }

// call runs a tool as who and checks the result is compact JSON.
func (e *btEnv) call(t *testing.T, who identity.Principal, name, args string) tools.Result {
	t.Helper()
	res := e.reg.Call(accesstest.As(who), name, json.RawMessage(args))
	if !json.Valid(res.JSON) {
		t.Fatalf("%s: not JSON: %s", name, res.JSON)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, res.JSON); err != nil || compact.Len() != len(res.JSON) {
		t.Fatalf("%s: result is not compact: %s", name, res.JSON)
	}
	return res
}

// ok runs a tool that must succeed; it returns the result's members.
func (e *btEnv) ok(t *testing.T, who identity.Principal, name, args string) map[string]any {
	t.Helper()
	res := e.call(t, who, name, args)
	if !res.OK {
		t.Fatalf("%s(%s) as %s failed: %s", name, args, who.Name, res.JSON)
	}
	obj, _ := res.Value().(map[string]any)
	if obj == nil || obj["ok"] != true {
		t.Fatalf("%s: %s", name, res.JSON)
	}
	return obj
}

// fail runs a tool that must fail with code; it returns the error object.
func (e *btEnv) fail(t *testing.T, who identity.Principal, name, args, code string) map[string]any {
	t.Helper()
	res := e.call(t, who, name, args)
	obj, _ := res.Value().(map[string]any)
	eo, _ := obj["error"].(map[string]any)
	if res.OK || eo == nil || eo["code"] != code {
		t.Fatalf("%s(%s) as %s: want %s, got %s", name, args, who.Name, code, res.JSON)
	}
	if _, ok := eo["retryable"].(bool); !ok {
		t.Fatalf("%s: error without retryable: %s", name, res.JSON)
	}
	return eo
}

// btKeys are obj's member names, sorted.
func btKeys(obj map[string]any) []string {
	out := make([]string, 0, len(obj))
	for k := range obj {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func btWantMembers(t *testing.T, what string, obj map[string]any, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := btKeys(obj); !slices.Equal(got, want) {
		t.Fatalf("%s: members %v, want %v (%v)", what, got, want, obj)
	}
}

func TestBoardToolsAnnotations(t *testing.T) {
	readOnly := map[string]bool{ListBoardsTool: true, ListFoldersTool: true, BotInfoTool: true,
		CreateBoardTool: false, RenameBoardTool: false, DescribeBoardTool: false, CreateFolderTool: false, MoveBoardTool: false}
	seen := 0
	for _, tool := range Tools(nil) {
		ro, ok := readOnly[tool.Name]
		if !ok {
			continue
		}
		seen++
		if tool.Annotations.ReadOnly != ro || tool.Annotations.Destructive || tool.Annotations.Title == "" {
			t.Errorf("%s: annotations %+v", tool.Name, tool.Annotations)
		}
		if len(tool.Description) > 160 {
			t.Errorf("%s: description of %d bytes; keep it to a sentence or two", tool.Name, len(tool.Description))
		}
	}
	if seen != len(readOnly) {
		t.Fatalf("%d of the %d board tools registered", seen, len(readOnly))
	}
}

func TestBoardToolsThroughTheRegistry(t *testing.T) {
	e := newBoardToolsEnv(t)
	bot := btBot("tok_1", access.Grant{Role: identity.RoleEditor, CanCreateBoards: true, CanCreateFolders: true})

	info := e.ok(t, bot, BotInfoTool, `{}`)
	btWantMembers(t, "get_bot_info", info, "ok", "kind", "name", "person", "role", "permissions", "boards", "quotas")
	if info["kind"] != "bot" || info["role"] != "editor" || len(info["boards"].([]any)) != 0 {
		t.Fatalf("get_bot_info %v", info)
	}
	if p := info["permissions"].(map[string]any); p["canCreateBoards"] != true || p["canCreateFolders"] != true {
		t.Fatalf("permissions %v", p)
	}
	q := info["quotas"].([]any)[0].(map[string]any)
	btWantMembers(t, "quota", q, "name", "used", "limit", "windowSec")
	if q["name"] != "createBoard" || num(t, q["limit"]) != 10 || num(t, q["used"]) != 0 {
		t.Fatalf("quota %v", q)
	}

	folder := e.ok(t, bot, CreateFolderTool, `{"name":"Work"}`)
	btWantMembers(t, "create_folder", folder, "ok", "folderId", "name", "created")
	fid := folder["folderId"].(string)
	if again := e.ok(t, bot, CreateFolderTool, `{"name":"work"}`); again["created"] != false || again["folderId"] != fid {
		t.Fatalf("create_folder again %v", again)
	}

	created := e.ok(t, bot, CreateBoardTool, `{"name":"plan","title":"Plan","description":"Q3 goals","folderId":"`+fid+`"}`)
	btWantMembers(t, "create_board", created, "ok", "name", "title", "role", "description", "folder", "revision")
	if created["role"] != "editor" || num(t, created["revision"]) != 1 || created["folder"].(map[string]any)["folderId"] != fid {
		t.Fatalf("create_board %v", created)
	}
	bot = e.binder.Refresh(bot)

	list := e.ok(t, bot, ListBoardsTool, `{}`)
	rows := list["boards"].([]any)
	if len(rows) != 1 {
		t.Fatalf("list_boards %v", list)
	}
	btWantMembers(t, "list_boards row", rows[0].(map[string]any), "name", "title", "role", "description", "folder", "revision")

	renamed := e.ok(t, bot, RenameBoardTool, `{"name":"plan","title":"Plan Q3"}`)
	btWantMembers(t, "rename_board", renamed, "ok", "name", "title", "previousTitle")
	if renamed["title"] != "Plan Q3" || renamed["previousTitle"] != "Plan" {
		t.Fatalf("rename_board %v", renamed)
	}
	described := e.ok(t, bot, DescribeBoardTool, `{"name":"plan","description":""}`)
	btWantMembers(t, "set_board_description", described, "ok", "name", "description", "previousDescription")
	if described["description"] != "" || described["previousDescription"] != "Q3 goals" {
		t.Fatalf("set_board_description %v", described)
	}

	folders := e.ok(t, bot, ListFoldersTool, ``)
	fl := folders["folders"].([]any)
	if len(fl) != 1 || fmt.Sprint(fl[0].(map[string]any)["boards"]) != "[plan]" {
		t.Fatalf("list_folders %v", folders)
	}

	out := e.call(t, bot, MoveBoardTool, `{"name":"plan","folderId":null}`)
	if string(out.JSON) != `{"folder":null,"name":"plan","ok":true,"title":"Plan Q3"}` {
		t.Fatalf("move_board_to_folder out: %s", out.JSON)
	}
	in := e.ok(t, bot, MoveBoardTool, `{"name":"plan","folderId":"`+fid+`"}`)
	if in["folder"].(map[string]any)["name"] != "Work" {
		t.Fatalf("move_board_to_folder in %v", in)
	}

	info = e.ok(t, bot, BotInfoTool, `{}`)
	if b := info["boards"].([]any); len(b) != 1 || fmt.Sprint(b[0]) != "map[name:plan role:editor]" {
		t.Fatalf("get_bot_info boards %v", b)
	}
	q = info["quotas"].([]any)[0].(map[string]any)
	if num(t, q["used"]) != 1 || q["resetAt"] != "2026-03-01T10:00:00Z" {
		t.Fatalf("quota %v", q)
	}

	// The trash is the owner's, through the same tool.
	if _, err := e.svc.TrashBoard(accesstest.As(btAlice), "plan"); err != nil {
		t.Fatal(err)
	}
	if rows := e.ok(t, bot, ListBoardsTool, `{"trash":true}`)["boards"].([]any); len(rows) != 0 {
		t.Fatalf("a bot sees the trash: %v", rows)
	}
	trash := e.ok(t, btAlice, ListBoardsTool, `{"trash":true}`)["boards"].([]any)
	if len(trash) != 1 || trash[0].(map[string]any)["trashedAt"] == nil {
		t.Fatalf("alice's trash %v", trash)
	}
}

func TestBoardToolErrorsCarryCodes(t *testing.T) {
	e := newBoardToolsEnv(t)
	if _, err := e.svc.CreateBoard(accesstest.As(btAlice), service.CreateBoardRequest{Name: "plan"}); err != nil {
		t.Fatal(err)
	}
	viewer := btBot("tok_v", access.Grant{Role: identity.RoleViewer, Boards: []string{"plan"}})

	eo := e.fail(t, viewer, RenameBoardTool, `{"name":"plan","title":"Mine"}`, "permission_denied")
	if d := eo["details"].(map[string]any); d["role"] != "viewer" || d["needs"] != "owner" || eo["retryable"] != false {
		t.Fatalf("rename as viewer %v", eo)
	}
	e.fail(t, btBob, DescribeBoardTool, `{"name":"plan","description":"x"}`, "not_found")
	eo = e.fail(t, viewer, CreateBoardTool, `{"name":"new"}`, "permission_denied")
	if eo["details"].(map[string]any)["permission"] != "canCreateBoards" {
		t.Fatalf("create without canCreateBoards %v", eo)
	}
	e.fail(t, viewer, ListFoldersTool, `{}`, "permission_denied")
	e.fail(t, viewer, CreateFolderTool, `{"name":"x"}`, "permission_denied")
	e.fail(t, btAlice, MoveBoardTool, `{"name":"plan","folderId":"fld_000000000000"}`, "not_found")
	eo = e.fail(t, btAlice, RenameBoardTool, `{"name":"plan","title":""}`, "invalid_operation")
	if eo["details"].(map[string]any)["pointer"] != "/title" {
		t.Fatalf("empty title %v", eo)
	}
	// The schema's own refusals are invalid_operation too.
	e.fail(t, btAlice, MoveBoardTool, `{"name":"plan"}`, "invalid_operation")
	e.fail(t, btAlice, ListBoardsTool, `{"trash":"yes"}`, "invalid_operation")
	e.fail(t, btAlice, CreateBoardTool, `{"name":"x","owner":"per_bob"}`, "invalid_operation")
}

// TestBoardToolRateLimited: the 11th create_board in an hour is
// rate_limited, retryable, with retryAfterSec from the clock; a person's
// folder cap is rate_limited too, but waiting does not lift it.
func TestBoardToolRateLimited(t *testing.T) {
	e := newBoardToolsEnv(t)
	bot := btBot("tok_r", access.Grant{Role: identity.RoleEditor, CanCreateBoards: true, CanCreateFolders: true})
	for i := range 10 {
		e.ok(t, bot, CreateBoardTool, fmt.Sprintf(`{"name":"b%d"}`, i))
		e.clock.Advance(time.Minute)
	}
	eo := e.fail(t, bot, CreateBoardTool, `{"name":"b10"}`, "rate_limited")
	if eo["retryable"] != true || num(t, eo["retryAfterSec"]) != 3000 || num(t, eo["details"].(map[string]any)["retryAfterSec"]) != 3000 {
		t.Fatalf("rate_limited %v", eo)
	}
	e.clock.Advance(50 * time.Minute)
	e.ok(t, bot, CreateBoardTool, `{"name":"b10"}`)

	ctx := accesstest.As(btAlice)
	for i := range service.MaxFoldersPerPerson {
		if _, err := e.svc.CreateFolder(ctx, fmt.Sprintf("f%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	eo = e.fail(t, bot, CreateFolderTool, `{"name":"one more"}`, "rate_limited")
	if eo["retryable"] != false || eo["retryAfterSec"] != nil {
		t.Fatalf("the person's cap: %v", eo)
	}
}

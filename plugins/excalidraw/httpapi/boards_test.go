package httpapi

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// bdAsHeader names, in a test request, the principal it is admitted as.
const bdAsHeader = "X-Test-As"

// bdAdmitter admits every request as the principal its X-Test-As header
// names (none: unmarked, the process itself), as the connection service
// marks a session's or a token's request.
type bdAdmitter struct {
	mu  sync.Mutex
	who map[string]identity.Principal
}

func (a *bdAdmitter) RequestRejection(*http.Request) *connection.Rejection { return nil }

func (a *bdAdmitter) Admit(r *http.Request) (*http.Request, func(), *connection.Rejection) {
	a.mu.Lock()
	p, ok := a.who[r.Header.Get(bdAsHeader)]
	a.mu.Unlock()
	if ok {
		r = r.WithContext(identity.With(r.Context(), p))
	}
	return r, func() {}, nil
}

func (a *bdAdmitter) set(key string, p identity.Principal) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.who[key] = p
}

// bdEnv is a web server with the plugin's routes over a service
// guarded by access, admitting requests as the principal they name.
type bdEnv struct {
	*env
	admit *bdAdmitter
	clock *accesstest.Clock
	meta  *boards.Store
}

func newBdEnv(t *testing.T) *bdEnv {
	t.Helper()
	clock := accesstest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	guard, meta, _ := accesstest.Guard(t, clock)
	dir := accesstest.Drawings(meta)
	svc, err := service.New(service.Config{DrawingsDir: dir, LockTimeout: 2 * time.Second, Now: clock.Now, Rand: rand.New(rand.NewPCG(1, 2)),
		Guard: guard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	admit := &bdAdmitter{who: map[string]identity.Principal{}}
	srv, client := serve(t, 1<<20, admit, Options{Service: svc, DrawingsDir: dir})
	return &bdEnv{env: &env{t: t, base: srv.URL(), client: client, dir: dir, svc: svc}, admit: admit, clock: clock, meta: meta}
}

// as sends a request admitted as the principal key names.
func (e *bdEnv) as(key, method, path string, body any) reply {
	e.t.Helper()
	hc := e.client
	e.client = &http.Client{Transport: bdHeaderTransport{base: hc.Transport, key: key}}
	defer func() { e.client = hc }()
	return e.do(method, path, body)
}

// bdHeaderTransport adds the X-Test-As header to each request.
type bdHeaderTransport struct {
	base http.RoundTripper
	key  string
}

func (h bdHeaderTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(bdAsHeader, h.key)
	return h.base.RoundTrip(r)
}

var (
	bdAlice = accesstest.Person("per_alice", "Alice")
	bdBob   = accesstest.Person("per_bob", "Bob")
)

func (e *bdEnv) board(r reply) map[string]any {
	e.t.Helper()
	b, _ := r.body["board"].(map[string]any)
	if b == nil {
		e.t.Fatalf("no board in %s", r.raw)
	}
	return b
}

func TestBoardRoutes(t *testing.T) {
	e := newBdEnv(t)
	e.admit.set("alice", bdAlice)
	e.admit.set("bob", bdBob)

	r := e.as("alice", http.MethodPost, api+"/folders", map[string]any{"name": "Work"})
	expect(t, r, http.StatusCreated, "")
	folder, _ := r.body["folder"].(map[string]any)
	fid, _ := folder["folderId"].(string)
	if fid == "" || folder["created"] != true || folder["name"] != "Work" {
		t.Fatalf("folder %s", r.raw)
	}
	r = e.as("alice", http.MethodPost, api+"/folders", map[string]any{"name": "WORK"})
	expect(t, r, http.StatusOK, "")
	if f := r.body["folder"].(map[string]any); f["created"] != false || f["folderId"] != fid {
		t.Fatalf("existing folder %s", r.raw)
	}

	r = e.as("alice", http.MethodPost, api+"/boards", map[string]any{"name": "plan", "title": "Plan", "description": "Q3", "folderId": fid})
	expect(t, r, http.StatusCreated, "")
	if b := e.board(r); b["name"] != "plan" || b["title"] != "Plan" || b["role"] != "owner" || num(t, b, "revision") != 1 || b["folder"].(map[string]any)["folderId"] != fid {
		t.Fatalf("created %s", r.raw)
	}
	expect(t, e.as("alice", http.MethodPost, api+"/boards", map[string]any{"name": "plan"}), http.StatusConflict, "already_exists")
	expect(t, e.as("alice", http.MethodPost, api+"/boards", map[string]any{"name": "x", "owner": "per_bob"}), http.StatusUnprocessableEntity, "invalid_operation")

	r = e.as("alice", http.MethodGet, api+"/boards", nil)
	expect(t, r, http.StatusOK, "")
	if rows := r.body["boards"].([]any); len(rows) != 1 || rows[0].(map[string]any)["description"] != "Q3" {
		t.Fatalf("list %s", r.raw)
	}
	if rows := e.as("bob", http.MethodGet, api+"/boards", nil).body["boards"].([]any); len(rows) != 0 {
		t.Fatalf("bob lists %v", rows)
	}

	r = e.as("alice", http.MethodPatch, api+"/boards/plan", map[string]any{"title": "Plan Q3", "description": "Goals"})
	expect(t, r, http.StatusOK, "")
	if b := e.board(r); b["title"] != "Plan Q3" || b["previousTitle"] != "Plan" || b["description"] != "Goals" || b["previousDescription"] != "Q3" {
		t.Fatalf("patch %s", r.raw)
	}
	// Both are checked before either is written.
	r = e.as("alice", http.MethodPatch, api+"/boards/plan", map[string]any{"title": "New", "description": "two\nlines"})
	expect(t, r, http.StatusUnprocessableEntity, "invalid_operation")
	if r.details()["pointer"] != "/description" {
		t.Fatalf("bad description %s", r.raw)
	}
	if rec, _, _ := e.meta.Get(t.Context(), "plan"); rec.Title != "Plan Q3" {
		t.Fatalf("renamed by a refused patch: %+v", rec)
	}
	expect(t, e.as("alice", http.MethodPatch, api+"/boards/plan", map[string]any{}), http.StatusUnprocessableEntity, "invalid_operation")
	expect(t, e.as("bob", http.MethodPatch, api+"/boards/plan", map[string]any{"title": "Mine"}), http.StatusNotFound, "not_found")
	if _, err := e.meta.SetMember(t.Context(), "plan", "per_bob", "editor"); err != nil {
		t.Fatal(err)
	}
	r = e.as("bob", http.MethodPatch, api+"/boards/plan", map[string]any{"description": "Mine"})
	expect(t, r, http.StatusForbidden, "permission_denied")
	if r.details()["needs"] != "owner" {
		t.Fatalf("member patch %s", r.raw)
	}

	r = e.as("alice", http.MethodPut, api+"/boards/plan/folder", map[string]any{"folderId": nil})
	expect(t, r, http.StatusOK, "")
	if _, has := e.board(r)["folder"]; has {
		t.Fatalf("out of the folder %s", r.raw)
	}
	r = e.as("alice", http.MethodPut, api+"/boards/plan/folder", map[string]any{"folderId": fid})
	expect(t, r, http.StatusOK, "")
	if e.board(r)["folder"].(map[string]any)["name"] != "Work" {
		t.Fatalf("into the folder %s", r.raw)
	}
	r = e.as("alice", http.MethodPut, api+"/boards/plan/folder", map[string]any{})
	expect(t, r, http.StatusUnprocessableEntity, "invalid_operation")
	if r.details()["pointer"] != "/folderId" {
		t.Fatalf("no folderId %s", r.raw)
	}
	expect(t, e.as("bob", http.MethodPut, api+"/boards/plan/folder", map[string]any{"folderId": fid}), http.StatusNotFound, "not_found")

	r = e.as("alice", http.MethodGet, api+"/folders", nil)
	expect(t, r, http.StatusOK, "")
	if fl := r.body["folders"].([]any); len(fl) != 1 || fmt.Sprint(fl[0].(map[string]any)["boards"]) != "[plan]" {
		t.Fatalf("folders %s", r.raw)
	}

	expect(t, e.as("bob", http.MethodDelete, api+"/boards/plan", nil), http.StatusForbidden, "permission_denied")
	r = e.as("alice", http.MethodDelete, api+"/boards/plan", nil)
	expect(t, r, http.StatusOK, "")
	if e.board(r)["trashedAt"] == nil {
		t.Fatalf("trash %s", r.raw)
	}
	expect(t, e.as("bob", http.MethodGet, api+"/scenes/plan", nil), http.StatusNotFound, "not_found")
	if rows := e.as("alice", http.MethodGet, api+"/boards", nil).body["boards"].([]any); len(rows) != 0 {
		t.Fatalf("trashed board listed %v", rows)
	}
	r = e.as("alice", http.MethodGet, api+"/boards?trash=1", nil)
	if rows := r.body["boards"].([]any); len(rows) != 1 || rows[0].(map[string]any)["name"] != "plan" {
		t.Fatalf("trash %s", r.raw)
	}
	expect(t, e.as("alice", http.MethodGet, api+"/boards?trash=maybe", nil), http.StatusUnprocessableEntity, "invalid_operation")
	r = e.as("alice", http.MethodPost, api+"/boards/plan/restore", nil)
	expect(t, r, http.StatusOK, "")
	if b := e.board(r); b["name"] != "plan" || b["trashedAt"] != nil {
		t.Fatalf("restore %s", r.raw)
	}
	expect(t, e.as("bob", http.MethodGet, api+"/scenes/plan", nil), http.StatusOK, "")
}

func TestMeRoute(t *testing.T) {
	e := newBdEnv(t)
	e.admit.set("alice", bdAlice)
	e.admit.set("bot", accesstest.Bot("tok_1", bdAlice, access.Grant{Role: identity.RoleEditor}))
	e.admit.set("host", accesstest.Host("tok_h"))
	e.admit.set("owner", accesstest.Owner("Olga"))
	for key, want := range map[string]string{
		"alice": `{"kind":"person","name":"Alice","person":"Alice","personId":"per_alice","author":"Alice","admin":false,"hostOwner":false}`,
		"bot":   `{"kind":"bot","name":"helper","person":"Alice","personId":"per_alice","author":"helper (for Alice)","admin":false,"hostOwner":false}`,
		"host":  `{"kind":"host","name":"cli","person":"","author":"cli","admin":true,"hostOwner":false}`,
		"owner": `{"kind":"person","name":"Olga","person":"Olga","personId":"` + accesstest.HostOwner + `","author":"Olga","admin":true,"hostOwner":true}`,
		"":      `{"kind":"local","name":"local","person":"","author":"local","admin":true,"hostOwner":false}`,
	} {
		r := e.as(key, http.MethodGet, api+"/me", nil)
		expect(t, r, http.StatusOK, "")
		if got := string(r.raw); got != want+"\n" {
			t.Errorf("%q: %s, want %s", key, got, want)
		}
	}
}

// TestBoardRoutesRateLimited: over a bot's hourly creates the answer is
// 429 with the tool's details (retryable, retryAfterSec) and a
// Retry-After header.
func TestBoardRoutesRateLimited(t *testing.T) {
	e := newBdEnv(t)
	e.admit.set("bot", accesstest.Bot("tok_r", bdAlice, access.Grant{Role: identity.RoleEditor, CanCreateBoards: true, CanCreateFolders: true}))
	for i := range 10 {
		expect(t, e.as("bot", http.MethodPost, api+"/boards", map[string]any{"name": fmt.Sprintf("b%d", i)}), http.StatusCreated, "")
		e.clock.Advance(time.Minute)
	}
	r := e.as("bot", http.MethodPost, api+"/boards", map[string]any{"name": "b10"})
	expect(t, r, http.StatusTooManyRequests, "rate_limited")
	if d := r.details(); d["retryable"] != true || d["retryAfterSec"] != float64(3000) || d["limit"] != "createBoard" {
		t.Fatalf("details %s", r.raw)
	}
	if got := r.header.Get("Retry-After"); got != "3000" {
		t.Fatalf("Retry-After %q", got)
	}
	folders := []string{}
	for i := range 21 {
		r := e.as("bot", http.MethodPost, api+"/folders", map[string]any{"name": fmt.Sprintf("f%d", i)})
		if r.status != http.StatusCreated {
			folders = append(folders, r.code())
		}
	}
	if !slices.Equal(folders, []string{"rate_limited"}) {
		t.Fatalf("the 21st folder: %v", folders)
	}
}

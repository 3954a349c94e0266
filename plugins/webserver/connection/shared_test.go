package connection

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// node is one dsh node of a test cluster: its own pool on the shared
// database, its backend, and its connection service behind a real HTTP
// server.
type node struct {
	*peopleProbe
	state *pgstate.Backend
}

// cluster makes a fresh database for t and returns what starts a node on
// dsn (the database's, or one that reaches it another way).
func cluster(t *testing.T) (dsn string, start func(dsn string) *node) {
	return pgtest.DSN(t), func(dsn string) *node {
		t.Helper()
		pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		state := pgstate.New(pool, pgstate.Options{Timeout: 5 * time.Second})
		st := accounts.Open("", accounts.Options{State: state, HashParams: &cheapHashes})
		return &node{peopleProbe: newPeopleProbeOn(t, st, state), state: state}
	}
}

func twoNodes(t *testing.T) (a, b *node) {
	dsn, start := cluster(t)
	return start(dsn), start(dsn)
}

// linkPath is a login link's path and query, minted on n.
func (n *node) linkPath(t *testing.T) string {
	t.Helper()
	link, _, err := n.svc.LoginLink(t.Context(), n.srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(link, n.srv.URL)
}

// A session started on one node is valid on the other; a logout on
// either ends it on both.
func TestSharedSessions(t *testing.T) {
	a, b := twoNodes(t)
	a.member(t, "bob", "correct horse battery")
	res := b.post(t, "/login", url.Values{"name": {"bob"}, "password": {"correct horse battery"}}, b.fromPage())
	c := sessionCookie(t, res)
	for _, n := range []*node{a, b} {
		if who := n.admittedAs(t, c); who != "bob" {
			t.Fatalf("admitted as %q, want bob on both nodes", who)
		}
	}
	if list, err := a.svc.ListSessions(t.Context()); err != nil || len(list) != 1 {
		t.Fatalf("sessions on the other node: %+v %v", list, err)
	}
	if res := a.post(t, "/logout", nil, a.fromPage(), c); res.status != http.StatusSeeOther {
		t.Fatalf("logout: %d %s", res.status, res.body)
	}
	for _, n := range []*node{a, b} {
		if who := n.admittedAs(t, c); who != "" {
			t.Fatalf("a logged-out session admitted as %q", who)
		}
	}
}

// A login link minted on one node works on another, once.
func TestSharedLoginLinks(t *testing.T) {
	a, b := twoNodes(t)
	path := a.linkPath(t)
	res := b.do(t, http.MethodGet, path, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("link minted on A, used on B: %d %s", res.status, res.body)
	}
	if who := a.admittedAs(t, sessionCookie(t, res)); who != "olga" {
		t.Fatalf("the link's session is %q on A, want the owner", who)
	}
	for _, n := range []*node{a, b} {
		if res := n.do(t, http.MethodGet, path, nil); res.status != http.StatusForbidden {
			t.Fatalf("a used link: %d", res.status)
		}
	}
	// Both nodes at once: one link, one session.
	path = b.linkPath(t)
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, n := range []*node{a, b} {
		wg.Go(func() { statuses[i] = n.do(t, http.MethodGet, path, nil).status })
	}
	wg.Wait()
	if won := (statuses[0] == http.StatusSeeOther) != (statuses[1] == http.StatusSeeOther); !won {
		t.Fatalf("one link redeemed on two nodes at once: %v, want exactly one 303", statuses)
	}
	// Closing a node does not end the links the others serve.
	path = a.linkPath(t)
	a.svc.Close()
	if res := b.do(t, http.MethodGet, path, nil); res.status != http.StatusSeeOther {
		t.Fatalf("a link after its node closed: %d", res.status)
	}
}

// heldOpen admits r on n and returns its context, which ends when its
// credential is cut.
func heldOpen(t *testing.T, n *node, r *http.Request) context.Context {
	t.Helper()
	admitted, done, rej := n.svc.Admit(r)
	if rej != nil {
		t.Fatalf("not admitted: %v", rej)
	}
	t.Cleanup(done)
	return admitted.Context()
}

func waitCut(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatalf("%s: the open request on the other node was not cut", what)
	}
}

// A token or session revoked, or a person removed, on one node is refused
// by the other at its next request, and with the change notices wired to
// Recheck, what the other node holds open ends at once.
func TestSharedRevocationCutsOtherNodes(t *testing.T) {
	a, b := twoNodes(t)
	stop, err := b.state.Listen(context.Background(), b.svc.Recheck)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	tok, rec, err := a.svc.Tokens().Create(t.Context(), "ci")
	if err != nil {
		t.Fatal(err)
	}
	bearer := map[string]string{"Authorization": "Bearer " + tok}
	if res := b.do(t, http.MethodGet, "/api", bearer); res.status != http.StatusOK {
		t.Fatalf("a token minted on A, on B: %d %s", res.status, res.body)
	}
	held := heldOpen(t, b, bearerReq(tok))
	if _, err := a.svc.RevokeToken(t.Context(), rec.ID); err != nil {
		t.Fatal(err)
	}
	waitCut(t, held, "token")
	expect(t, b.do(t, http.MethodGet, "/api", bearer), http.StatusUnauthorized, CodeInvalidToken)

	a.member(t, "bob", "correct horse battery")
	c := sessionCookie(t, a.post(t, "/login", url.Values{"name": {"bob"}, "password": {"correct horse battery"}}, a.fromPage()))
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/x", nil)
	r.AddCookie(c)
	held = heldOpen(t, b, r)
	if _, err := a.svc.RemovePerson(t.Context(), "bob"); err != nil {
		t.Fatal(err)
	}
	waitCut(t, held, "removed person")
	if who := b.admittedAs(t, c); who != "" {
		t.Fatalf("a removed person's session admitted as %q", who)
	}
}

// Recheck on one host ends what another process revoked in the files.
func TestRecheckFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tokens.json")
	svc, err := New(Config{TokenFile: file, SessionFile: filepath.Join(dir, SessionFileName)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	tok, rec, err := svc.Tokens().Create(t.Context(), "ci")
	if err != nil {
		t.Fatal(err)
	}
	admitted, done, rej := svc.Admit(bearerReq(tok))
	if rej != nil {
		t.Fatal(rej)
	}
	defer done()
	var told []string
	defer svc.OnRevoke(func(p Principal) { told = append(told, p.String()) })()
	svc.Recheck(TokensDoc)
	if admitted.Context().Err() != nil || len(told) != 0 {
		t.Fatal("Recheck cut a token that is still there")
	}
	if _, err := OpenTokenStore(file).Revoke(t.Context(), rec.ID); err != nil { // the CLI
		t.Fatal(err)
	}
	svc.Recheck("unrelated")
	if admitted.Context().Err() != nil {
		t.Fatal("Recheck of another document cut the token")
	}
	svc.Recheck("")
	if admitted.Context().Err() == nil || len(told) != 1 || told[0] != PrincipalToken+":"+rec.ID {
		t.Fatalf("Recheck: cut %v, told %v", admitted.Context().Err(), told)
	}
}

// cutter is a TCP relay to the database that can be cut, as a network
// partition cuts a node off.
type cutter struct {
	l      net.Listener
	target string
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  []net.Conn
}

func newCutter(t *testing.T, target string) *cutter {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutter{l: l, target: target}
	c.wg.Go(func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			c.mu.Lock()
			c.conns = append(c.conns, in, out)
			c.mu.Unlock()
			relay := func(dst, src net.Conn) {
				_, _ = io.Copy(dst, src)
				dst.Close()
				src.Close()
			}
			c.wg.Go(func() { relay(in, out) })
			c.wg.Go(func() { relay(out, in) })
		}
	})
	t.Cleanup(c.cut)
	return c
}

// cut closes the relay and every connection through it.
func (c *cutter) cut() {
	c.l.Close()
	c.mu.Lock()
	for _, conn := range c.conns {
		conn.Close()
	}
	c.mu.Unlock()
	c.wg.Wait()
}

// through is dsn, going through c.
func (c *cutter) through(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = c.l.Addr().String()
	return u.String()
}

// A node cut off from the database refuses every credential and login
// link, with the reason in its log (a bearer token or a session with 503
// store_unavailable, retryable, never as invalid), and admits again once
// it is back: it never admits what it cannot check.
func TestSharedStateUnreachableFailsClosed(t *testing.T) {
	dsn, start := cluster(t)
	u, _ := url.Parse(dsn)
	relay := newCutter(t, u.Host)
	cutOff, other := start(relay.through(t, dsn)), start(dsn)
	tok, _, err := other.svc.Tokens().Create(t.Context(), "ci")
	if err != nil {
		t.Fatal(err)
	}
	other.member(t, "bob", "correct horse battery")
	c := sessionCookie(t, other.post(t, "/login", url.Values{"name": {"bob"}, "password": {"correct horse battery"}}, other.fromPage()))
	bearer := map[string]string{"Authorization": "Bearer " + tok}
	if res := cutOff.do(t, http.MethodGet, "/api", bearer); res.status != http.StatusOK {
		t.Fatalf("before the cut: %d %s", res.status, res.body)
	}
	path := other.linkPath(t)

	relay.cut()
	// Neither admitted nor called invalid: the credential may be fine,
	// so the client is told to try again (and keeps it).
	for range 2 { // the first query meets the closed connection, the next a refused dial
		expect(t, cutOff.do(t, http.MethodGet, "/api", bearer), http.StatusServiceUnavailable, CodeStoreUnavailable)
	}
	expect(t, cutOff.do(t, http.MethodGet, "/api", map[string]string{"Sec-Fetch-Site": "same-origin"}, c), http.StatusServiceUnavailable, CodeStoreUnavailable)
	if who := cutOff.admittedAs(t, c); who != "" {
		t.Fatalf("a session admitted as %q without its database", who)
	}
	if res := cutOff.do(t, http.MethodGet, path, nil); res.status != http.StatusServiceUnavailable || len(res.resp.Cookies()) != 0 {
		t.Fatalf("a login link without the database: %d %v", res.status, res.resp.Cookies())
	}
	res := cutOff.post(t, "/login", url.Values{"name": {"bob"}, "password": {"correct horse battery"}}, cutOff.fromPage())
	if res.status < 500 || len(res.resp.Cookies()) != 0 {
		t.Fatalf("a password sign-in without the database: %d %v", res.status, res.resp.Cookies())
	}
	if _, _, err := cutOff.svc.LoginLink(t.Context(), cutOff.srv.URL, ""); !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("LoginLink = %v, want ErrUnreachable", err)
	}
	// The link was not used up by the refused try.
	if res := other.do(t, http.MethodGet, path, nil); res.status != http.StatusSeeOther {
		t.Fatalf("the link on a node that reaches the database: %d", res.status)
	}

	// A node that cannot reach the database does not start.
	if _, err := New(Config{State: cutOff.state}, nil); !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("New = %v, want ErrUnreachable", err)
	}
}

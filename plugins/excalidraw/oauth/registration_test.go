package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
)

// newClock is a test's clock, moved by hand (accesstest's).
func newClock() *accesstest.Clock {
	return accesstest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
}

// eachBackend runs test on a single host's state (the clients file, the
// windows in its memory: every "node" is that one host) and on nodes
// sharing PostgreSQL (each node a pool of its own).
func eachBackend(t *testing.T, test func(t *testing.T, node func() statefile.Backend, clientsDoc func(statefile.Backend) statefile.Doc)) {
	t.Run("files", func(t *testing.T) {
		dir := t.TempDir()
		b := statefile.Files(dir)
		test(t, func() statefile.Backend { return b }, func(statefile.Backend) statefile.Doc {
			return statefile.File(filepath.Join(dir, ClientsFile), clientsWhat)
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		test(t, func() statefile.Backend {
			pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			return pgstate.New(pool, pgstate.Options{})
		}, func(b statefile.Backend) statefile.Doc { return b.Doc(ClientsDoc) })
	})
}

// registrar is the registration endpoint of one node on a loopback port,
// with the node's client store.
type registrar struct {
	url     string
	clients *clients
}

func startRegistrar(t *testing.T, state statefile.Backend, doc statefile.Doc, now func() time.Time, limits Registration) registrar {
	t.Helper()
	s := &Server{o: Options{Now: now}, log: zap.NewNop(), clients: newClients(doc, now, limits), windows: state.Windows()}
	e := echo.New()
	e.POST(RegisterPath, s.register)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return registrar{url: srv.URL, clients: s.clients}
}

// from is an HTTP client whose connections come from the loopback
// address addr (any of 127.0.0.0/8 on Linux), as another machine's would.
func from(t *testing.T, addr string) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// answer is a registration's answer.
type answer struct {
	status     int
	retryAfter string
	ClientID   string `json:"client_id"`
	Error      string `json:"error"`
	Details    struct {
		Limit         string `json:"limit"`
		Max           int    `json:"max"`
		WindowSec     int    `json:"windowSec"`
		Retryable     bool   `json:"retryable"`
		RetryAfterSec int    `json:"retryAfterSec"`
	} `json:"details"`
}

func register(t *testing.T, c *http.Client, r registrar, body string) answer {
	t.Helper()
	if body == "" {
		body = `{"client_name":"probe","redirect_uris":["http://127.0.0.1:4242/cb"],"token_endpoint_auth_method":"none"}`
	}
	resp, err := c.Post(r.url+RegisterPath, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatalf("register: %d, body: %v", resp.StatusCode, err)
	}
	return a
}

func storedClients(t *testing.T, d statefile.Doc) []Client {
	t.Helper()
	f, err := statefile.ReadDoc(t.Context(), d, parseClients)
	if err != nil {
		t.Fatal(err)
	}
	return f.Clients
}

// One address registers at most registrationsPerHourPerAddress clients
// in a sliding hour, counted across nodes: past it, 429 rate_limited
// with retryAfterSec (and Retry-After), storing nothing; other addresses
// are not held back; bad metadata is refused for itself first and counts
// nothing; an hour later the address registers again.
func TestRegistrationRateLimitedPerAddress(t *testing.T) {
	eachBackend(t, func(t *testing.T, node func() statefile.Backend, doc func(statefile.Backend) statefile.Doc) {
		clk := newClock()
		limits := Registration{PerHourPerAddress: 3}
		b1, b2 := node(), node()
		n1, n2 := startRegistrar(t, b1, doc(b1), clk.Now, limits), startRegistrar(t, b2, doc(b2), clk.Now, limits)
		a, other := from(t, "127.0.3.1"), from(t, "127.0.4.1")
		for i, n := range []registrar{n1, n2, n1} {
			if got := register(t, a, n, ""); got.status != http.StatusCreated || got.ClientID == "" {
				t.Fatalf("registration %d: %+v", i, got)
			}
			clk.Advance(time.Minute)
		}
		for _, n := range []registrar{n1, n2} {
			got := register(t, a, n, "")
			d := got.Details
			if got.status != http.StatusTooManyRequests || got.Error != "rate_limited" || got.retryAfter != "3420" ||
				d.RetryAfterSec != 3420 || !d.Retryable || d.Limit != SettingRegistrationsPerHour || d.Max != 3 || d.WindowSec != 3600 {
				t.Fatalf("a fourth registration within the hour: %+v", got)
			}
		}
		if got := register(t, a, n2, `{"redirect_uris":["http://evil.example/cb"]}`); got.status != http.StatusBadRequest || got.Error != "invalid_redirect_uri" {
			t.Fatalf("bad metadata from a limited address: %+v", got)
		}
		if n := len(storedClients(t, doc(b1))); n != 3 {
			t.Fatalf("%d clients stored, want the 3 allowed", n)
		}
		if got := register(t, other, n2, ""); got.status != http.StatusCreated {
			t.Fatalf("another address: %+v", got)
		}
		clk.Advance(time.Hour - 3*time.Minute) // the first registration leaves the window
		if got := register(t, a, n1, ""); got.status != http.StatusCreated {
			t.Fatalf("an hour after the first: %+v", got)
		}
		if got := register(t, a, n2, ""); got.status != http.StatusTooManyRequests || got.Details.RetryAfterSec != 60 {
			t.Fatalf("the next within the hour: %+v", got)
		}
		// A bad one counted nothing.
		clk.Advance(time.Minute)
		if got := register(t, a, n2, ""); got.status != http.StatusCreated {
			t.Fatalf("an hour after the second: %+v", got)
		}
	})
}

// The probe: registrations far past the cap on ungranted clients, from
// many addresses, never make a later registration fail (they used to be
// 503 from then on, across restarts and nodes); the store keeps the
// cap's worth.
func TestRegistrationNeverRefusedAtTheCap(t *testing.T) {
	eachBackend(t, func(t *testing.T, node func() statefile.Backend, doc func(statefile.Backend) statefile.Doc) {
		clk := newClock()
		limits := Registration{PerHourPerAddress: 5, MaxUngranted: 20}
		b1, b2 := node(), node()
		n1, n2 := startRegistrar(t, b1, doc(b1), clk.Now, limits), startRegistrar(t, b2, doc(b2), clk.Now, limits)
		for i := range 12 {
			c := from(t, fmt.Sprintf("127.0.5.%d", i+1))
			for j := range 5 {
				if got := register(t, c, []registrar{n1, n2}[j%2], ""); got.status != http.StatusCreated {
					t.Fatalf("registration %d from address %d: %+v", j, i, got)
				}
			}
		}
		if n := len(storedClients(t, doc(b2))); n != 20 {
			t.Fatalf("%d clients kept, want the cap, 20", n)
		}
		// A restarted node (a new store on the same state) registers too.
		b3 := node()
		if got := register(t, from(t, "127.0.6.1"), startRegistrar(t, b3, doc(b3), clk.Now, limits), ""); got.status != http.StatusCreated {
			t.Fatalf("after the flood, on a new node: %+v", got)
		}
	})
}

// At the cap a registration evicts the ungranted client of the network
// that holds the most, the oldest of its: a flood from one network,
// whatever the number of its addresses, evicts its own registrations and
// not a person's; never a granted client; a client whose consent page a
// signed-in person opened only when every ungranted one was.
func TestCapEvictsTheFloodNotThePerson(t *testing.T) {
	eachBackend(t, func(t *testing.T, node func() statefile.Backend, doc func(statefile.Backend) statefile.Doc) {
		clk := newClock()
		b := node()
		c := newClients(doc(b), clk.Now, Registration{MaxUngranted: 10})
		reg := func(from string) Client {
			t.Helper()
			clk.Advance(time.Second)
			cl, err := c.register(t.Context(), "x", []string{"http://127.0.0.1:4242/cb"}, from)
			if err != nil {
				t.Fatal(err)
			}
			return cl
		}
		person := reg("198.51.100.7")    // the oldest, alone on its network
		granted := reg("203.0.113.9")    // got its token
		seen := reg("2001:db8:1:2::/64") // its consent page is open
		if err := c.mark(t.Context(), granted.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := c.mark(t.Context(), seen.ID, false); err != nil {
			t.Fatal(err)
		}
		for i := range 200 { // many addresses, two networks
			reg(fmt.Sprintf("192.0.2.%d", i%250))
			reg(fmt.Sprintf("2001:db8:1:%x::/64", 0x100+i))
		}
		for _, cl := range []Client{person, granted, seen} {
			if _, ok := c.get(t.Context(), cl.ID); !ok {
				t.Fatalf("client from %s evicted by the flood", cl.From)
			}
		}
		if n := ungranted(storedClients(t, doc(b))); n != 10 {
			t.Fatalf("%d ungranted clients kept, want the cap, 10", n)
		}
		// When every ungranted client was seen, the oldest seen one goes.
		c2 := newClients(doc(node()), clk.Now, Registration{MaxUngranted: 10})
		for _, cl := range storedClients(t, doc(b)) {
			if err := c2.mark(t.Context(), cl.ID, false); err != nil {
				t.Fatal(err)
			}
		}
		c = c2
		reg("192.0.2.1")
		if _, ok := c.get(t.Context(), person.ID); ok {
			t.Fatal("the oldest seen client kept when only seen ones were left to evict")
		}
		if _, ok := c.get(t.Context(), granted.ID); !ok {
			t.Fatal("a granted client evicted")
		}
	})
}

// An ungranted client expires after ungrantedClientTTLHours: not found
// from then on, dropped by the next registration. A granted one is kept,
// and so is one that holds a connect token but was registered before
// grants were recorded (it is marked granted).
func TestUngrantedClientsExpire(t *testing.T) {
	eachBackend(t, func(t *testing.T, node func() statefile.Backend, doc func(statefile.Backend) statefile.Doc) {
		clk := newClock()
		b := node()
		c := newClients(doc(b), clk.Now, Registration{UngrantedTTL: 24 * time.Hour})
		var withToken []string
		c.tokens = func(context.Context) (map[string]bool, error) {
			ids := map[string]bool{}
			for _, id := range withToken {
				ids[id] = true
			}
			return ids, nil
		}
		reg := func() Client {
			t.Helper()
			cl, err := c.register(t.Context(), "x", []string{"http://127.0.0.1:4242/cb"}, "127.0.0.1")
			if err != nil {
				t.Fatal(err)
			}
			return cl
		}
		unused, granted, legacy := reg(), reg(), reg()
		if err := c.mark(t.Context(), granted.ID, true); err != nil {
			t.Fatal(err)
		}
		withToken = []string{legacy.ID}
		clk.Advance(24*time.Hour - time.Second)
		for _, cl := range []Client{unused, granted, legacy} {
			if _, ok := c.get(t.Context(), cl.ID); !ok {
				t.Fatalf("%s gone before its day", cl.ID)
			}
		}
		clk.Advance(time.Second)
		if _, ok := c.get(t.Context(), unused.ID); ok {
			t.Fatal("an ungranted client found after its day")
		}
		if _, err := c.GetByID(context.Background(), unused.ID); err == nil {
			t.Fatal("the OAuth library finds an expired client")
		}
		for _, cl := range []Client{granted, legacy} {
			if _, ok := c.get(t.Context(), cl.ID); !ok {
				t.Fatalf("%s expired", cl.ID)
			}
		}
		fresh := reg()
		var ids []string
		for _, cl := range storedClients(t, doc(node())) {
			ids = append(ids, cl.ID)
			if cl.ID == legacy.ID && cl.GrantedAt == nil {
				t.Fatal("the client with a token not marked granted")
			}
		}
		if want := []string{granted.ID, legacy.ID, fresh.ID}; fmt.Sprint(ids) != fmt.Sprint(want) {
			t.Fatalf("kept %v, want %v", ids, want)
		}
	})
}

// While the shared database cannot be reached a registration is 503
// store_unavailable, retryable, and nothing is registered.
func TestRegistrationWithoutTheDatabase(t *testing.T) {
	pool, err := pgxpool.New(context.Background(), "postgres://dsh@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	b := pgstate.New(pool, pgstate.Options{})
	r := startRegistrar(t, b, b.Doc(ClientsDoc), time.Now, Registration{})
	got := register(t, from(t, "127.0.3.1"), r, "")
	if got.status != http.StatusServiceUnavailable || got.Error != "store_unavailable" || !got.Details.Retryable ||
		got.Details.RetryAfterSec != 2 || got.retryAfter != "2" || got.ClientID != "" {
		t.Fatalf("registration without the database: %+v", got)
	}
}

// A client name with a control character is refused as invalid client
// metadata before it counts or is stored: it would name the connect
// tokens the client is issued, which names.Check holds to printable text.
func TestRegistrationRefusesControlCharactersInTheName(t *testing.T) {
	dir := t.TempDir()
	b := statefile.Files(dir)
	doc := statefile.File(filepath.Join(dir, ClientsFile), clientsWhat)
	r := startRegistrar(t, b, doc, newClock().Now, Registration{PerHourPerAddress: 1})
	c := from(t, "127.0.0.9")
	for _, name := range []string{`probe\u001b[31m`, `a\u0000b`, `rtl\u202e`} {
		a := register(t, c, r, `{"client_name":"`+name+`","redirect_uris":["http://127.0.0.1:4242/cb"],"token_endpoint_auth_method":"none"}`)
		if a.status != http.StatusBadRequest || a.Error != "invalid_client_metadata" {
			t.Fatalf("%s: %+v", name, a)
		}
	}
	if got := storedClients(t, doc); len(got) != 0 {
		t.Fatalf("refused names were stored: %+v", got)
	}
	if a := register(t, c, r, ""); a.status != http.StatusCreated { // and counted nothing
		t.Fatalf("a good registration after the refusals: %+v", a)
	}
}

package oauth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-oauth2/oauth2/v4"
	oautherrors "github.com/go-oauth2/oauth2/v4/errors"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// stores are one node's client and code stores.
type stores struct {
	clients *clients
	codes   oauth2.TokenStore
}

// eachState runs test with the stores of a single host (the clients file,
// codes in memory: every "node" is that one process) and of nodes sharing
// PostgreSQL (each node a pool of its own).
func eachState(t *testing.T, test func(t *testing.T, node func() stores)) {
	t.Run("files", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "oauth-clients.json")
		codes := newCodes()
		test(t, func() stores {
			return stores{clients: newClients(statefile.File(path, clientsWhat), time.Now, Registration{}), codes: codes}
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		test(t, func() stores {
			pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			b := pgstate.New(pool, pgstate.Options{})
			return stores{clients: newClients(b.Doc(ClientsDoc), time.Now, Registration{}), codes: &sharedCodes{doc: b.Doc(CodesDoc), now: time.Now}}
		})
	})
}

// granted records the grant of each code exchanged for an access token.
type granted struct {
	mu     sync.Mutex
	grants []url.Values
}

func (g *granted) Token(_ context.Context, data *oauth2.GenerateBasic, _ bool) (string, string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.grants = append(g.grants, data.TokenInfo.(oauth2.ExtendableTokenInfo).GetExtension())
	return "access-" + data.UserID, "", nil
}

func challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// A client registered on one node is known to the others; a code issued
// on one is exchanged on another, with its grant, PKCE checked, once;
// and of two exchanges of one code at once exactly one wins. (With files
// the "nodes" are two stores of one process, whose codes are in memory.)
func TestCodeExchangedOnAnotherNode(t *testing.T) {
	eachState(t, func(t *testing.T, node func() stores) {
		a, b := node(), node()
		cl, err := a.clients.register(t.Context(), "Claude", []string{"http://127.0.0.1:33418/callback"}, "")
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := b.clients.get(t.Context(), cl.ID); !ok || got.Name != "Claude" {
			t.Fatalf("the other node does not know the client: %+v %v", got, ok)
		}
		var g granted
		ma, mb := manager(a.clients, a.codes, &g, time.Hour), manager(b.clients, b.codes, &g, time.Hour)
		grant := url.Values{"role": {"editor"}, "board": {"plan", "notes"}}
		const verifier = "a-verifier-long-enough-to-be-one-0123456789"
		issue := func(m interface {
			GenerateAuthToken(context.Context, oauth2.ResponseType, *oauth2.TokenGenerateRequest) (oauth2.TokenInfo, error)
		}) string {
			t.Helper()
			r := httptest.NewRequest("POST", "http://127.0.0.1/oauth/authorize", nil)
			r = r.WithContext(context.WithValue(r.Context(), grantKey{}, grant))
			ti, err := m.GenerateAuthToken(context.Background(), oauth2.Code, &oauth2.TokenGenerateRequest{
				ClientID: cl.ID, UserID: "per_ann", RedirectURI: cl.RedirectURIs[0],
				CodeChallenge: challenge(verifier), CodeChallengeMethod: oauth2.CodeChallengeS256, Request: r,
			})
			if err != nil {
				t.Fatal(err)
			}
			return ti.GetCode()
		}
		exchange := func(m interface {
			GenerateAccessToken(context.Context, oauth2.GrantType, *oauth2.TokenGenerateRequest) (oauth2.TokenInfo, error)
		}, code, verifier string) error {
			_, err := m.GenerateAccessToken(context.Background(), oauth2.AuthorizationCode, &oauth2.TokenGenerateRequest{
				ClientID: cl.ID, Code: code, RedirectURI: cl.RedirectURIs[0], CodeVerifier: verifier,
			})
			return err
		}

		// A wrong PKCE verifier fails, and uses the code up.
		code := issue(ma)
		if err := exchange(mb, code, "the wrong verifier, long enough to be one 0123"); err == nil {
			t.Fatal("exchanged with the wrong PKCE verifier")
		}
		if err := exchange(ma, code, verifier); !errors.Is(err, oautherrors.ErrInvalidAuthorizeCode) {
			t.Fatalf("a code tried with the wrong verifier: %v, want it used up", err)
		}
		code = issue(ma)
		if err := exchange(mb, code, verifier); err != nil {
			t.Fatalf("exchange on the other node: %v", err)
		}
		if len(g.grants) != 1 || g.grants[0].Get("role") != "editor" || !slices.Equal(g.grants[0]["board"], []string{"plan", "notes"}) {
			t.Fatalf("grants %v", g.grants)
		}
		for _, m := range []*stores{&a, &b} {
			if err := exchange(manager(m.clients, m.codes, &g, time.Hour), code, verifier); !errors.Is(err, oautherrors.ErrInvalidAuthorizeCode) {
				t.Fatalf("second exchange: %v, want invalid code", err)
			}
		}

		code = issue(mb)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, m := range []*stores{&a, &b} {
			wg.Go(func() { errs[i] = exchange(manager(m.clients, m.codes, &g, time.Hour), code, verifier) })
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Fatalf("two exchanges of one code at once: %v, want exactly one to succeed", errs)
		}
	})
}

// What a shared store keeps of a code is not the code: a leaked document
// cannot be exchanged.
func TestSharedCodesKeepNoCode(t *testing.T) {
	b := statefile.Files(t.TempDir())
	c := &sharedCodes{doc: b.Doc(CodesDoc), now: time.Now}
	m := manager(newClients(b.Doc(ClientsDoc), time.Now, Registration{}), c, &granted{}, time.Hour)
	cl, err := newClients(b.Doc(ClientsDoc), time.Now, Registration{}).register(t.Context(), "x", []string{"https://example.com/cb"}, "")
	if err != nil {
		t.Fatal(err)
	}
	ti, err := m.GenerateAuthToken(context.Background(), oauth2.Code, &oauth2.TokenGenerateRequest{ClientID: cl.ID, UserID: "per_ann", RedirectURI: cl.RedirectURIs[0]})
	if err != nil {
		t.Fatal(err)
	}
	data, _, _, err := b.Doc(CodesDoc).Fetch(context.Background(), nil)
	if err != nil || len(data) == 0 {
		t.Fatalf("codes document: %q %v", data, err)
	}
	if bytes.Contains(data, []byte(ti.GetCode())) {
		t.Fatal("the code is kept in plain text")
	}
}

// A database that cannot be reached knows no client and no code.
func TestUnreachableRefuses(t *testing.T) {
	pool, err := pgxpool.New(context.Background(), "postgres://dsh@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	b := pgstate.New(pool, pgstate.Options{})
	if _, err := newClients(b.Doc(ClientsDoc), time.Now, Registration{}).GetByID(context.Background(), "dshc_x"); err == nil {
		t.Fatal("a client found without its database")
	}
	c := &sharedCodes{doc: b.Doc(CodesDoc), now: time.Now}
	if _, err := c.GetByCode(context.Background(), "code"); !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("GetByCode = %v, want ErrUnreachable", err)
	}
	if err := c.RemoveByCode(context.Background(), "code"); !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("RemoveByCode = %v, want ErrUnreachable", err)
	}
}

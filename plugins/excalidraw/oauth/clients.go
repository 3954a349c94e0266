package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-oauth2/oauth2/v4"
	oautherrors "github.com/go-oauth2/oauth2/v4/errors"

	"github.com/dshgo/dsh/internal/statefile"
)

// Client is a registered OAuth client (RFC 7591): a public client (no
// secret: MCP clients run on people's machines), known by the redirect
// URIs it registered.
type Client struct {
	ID           string    `json:"clientId"`
	Name         string    `json:"clientName,omitempty"`
	RedirectURIs []string  `json:"redirectUris"`
	CreatedAt    time.Time `json:"createdAt"`
}

// Limits on registration, which anyone may attempt.
const (
	MaxClients      = 1000
	maxRedirectURIs = 10
	maxClientName   = 100
)

type clientsFile struct {
	Clients []Client `json:"clients"`
}

func parseClients(path string, data []byte) (clientsFile, error) {
	var f clientsFile
	if len(strings.TrimSpace(string(data))) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("oauth: parse clients file %s: %w", path, err)
	}
	return f, nil
}

// clients keeps registered clients in a state document: a private file
// of the data directory, so a client's registration outlives a restart, or
// a shared backend's ClientsDoc, so a client registered on one node is
// known to all.
type clients struct {
	doc  statefile.Doc
	view *statefile.View[clientsFile]
	now  func() time.Time
}

// clientsWhat names the clients document in errors.
const clientsWhat = "OAuth clients file"

func newClients(d statefile.Doc, now func() time.Time) *clients {
	return &clients{doc: d, view: statefile.ViewOf(d, parseClients, nil), now: now}
}

// checkRedirectURI accepts what OAuth 2.1 allows a public client: an
// https URL, or http on a loopback address (a native app's local
// listener), without a fragment.
func checkRedirectURI(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("redirect URI %q must be an absolute URL without a fragment", s)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		h := u.Hostname()
		if h == "localhost" || h == "127.0.0.1" || h == "::1" {
			return nil
		}
	}
	return fmt.Errorf("redirect URI %q must be https, or http on localhost", s)
}

// errRedirect marks a registration refused for its redirect URIs.
var errRedirect = errors.New("invalid redirect URIs")

// register stores a new client.
func (c *clients) register(name string, uris []string) (Client, error) {
	if len(uris) == 0 || len(uris) > maxRedirectURIs {
		return Client{}, fmt.Errorf("%w: redirect_uris must list 1 to %d URIs", errRedirect, maxRedirectURIs)
	}
	for _, u := range uris {
		if err := checkRedirectURI(u); err != nil {
			return Client{}, fmt.Errorf("%w: %v", errRedirect, err)
		}
	}
	name = strings.Join(strings.Fields(name), " ")
	if len([]rune(name)) > maxClientName {
		name = string([]rune(name)[:maxClientName])
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	cl := Client{ID: "dshc_" + hex.EncodeToString(b[:]), Name: name, RedirectURIs: slices.Clone(uris), CreatedAt: c.now().UTC().Truncate(time.Second)}
	err := statefile.UpdateDoc(c.doc, parseClients, func(f clientsFile) (clientsFile, bool, error) {
		if len(f.Clients) >= MaxClients {
			return f, false, errTooManyClients
		}
		f.Clients = append(f.Clients, cl)
		return f, true, nil
	})
	c.view.Invalidate()
	return cl, err
}

var errTooManyClients = fmt.Errorf("this host has %d registered clients, the most it keeps", MaxClients)

// get is the client with this id; none when the clients cannot be read.
func (c *clients) get(id string) (Client, bool) {
	f, err := c.view.Load()
	if err != nil {
		return Client{}, false
	}
	for _, cl := range f.Clients {
		if cl.ID == id {
			return cl, true
		}
	}
	return Client{}, false
}

// GetByID implements oauth2.ClientStore.
func (c *clients) GetByID(_ context.Context, id string) (oauth2.ClientInfo, error) {
	cl, ok := c.get(id)
	if !ok {
		return nil, oautherrors.ErrInvalidClient
	}
	return clientInfo{cl}, nil
}

// clientInfo is a Client as the OAuth library sees it. Its "domain" is
// the registered redirect URIs, one per line, which validateURI matches
// exactly (OAuth 2.1 requires exact matching).
type clientInfo struct{ c Client }

func (ci clientInfo) GetID() string     { return ci.c.ID }
func (ci clientInfo) GetSecret() string { return "" }
func (ci clientInfo) GetDomain() string { return strings.Join(ci.c.RedirectURIs, "\n") }
func (ci clientInfo) IsPublic() bool    { return true }
func (ci clientInfo) GetUserID() string { return "" }

// validateURI is exact matching against the registered redirect URIs.
func validateURI(registered, redirect string) error {
	if slices.Contains(strings.Split(registered, "\n"), redirect) {
		return nil
	}
	return oautherrors.ErrInvalidRedirectURI
}

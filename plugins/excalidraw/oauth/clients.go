package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
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
	// From is the client address that registered it (an IPv4 address,
	// an IPv6 address's /64), which the cap on ungranted clients weighs.
	From string `json:"from,omitempty"`
	// SeenAt is when a signed-in person first opened its consent page.
	SeenAt *time.Time `json:"seenAt,omitempty"`
	// GrantedAt is when it first got an access token; from then on it is
	// kept. Until then it is ungranted, and expires.
	GrantedAt *time.Time `json:"grantedAt,omitempty"`
}

// Limits on registration, which anyone may attempt.
const (
	maxRedirectURIs = 10
	maxClientName   = 100
)

// Registration bounds what anyone may register without a credential.
// Its zero fields are the defaults.
type Registration struct {
	// PerHourPerAddress is how many clients one client address (an IPv4
	// address, an IPv6 /64) may register in a sliding hour; more are 429
	// rate_limited. Default DefaultRegistrationsPerHour.
	PerHourPerAddress int
	// UngrantedTTL is how long a client that has not completed a grant
	// (got an access token) is kept; default DefaultUngrantedTTL.
	UngrantedTTL time.Duration
	// MaxUngranted is how many ungranted clients are kept at once; a
	// registration past it evicts one (see evict), so it never refuses.
	// Default DefaultMaxUngranted.
	MaxUngranted int
}

// Registration defaults. A day for an ungranted client: connecting one
// is register, (sign in,) consent, token, minutes apart, but a person who
// must first be invited or sign in may finish hours later, and the
// client's record is useless to anyone else meanwhile; what keeps junk
// from crowding out real people is the cap's eviction, not the TTL, which
// only sees that junk does not outlive a day.
const (
	DefaultRegistrationsPerHour = 30
	DefaultUngrantedTTL         = 24 * time.Hour
	DefaultMaxUngranted         = 1000
)

// The names of the plugin settings behind Registration, which refusals
// and errors name.
const (
	SettingRegistrationsPerHour = "oauth.registrationsPerHourPerAddress"
	SettingUngrantedTTL         = "oauth.ungrantedClientTTLHours"
	SettingMaxUngranted         = "oauth.maxUngrantedClients"
)

// RegistrationWindow is the sliding window PerHourPerAddress counts in.
const RegistrationWindow = time.Hour

func (r Registration) withDefaults() Registration {
	if r.PerHourPerAddress <= 0 {
		r.PerHourPerAddress = DefaultRegistrationsPerHour
	}
	if r.UngrantedTTL <= 0 {
		r.UngrantedTTL = DefaultUngrantedTTL
	}
	if r.MaxUngranted <= 0 {
		r.MaxUngranted = DefaultMaxUngranted
	}
	return r
}

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
//
// A client that never completed a grant expires after UngrantedTTL: it
// is not found from then on, and the next registration drops it. At
// MaxUngranted ungranted clients a registration evicts one instead of
// being refused (see evict), so no flood of anonymous registrations can
// keep a person from connecting an agent.
type clients struct {
	doc    statefile.Doc
	view   *statefile.View[clientsFile]
	now    func() time.Time
	limits Registration
	// tokens lists the client ids that hold a connect token (nil: none
	// known): a client registered before grants were recorded, whose
	// GrantedAt is not set, is kept if it has one.
	tokens func(ctx context.Context) (map[string]bool, error)
}

// clientsWhat names the clients document in errors.
const clientsWhat = "OAuth clients file"

func newClients(d statefile.Doc, now func() time.Time, limits Registration) *clients {
	return &clients{doc: d, view: statefile.ViewOf(d, parseClients, nil), now: now, limits: limits.withDefaults()}
}

// expired reports whether cl is ungranted past its time at now.
func (c *clients) expired(cl Client, now time.Time) bool {
	return cl.GrantedAt == nil && !now.Before(cl.CreatedAt.Add(c.limits.UngrantedTTL))
}

// withToken is c.tokens' answer, or none when it cannot be read (nothing
// is then known to hold a token: a client that expired is not found, and
// not dropped).
func (c *clients) withToken(ctx context.Context) (map[string]bool, bool) {
	if c.tokens == nil {
		return nil, true
	}
	ids, err := c.tokens(ctx)
	return ids, err == nil
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

// register stores a new client registered from the client address
// from (connection.AddressKey), first dropping the ungranted clients that
// expired and, at MaxUngranted, evicting one.
func (c *clients) register(ctx context.Context, name string, uris []string, from string) (Client, error) {
	if err := checkRegistration(uris); err != nil {
		return Client{}, err
	}
	name = strings.Join(strings.Fields(name), " ")
	if len([]rune(name)) > maxClientName {
		name = string([]rune(name)[:maxClientName])
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	now := c.now().UTC()
	cl := Client{ID: "dshc_" + hex.EncodeToString(b[:]), Name: name, RedirectURIs: slices.Clone(uris), CreatedAt: now.Truncate(time.Second), From: from}
	// Which clients hold a token is read before the update, not under
	// its lock (with PostgreSQL that would take a second connection
	// while holding one), and only when some client expired.
	var ids map[string]bool
	idsKnown := false
	if f, err := c.view.Load(ctx); err == nil && slices.ContainsFunc(f.Clients, func(cl Client) bool { return c.expired(cl, now) }) {
		ids, idsKnown = c.withToken(ctx)
	}
	err := statefile.UpdateDoc(ctx, c.doc, parseClients, func(f clientsFile) (clientsFile, bool, error) {
		f.Clients = c.sweep(f.Clients, now, ids, idsKnown)
		for ungranted(f.Clients) >= c.limits.MaxUngranted {
			f.Clients = evict(f.Clients)
		}
		f.Clients = append(f.Clients, cl)
		return f, true, nil
	})
	c.view.Invalidate()
	return cl, err
}

// checkRegistration is what a registration must be before anything is
// counted or stored.
func checkRegistration(uris []string) error {
	if len(uris) == 0 || len(uris) > maxRedirectURIs {
		return fmt.Errorf("%w: redirect_uris must list 1 to %d URIs", errRedirect, maxRedirectURIs)
	}
	for _, u := range uris {
		if err := checkRedirectURI(u); err != nil {
			return fmt.Errorf("%w: %v", errRedirect, err)
		}
	}
	return nil
}

// sweep drops the ungranted clients that expired at now. One that holds
// a connect token (in ids: registered before grants were recorded) is
// marked granted instead; when the tokens are not known, the expired
// stay, to be dropped by a later sweep.
func (c *clients) sweep(list []Client, now time.Time, ids map[string]bool, idsKnown bool) []Client {
	if !idsKnown {
		return list
	}
	out := list[:0]
	for _, cl := range list {
		if c.expired(cl, now) {
			if !ids[cl.ID] {
				continue
			}
			at := now.Truncate(time.Second)
			cl.GrantedAt = &at
		}
		out = append(out, cl)
	}
	return out
}

func ungranted(list []Client) int {
	n := 0
	for _, cl := range list {
		if cl.GrantedAt == nil {
			n++
		}
	}
	return n
}

// evict removes the ungranted client that makes room fairly: never a
// granted one, and a seen one (a signed-in person opened its consent
// page) only when every ungranted client was seen. Of the others it takes
// the oldest of the network (an IPv4 /24, an IPv6 /48) that holds the
// most of them, so that whoever registers many, even from many addresses
// of one network, evicts their own first: a person's one registration
// goes only when every other network holds no more than theirs.
func evict(list []Client) []Client {
	pick := -1
	count := map[string]int{}
	for _, cl := range list {
		if cl.GrantedAt == nil && cl.SeenAt == nil {
			count[network(cl.From)]++
		}
	}
	for i, cl := range list {
		if cl.GrantedAt != nil || (cl.SeenAt != nil) != (len(count) == 0) {
			continue
		}
		if pick < 0 {
			pick = i
			continue
		}
		p := list[pick]
		n, pn := count[network(cl.From)], count[network(p.From)]
		if n > pn || (n == pn && cl.CreatedAt.Before(p.CreatedAt)) {
			pick = i
		}
	}
	if pick < 0 {
		return list // nothing ungranted
	}
	return slices.Delete(list, pick, pick+1)
}

// network is the network an address key (connection.AddressKey) belongs to for
// evict: an IPv4 /24, an IPv6 /48; anything else is its own.
func network(key string) string {
	if p, err := netip.ParsePrefix(key); err == nil {
		return netip.PrefixFrom(p.Addr(), min(p.Bits(), 48)).Masked().String()
	}
	if a, err := netip.ParseAddr(key); err == nil && a.Is4() {
		return netip.PrefixFrom(a, 24).Masked().String()
	}
	return key
}

// mark records, once, that a signed-in person saw cl's consent page
// (granted=false) or that it got an access token (granted=true).
func (c *clients) mark(ctx context.Context, id string, granted bool) error {
	at := c.now().UTC().Truncate(time.Second)
	err := statefile.UpdateDoc(ctx, c.doc, parseClients, func(f clientsFile) (clientsFile, bool, error) {
		i := slices.IndexFunc(f.Clients, func(cl Client) bool { return cl.ID == id })
		if i < 0 {
			return f, false, nil
		}
		field := &f.Clients[i].SeenAt
		if granted {
			field = &f.Clients[i].GrantedAt
		}
		if *field != nil {
			return f, false, nil
		}
		*field = &at
		return f, true, nil
	})
	c.view.Invalidate()
	return err
}

// get is the client with this id; none when the clients cannot be read,
// or when it is ungranted and expired (and holds no token).
func (c *clients) get(ctx context.Context, id string) (Client, bool) {
	f, err := c.view.Load(ctx)
	if err != nil {
		return Client{}, false
	}
	i := slices.IndexFunc(f.Clients, func(cl Client) bool { return cl.ID == id })
	if i < 0 {
		return Client{}, false
	}
	cl := f.Clients[i]
	if c.expired(cl, c.now()) {
		ids, _ := c.withToken(ctx)
		return cl, ids[cl.ID]
	}
	return cl, true
}

// GetByID implements oauth2.ClientStore.
func (c *clients) GetByID(ctx context.Context, id string) (oauth2.ClientInfo, error) {
	cl, ok := c.get(ctx, id)
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

// Package accesstest is the test kit for code that decides access: a
// clock to move, a Binder that records, principals of each kind, and a
// board guard over a temporary store.
//
// It is for the tests of what sits on access (the scene service, the
// agent tools, the HTTP API), in the manner of fxtest: each piece is what
// those tests would otherwise write for themselves, once.
package accesstest

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/identity"
)

// Clock is a clock the test moves by hand, for whatever reads the time
// through a func() time.Time (a service, its quota windows, a board
// store): pass its Now. It is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the time the clock stands at.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d (back, for a negative d).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Binder is an access.Binder that records the boards bound to each
// connect token, as the host's token file would. The zero value is ready
// to use; it is safe for concurrent use.
type Binder struct {
	mu    sync.Mutex
	binds map[string][]string // token id → boards, in the order bound
}

var _ access.Binder = (*Binder)(nil)

// BindBoard records that the token tokenID reaches board. It never fails.
func (b *Binder) BindBoard(_ context.Context, tokenID, board string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.binds == nil {
		b.binds = map[string][]string{}
	}
	b.binds[tokenID] = append(b.binds[tokenID], board)
	return nil
}

// Bound is the boards bound to the token tokenID so far, in the order
// they were bound (a copy; nil for none).
func (b *Binder) Bound(tokenID string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.binds[tokenID])
}

// Refresh is bot as its next call sees it: its grant's Created lists the
// boards bound to it, as the token file it is read from would by then.
// bot's own grant is left as it was.
func (b *Binder) Refresh(bot identity.Principal) identity.Principal {
	g := access.GrantOf(bot.Grant)
	g.Created = b.Bound(bot.ID)
	bot.Grant = access.NewGrant(g)
	return bot
}

// HostOwner is the person id of the host's owner: Owner's person, and
// the one a Guard's folders fall to for callers without a person.
const HostOwner = "per_own"

// Person is a person signed in with a browser session: id is their
// person id ("per_…"), name their name. The session's id is "ses_" and
// id without its "per_".
func Person(id, name string) identity.Principal {
	return identity.Principal{Kind: identity.KindSession, ID: "ses_" + strings.TrimPrefix(id, "per_"),
		Name: name, Person: id, PersonName: name}
}

// Owner is the host's owner (person HostOwner, called name) signed in:
// an admin, owner of every board.
func Owner(name string) identity.Principal {
	p := Person(HostOwner, name)
	p.Admin, p.HostOwner = true, true
	return p
}

// Host is a host token with the id given (the CLI's): an admin with no
// person.
func Host(id string) identity.Principal {
	return identity.Principal{Kind: identity.KindToken, ID: id, Name: "cli", Admin: true}
}

// Bot is a connect token with the id given, named "helper", that person
// minted and g bounds.
func Bot(id string, person identity.Principal, g access.Grant) identity.Principal {
	return identity.Principal{Kind: identity.KindToken, ID: id, Name: "helper",
		Person: person.Person, PersonName: person.PersonName, HostOwner: person.HostOwner, Grant: access.NewGrant(g)}
}

// As is a context acting for p (identity.With on context.Background).
func As(p identity.Principal) context.Context {
	return identity.With(context.Background(), p)
}

// Guard is an access guard over a board store for a drawings directory
// in t.TempDir() (Drawings names it), with a Binder for the boards bots
// create and HostOwner as the host's owner. The store stamps its records
// with clock (nil: the real time).
func Guard(t testing.TB, clock *Clock) (*access.Guard, *boards.Store, *Binder) {
	t.Helper()
	var opts boards.Options
	if clock != nil {
		opts.Now = clock.Now
	}
	st := boards.Open(boards.File(filepath.Join(t.TempDir(), "drawings")), opts)
	binder := &Binder{}
	return access.NewGuard(st, binder, func(context.Context) string { return HostOwner }), st, binder
}

// Drawings is the drawings directory whose boards st describes: where a
// scene service over a Guard keeps its scenes.
func Drawings(st *boards.Store) string {
	return filepath.Dir(filepath.Dir(st.Path()))
}

package files

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"time"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Share links' files are written by anyone (no credential), so they are
// bounded three ways:
//
//   - create-only: Put at a shareLinks path that already holds a file is
//     already_exists (409), before the body is read; nobody can replace
//     what a share link points at;
//   - in total: the data of every share link's file together is at most
//     Config.MaxShareLinkBytes; an upload that would pass it is
//     insufficient_storage (507), checked from the declared size before
//     the body is read and again, atomically with the write, from the
//     bytes read;
//   - per client address: a Limiter counts each address's uploaded bytes
//     in an hour's sliding window (statefile.Windows: this process's
//     memory, or PostgreSQL's rate_events shared by every node); over it
//     is rate_limited (429) with retryAfterSec.

// Defaults of the share links' limits (the plugin's
// files.shareLinks.maxTotalBytes and .bytesPerHourPerAddress).
const (
	DefaultMaxShareLinkBytes     int64 = 2 << 30
	DefaultShareLinkBytesPerHour int64 = 64 << 20
	ShareLinkWindow                    = time.Hour
	ShareLinkTotalLimitName            = "files.shareLinks.maxTotalBytes"
	ShareLinkAddressLimitName          = "files.shareLinks.bytesPerHourPerAddress"
	CodeInsufficientStorage            = "insufficient_storage"
	shareLinkUnit                int64 = 64 << 10 // what one window event counts
)

// StorageFull is the insufficient_storage error (507) of a share-link
// upload of n bytes that would take the share links' files past max
// (used is what they hold now). It does not pass by itself: only an
// operator raising the limit or removing files makes room, so it is not
// retryable.
func StorageFull(used, n, max int64) *apierr.Error {
	return apierr.New(507, CodeInsufficientStorage,
		fmt.Sprintf("share links' files may take %s bytes in all (%s) and hold %s; this file of %s bytes does not fit",
			group(max), ShareLinkTotalLimitName, group(used), group(n))).
		With("limit", ShareLinkTotalLimitName).With("max", max).With("actual", used+n).With("retryable", false)
}

// exists is the already_exists refusal of a second write to a share
// link's path.
func exists(p Path) error {
	return sceneerr.New(sceneerr.AlreadyExists, "a file is already stored at %s; a share link's file is written once", p).
		With("path", p.String())
}

// storeUnavailable is a call refused because the database does not
// answer: 503 store_unavailable (retryable), wrapping
// pgdb.ErrUnreachable and the cause.
func storeUnavailable(what string, err error) error {
	return apierr.StoreUnavailable("the file store's database cannot be reached; nothing was stored, try again shortly",
		fmt.Errorf("files: %s: %w: %w", what, pgdb.ErrUnreachable, err))
}

// Limiter limits the bytes each client address uploads to share links
// in a sliding hour. Addresses are counted whole for IPv4 and by their
// /64 for IPv6 (what one host is usually given). It is safe for
// concurrent use.
type Limiter struct {
	w     statefile.Windows
	units int // per window
	now   func() time.Time
}

// NewLimiter counts in w (statefile.NewMemoryWindows for this process,
// a pgstate backend's Windows for every node on the database), allowing
// bytesPerHour per address; now (nil: time.Now) is the clock. A file of
// maxFile bytes must fit in the hour.
func NewLimiter(w statefile.Windows, bytesPerHour, maxFile int64, now func() time.Time) (*Limiter, error) {
	if w == nil {
		return nil, errors.New("files: NewLimiter needs windows")
	}
	if bytesPerHour < max(maxFile, shareLinkUnit) {
		return nil, fmt.Errorf("files: %s (%d) must be at least the largest file (%d, %s)", ShareLinkAddressLimitName, bytesPerHour, maxFile, LimitName)
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{w: w, units: int(min(bytesPerHour/shareLinkUnit, math.MaxInt32)), now: now}, nil
}

// units is what n bytes count: whole units, at least one (an empty file
// counts too).
func units(n int64) int {
	return int(max(1, (n+shareLinkUnit-1)/shareLinkUnit))
}

// Take counts n bytes uploaded by the client at client (see
// connection.ClientAddress; counted by connection.AddressKey), or refuses with rate_limited (details:
// retryAfterSec, the limit) when its hour has no room for them. The
// returned settle, called once with the bytes actually stored (-1 when
// nothing was: the upload was refused or failed), gives back what was
// counted beyond them, so a refused upload counts nothing.
func (l *Limiter) Take(ctx context.Context, client netip.Addr, n int64) (settle func(stored int64), err error) {
	key := "files:shareLinks:" + connection.AddressKey(client)
	now := l.now()
	want := units(n)
	ok, retry, err := l.w.TakeN(ctx, key, now, want, l.units, ShareLinkWindow)
	if err != nil {
		if pgdb.Unreachable(err) || errors.Is(err, pgdb.ErrUnreachable) {
			return nil, storeUnavailable("count the upload", err)
		}
		return nil, &sceneerr.Error{Code: sceneerr.IOError, Message: "the upload could not be counted against its limit", Err: err}
	}
	if !ok {
		after := 0
		if !retry.IsZero() {
			after = max(1, int(math.Ceil(retry.Sub(now).Seconds())))
		}
		return nil, sceneerr.New(sceneerr.RateLimited, "uploads to share links from one address are limited to %s bytes an hour (%s); try again in %d s",
			group(int64(l.units)*shareLinkUnit), ShareLinkAddressLimitName, after).
			With("limit", ShareLinkAddressLimitName).With("max", int64(l.units)*shareLinkUnit).With("windowSec", int(ShareLinkWindow.Seconds())).
			With("retryable", true).With("retryAfterSec", after)
	}
	return func(stored int64) {
		back := want
		if stored >= 0 {
			back = want - units(stored)
		}
		if back > 0 {
			// Best effort: a give-back that fails leaves the bytes counted.
			_ = l.w.UndoN(context.WithoutCancel(ctx), key, back)
		}
	}, nil
}

// Limited is a Backend with the per-address Limiter of its share links'
// uploads: the share-link routes count each upload against it. The
// Backend's own methods are as they are.
type Limited struct {
	Backend
	Limiter *Limiter
}

// ShareLinkLimiter is the Limiter (nil: none).
func (l Limited) ShareLinkLimiter() *Limiter { return l.Limiter }

package connection

import (
	"context"
	"errors"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
)

// tokenWatch is the running server's view of the token document (a
// statefile.View), so that `dsh token create|revoke` in another process,
// or a revocation on another node, takes effect on the next request.
type tokenWatch struct {
	view *statefile.View[[]TokenRecord]
	log  *zap.Logger
	// down: the last load failed because the database cannot be reached
	// (so a token that did not verify may be valid: answer "try again",
	// not "your token is bad").
	down atomic.Bool
}

func newTokenWatch(ctx context.Context, d statefile.Doc, log *zap.Logger) (*tokenWatch, error) {
	w := &tokenWatch{view: statefile.ViewOf(d, parseTokenFile, log), log: log}
	// Load once up front so a broken file is reported at startup rather
	// than showing up as mysterious 401s.
	if _, err := w.view.Load(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// storeDown reports whether err is the shared database not answering (as
// opposed to a document that is there but broken).
func storeDown(err error) bool {
	return err != nil && (errors.Is(err, pgdb.ErrUnreachable) || pgdb.Unreachable(err))
}

// current returns the records as of now. On a read or parse error (a
// database that cannot be reached, too) it returns none: an unreadable
// token document must lock clients out, not let them in.
func (w *tokenWatch) current(ctx context.Context) []TokenRecord {
	recs, err := w.view.Load(ctx)
	w.down.Store(storeDown(err))
	if err != nil {
		w.log.Warn("tokens unreadable; refusing all bearer tokens", zap.String("where", w.view.Path()), zap.Error(err))
		return nil
	}
	return recs
}

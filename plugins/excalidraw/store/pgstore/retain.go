package pgstore

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"go.uber.org/zap"
)

// retainTimeout bounds retention's statements.
const retainTimeout = 30 * time.Second

// retain applies the journal's retention rules after a commit (rev the
// scene's new revision, seq its entry's), as the file store's retain
// does: it looks every few entries (at most every tenth of MaxEntries,
// at least one, at most 32) and hourly for age, and once there are more
// than MaxEntries plus that tenth, or the oldest entry is older than
// MaxAge, it keeps the newest MaxEntries entries younger than MaxAge (the
// newest one always), deleting the others and the bytes of the
// revisions before the oldest one kept. Without a journal, the same
// rules keep the superseded revisions. It runs after the commit, in its
// own statement: a failure only leaves more rows (logged), never fails
// the commit.
func (s *Store) retain(ctx context.Context, name string, rev, seq int64) {
	// Not cut short by a caller who leaves once the commit is done.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), retainTimeout)
	defer cancel()
	o := s.journal
	key, table, at := seq, "journal", "at"
	if o.Disabled {
		key, table, at = rev-1, "revisions", "committed_at"
	}
	if key < 1 || (o.MaxEntries <= 0 && o.MaxAge <= 0) {
		return
	}
	slack := int64(max(o.MaxEntries/10, 1))
	now := s.now()
	ageDue := false
	if o.MaxAge > 0 {
		last, seen := s.agedAt.Load(name)
		ageDue = !seen || now.Sub(last.(time.Time)) >= time.Hour
	}
	if key%min(slack, 32) != 0 && !ageDue {
		return
	}
	if ageDue {
		s.agedAt.Store(name, now)
	}
	col, only := "seq", ""
	if o.Disabled {
		col, only = "revision", " AND kept AND NOT corrupt" // hidden ones are links, not kept revisions
	}
	var first int64
	var firstAt time.Time
	err := s.pool.QueryRow(ctx, `SELECT `+col+`, `+at+` FROM `+table+` WHERE name = $1`+only+` ORDER BY `+col+` LIMIT 1`, name).
		Scan(&first, &firstAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return
	}
	if err != nil {
		s.log.Warn("journal retention: read the oldest entry", zap.String("name", name), zap.Error(err))
		return
	}
	count := key - first + 1
	tooMany := o.MaxEntries > 0 && count > int64(o.MaxEntries)+slack
	cutoff := now.Add(-o.MaxAge)
	tooOld := o.MaxAge > 0 && firstAt.Before(cutoff)
	if !tooMany && !tooOld {
		return
	}
	// keep is the oldest kept: within MaxEntries of the newest, and after
	// the newest one older than the cutoff, but never past the newest.
	keep := first
	if o.MaxEntries > 0 {
		keep = max(keep, key-int64(o.MaxEntries)+1)
	}
	if tooOld {
		var old *int64
		if err := s.pool.QueryRow(ctx, `SELECT max(`+col+`) FROM `+table+` WHERE name = $1`+only+` AND `+at+` < $2`, name, cutoff).
			Scan(&old); err != nil {
			s.log.Warn("journal retention: find the old entries", zap.String("name", name), zap.Error(err))
			return
		}
		if old != nil {
			keep = max(keep, min(*old+1, key))
		}
	}
	if keep <= first {
		return
	}
	var entries, revisions int64
	upto := keep - 1 // the newest revision whose bytes go
	if !o.Disabled {
		err = s.pool.QueryRow(ctx, `WITH kept AS (SELECT revision FROM journal WHERE name = $1 AND seq = $2),
			j AS (DELETE FROM journal WHERE name = $1 AND seq < $2 RETURNING 1)
			SELECT (SELECT count(*) FROM j), coalesce((SELECT revision FROM kept) - 1, 0)`, name, keep).Scan(&entries, &upto)
		if err != nil {
			s.log.Warn("journal retention: delete", zap.String("name", name), zap.Error(err))
			return
		}
	}
	// Revisions a kept one is rebuilt through stay, hidden (dropRevisions).
	if err := s.pool.QueryRow(ctx, dropRevisions, name, upto).Scan(&revisions); err != nil {
		s.log.Warn("journal retention: delete", zap.String("name", name), zap.Error(err))
		return
	}
	s.log.Info("journal retention dropped old entries", zap.String("name", name), zap.Int64("entries", entries),
		zap.Int64("revisions", revisions), zap.Int64("kept", key-keep+1))
}

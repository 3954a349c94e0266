package pgstore

import (
	"context"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// When a commit writes the document whole instead of a delta (a new
// snapshot): when the chain since the last one would be longer than
// maxChain deltas, or its deltas' bytes more than the document's over
// chainShare. A rebuild then reads at most one document and
// 1/chainShare of its size in deltas, from at most maxChain rows.
const (
	maxChain   = 64
	chainShare = 2
)

// chain is what a rebuild reads after its start: the revisions, their
// bases (nil: bytes of its own) and their stored bytes, oldest first.
type chain struct {
	revs  []int64
	bases []*int64
	data  [][]byte
}

// chainJoin joins a rebuild's chain as c (columns c.revs, c.bases,
// c.datas: chain.targets' order): the rows of revisions of scene $1
// from revision from (an expression) to the one before upto (an
// expression), when cond holds (else none).
func chainJoin(from, upto, cond string) string {
	return ` LEFT JOIN LATERAL (SELECT array_agg(r.revision ORDER BY r.revision) AS revs, array_agg(r.base ORDER BY r.revision) AS bases,
		array_agg(r.data ORDER BY r.revision) AS datas FROM revisions r
		WHERE r.name = $1 AND NOT r.corrupt AND ` + cond + ` AND r.revision >= ` + from + ` AND r.revision < ` + upto + `) c ON true`
}

// chainCols are chainJoin's columns.
const chainCols = `c.revs, c.bases, c.datas`

// targets are the scan targets of chainCols.
func (c *chain) targets() []any { return []any{&c.revs, &c.bases, &c.data} }

// rebuild is the bytes of revision rev, stored as data with base (nil:
// data is the document), through c after start, the bytes of revision
// startRev (nil: none; c then begins with a snapshot). A link missing
// or a delta that does not apply is errBadDelta.
func rebuild(start []byte, startRev int64, c *chain, rev int64, base *int64, data []byte) ([]byte, error) {
	if base == nil {
		return data, nil
	}
	if len(c.revs) != len(c.bases) || len(c.revs) != len(c.data) {
		return nil, errBadDelta
	}
	cur, curRev := start, startRev
	step := func(r int64, b *int64, d []byte) error {
		if b == nil {
			cur, curRev = d, r
			return nil
		}
		if cur == nil || *b != curRev {
			return errBadDelta
		}
		next, err := apply(cur, d)
		if err != nil {
			return err
		}
		cur, curRev = next, r
		return nil
	}
	for i, r := range c.revs {
		if err := step(r, c.bases[i], c.data[i]); err != nil {
			return nil, err
		}
	}
	if err := step(rev, base, data); err != nil {
		return nil, err
	}
	return cur, nil
}

// rebuildFailed is the io_error of bytes that could not be rebuilt, or
// were, to other bytes than the record's.
func rebuildFailed(name string, rev int64, err error) error {
	msg := "the database's bytes of scene " + name + " revision " + strconv.FormatInt(rev, 10) + " do not rebuild"
	if err == nil {
		msg += " to its SHA-256"
	}
	return store.NewError(store.CodeIOError, msg, err).With("name", name).With("revision", rev).With("stage", "verify")
}

// dropRevisions is a statement that drops the kept revisions of scene $1
// up to revision $2, and every corrupt copy up to it: each is deleted,
// but one a later revision (or the scene row) is still rebuilt through
// is only hidden (kept false), and deleted by a later drop once none is.
// Its row is the number deleted.
const dropRevisions = `WITH lo AS (
	SELECT least((SELECT coalesce(snapshot, revision) FROM scenes WHERE name = $1),
		(SELECT min(coalesce(snapshot, revision)) FROM revisions WHERE name = $1 AND revision > $2 AND kept AND NOT corrupt)) AS v),
	hidden AS (UPDATE revisions SET kept = false WHERE name = $1 AND revision <= $2 AND kept AND NOT corrupt
		AND revision >= (SELECT v FROM lo) RETURNING 1),
	gone AS (DELETE FROM revisions WHERE name = $1 AND revision <= $2 AND (corrupt OR revision < (SELECT v FROM lo)) RETURNING 1)
	SELECT count(*) FROM gone`

// readRevisionBytes reads and rebuilds kept revision rev of name (the
// current one included) in one statement: nil, nil when there is none.
func readRevisionBytes(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, name string, rev int64) ([]byte, error) {
	var base *int64
	var data []byte
	var sha *string
	var c chain
	err := q.QueryRow(ctx, `SELECT x.base, x.data, x.sha256, `+chainCols+`
		FROM (SELECT revision, base, snapshot, data, sha256, 0 AS pri FROM revisions WHERE name = $1 AND revision = $2 AND NOT corrupt AND kept
			UNION ALL SELECT revision, base, snapshot, data, sha256, 1 FROM scenes WHERE name = $1 AND revision = $2
			ORDER BY pri LIMIT 1) x`+chainJoin("x.snapshot", "x.revision", "x.base IS NOT NULL"), name, rev).Scan(append([]any{&base, &data, &sha}, c.targets()...)...)
	if err != nil {
		return nil, err
	}
	out, err := rebuild(nil, 0, &c, rev, base, data)
	switch {
	case err != nil:
		return nil, rebuildFailed(name, rev, err)
	case base != nil && sha != nil && sha256Hex(out) != *sha:
		return nil, rebuildFailed(name, rev, nil)
	}
	return out, nil
}

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

// link is one revision's stored bytes: a delta against revision base,
// or (base nil) the document's own.
type link struct {
	rev  int64
	base *int64
	data []byte
}

// rebuild is the bytes of target through chain (oldest first) after
// start, the bytes of revision startRev (nil: none; chain then begins
// with a snapshot). A link missing, a delta that does not apply, or
// bytes other than those target's delta was made for (its CRC-32C) is
// errBadDelta.
func rebuild(start []byte, startRev int64, chain []link, target link) ([]byte, error) {
	if target.base == nil {
		return target.data, nil
	}
	var cur *rope
	var crc uint32
	curRev := startRev
	if start != nil {
		cur = ropeOf(start)
	}
	for _, l := range append(chain, target) {
		if l.base == nil {
			cur, curRev = ropeOf(l.data), l.rev
			continue
		}
		if cur == nil || *l.base != curRev {
			return nil, errBadDelta
		}
		next, c, err := cur.apply(l.data)
		if err != nil {
			return nil, err
		}
		cur, curRev, crc = next, l.rev, c
	}
	return cur.checked(crc)
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

// revisionQuery is kept revision $2 of scene $1 (the current one
// included) and the chain it is rebuilt through: rows of revision, base,
// data and sha256, the revision's first, in one statement (one
// snapshot).
const revisionQuery = `WITH x AS (
		SELECT revision, base, snapshot, data, sha256 FROM (
			SELECT revision, base, snapshot, data, sha256, 0 AS pri FROM revisions WHERE name = $1 AND revision = $2 AND NOT corrupt AND kept
			UNION ALL SELECT revision, base, snapshot, data, sha256, 1 FROM scenes WHERE name = $1 AND revision = $2
			ORDER BY pri LIMIT 1) y)
	SELECT 0 AS k, revision, base, data, sha256 FROM x
	UNION ALL
	SELECT 1, r.revision, r.base, r.data, NULL FROM x JOIN revisions r ON r.name = $1 AND NOT r.corrupt
		AND r.revision >= x.snapshot AND r.revision < x.revision WHERE x.base IS NOT NULL
	ORDER BY k, revision`

// readRevisionBytes reads and rebuilds kept revision rev of name (the
// current one included) in one statement: pgx.ErrNoRows when there is
// none.
func readRevisionBytes(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, name string, rev int64) ([]byte, error) {
	rows, err := q.Query(ctx, revisionQuery, name, rev)
	if err != nil {
		return nil, err
	}
	var sha *string
	var target link
	var chain []link
	found := false
	for rows.Next() {
		var l link
		var k int
		var lsha *string
		if err := rows.Scan(&k, &l.rev, &l.base, &l.data, &lsha); err != nil {
			rows.Close()
			return nil, err
		}
		if !found {
			target, sha, found = l, lsha, true
			continue
		}
		chain = append(chain, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !found {
		return nil, pgx.ErrNoRows
	}
	out, err := rebuild(nil, 0, chain, target)
	switch {
	case err != nil:
		return nil, rebuildFailed(name, rev, err)
	case target.base != nil && sha != nil && sha256Hex(out) != *sha:
		return nil, rebuildFailed(name, rev, nil)
	}
	return out, nil
}

package store

import (
	"context"
	"time"
)

// Read returns a scene and its revision record. It runs under the scene's
// locks because reading may repair: a missing, stale or corrupt sidecar is
// rebuilt and a corrupt scene file is restored from its newest valid backup
// (see load). A corrupt file without a valid backup is corrupt_scene.
func (s *Store) Read(ctx context.Context, name string) (*Scene, error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	t, err := s.begin(ctx, name)
	if err != nil {
		return nil, err
	}
	defer t.end()
	cur, err := t.load()
	switch {
	case err != nil:
		return nil, err
	case !cur.exists:
		return nil, notFoundError(name)
	case cur.corrupt != nil:
		return nil, corruptError(cur)
	}
	return &Scene{Meta: cur.meta, Data: cur.data}, nil
}

func timeParse(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

package storage

import (
	"context"
	"fmt"
)

// RestoreMarker is the state document a restore into a database keeps
// while it copies (`dsh restore`, which writes it before the first row
// and removes it after the last): a database that holds it was filled by
// a restore that stopped half way, which only a restore of the same
// archive may finish.
const RestoreMarker = "dsh-restore-in-progress"

// CheckRestored refuses a database a restore stopped half way through:
// a host that served it would serve part of the archive and take writes
// that the finishing restore would then leave beside the rest. The data
// directory needs no check (a restore there moves in only what it has
// verified whole).
func (s *Storage) CheckRestored(ctx context.Context) error {
	if s.db == nil {
		return nil
	}
	data, _, _, err := s.db.State.Doc(RestoreMarker).Fetch(ctx, nil)
	if err != nil {
		return fmt.Errorf("host.store: reading the database %s: %w", s.Where(), err)
	}
	if data == nil {
		return nil
	}
	return fmt.Errorf("host.store: the database %s holds a restore that was interrupted: "+
		"run the same `dsh restore FILE` again to finish it, then start dsh", s.Where())
}

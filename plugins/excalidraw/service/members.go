package service

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
)

// Sharing is who a board is shared with: its owner and members by person
// id ("" owner: the host's).
type Sharing struct {
	Owner   string
	Members map[string]string
}

// Members is the board's owner and members; anyone who reads the board
// may see them.
func (s *Service) Members(ctx context.Context, name string) (*Sharing, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	if _, err := s.store.Head(ctx, name); err != nil {
		return nil, mapError(err)
	}
	b, _, err := g.Boards().Get(ctx, name)
	if err != nil {
		return nil, mapError(err)
	}
	return &Sharing{Owner: b.Owner, Members: b.Members}, nil
}

// SetMember shares the board with a person as an editor or a viewer, or
// with role "" stops sharing it with them. It is the board owner's (a
// bot may not share).
func (s *Service) SetMember(ctx context.Context, name, person, role string) (*Sharing, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	if role != "" {
		if err := boards.CheckRole(role); err != nil {
			return nil, withPointer(err, "/role")
		}
	}
	if identity.Of(ctx).Grant != nil {
		return nil, sceneerr.New(sceneerr.PermissionDenied, "a connect token cannot share boards; their owner can")
	}
	if err := s.manageable(ctx, name); err != nil {
		return nil, err
	}
	b, err := g.Boards().SetMember(ctx, name, person, role)
	if err != nil {
		return nil, mapError(err)
	}
	return &Sharing{Owner: b.Owner, Members: b.Members}, nil
}

package service

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
)

// Profiled is an Edit whose defaults come from the board's profile
// (set_board_profile): the service reads the profile of the write's board
// and gives it to the edit before it plans.
type Profiled interface {
	Edit
	WithProfile(p profile.Profile) Edit
}

// profiled gives e (and each step of Steps) the profile of board name
// when it takes one.
func (s *Service) profiled(ctx context.Context, name string, e Edit) (Edit, error) {
	switch e := e.(type) {
	case Profiled:
		p, err := s.BoardProfile(ctx, name)
		if err != nil {
			return nil, err
		}
		return e.WithProfile(p), nil
	case Steps:
		out := make(Steps, len(e))
		for i, step := range e {
			var err error
			if out[i], err = s.profiled(ctx, name, step); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return e, nil
}

// BoardProfile is the profile in force on board name: its folder's with
// the board's own over it, field by field. The zero Profile when neither
// has one.
func (s *Service) BoardProfile(ctx context.Context, name string) (profile.Profile, error) {
	return profile.Profile{}, nil // TODO(issue 27): read the boards store
}

package agenttools

import (
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// craftTools are the board-craft planners and the board profile: tables,
// stacks, slides in frames, legends, set_board_profile. Each planner is
// one call and one commit with the usual envelope, its defaults from the
// board's profile.
func craftTools(svc *service.Service) []tools.Tool {
	return slices.Concat(tableTools(svc), stackTools(svc), frameLayoutTools(svc), legendTools(svc), profileTools(svc))
}

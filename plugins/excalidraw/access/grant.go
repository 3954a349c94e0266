package access

import "github.com/dshgo/dsh/plugins/identity"

// Grant is what one of the plugin's connect tokens (a bot) may reach, on
// top of the person who minted it: never more than that person's own
// rights. The host keeps it, opaque, as the token's identity.Grant.
type Grant struct {
	// Role is identity.RoleEditor or RoleViewer: the most the bot may do
	// on a board it reaches (less if its person has less there).
	Role string `json:"role"`
	// Boards are the boards it reaches, by name.
	Boards []string `json:"boards,omitempty"`
	// Created are the boards it created: it writes there whatever Role
	// says (create_board binds them to it with write).
	Created []string `json:"created,omitempty"`
	// Folders are folders (by id) whose boards it reaches too.
	Folders []string `json:"folders,omitempty"`
	// CanCreateBoards lets it create boards (each bound to it, with write).
	CanCreateBoards bool `json:"canCreateBoards,omitempty"`
	// CanCreateFolders lets it create folders (its person's).
	CanCreateFolders bool `json:"canCreateFolders,omitempty"`
}

// NewGrant is g as a token's identity.Grant.
func NewGrant(g Grant) *identity.Grant { return identity.NewGrant(g) }

// GrantOf reads a bot's grant. A grant that does not read as one (another
// plugin's, or a damaged token file) reaches nothing: the zero Grant, so
// every check on it fails closed.
func GrantOf(g *identity.Grant) Grant {
	var out Grant
	if g == nil || g.Decode(&out) != nil {
		return Grant{}
	}
	return out
}

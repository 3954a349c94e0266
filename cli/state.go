package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/storage"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// State is the host's persisted state as a command edits it when no
// host answers: the data directory's files, or the shared database when
// host.store.kind is postgres (then every node sees the change).
type State struct {
	c  *dsh.LoadedConfig
	st *storage.Storage
}

// Storage is where the state is kept.
func (h *State) Storage() *storage.Storage { return h.st }

// Close lets go of the database, if any.
func (h *State) Close() { h.st.Close() }

// openState opens --config's state; close it when done.
func openState(cmd *cobra.Command) (*State, error) {
	c, err := LoadConfig(cmd)
	if err != nil {
		return nil, err
	}
	return OpenState(cmd.Context(), c)
}

// OpenState opens c's state; close it when done.
func OpenState(ctx context.Context, c *dsh.LoadedConfig) (*State, error) {
	st, err := dsh.OpenStorage(ctx, c.Host.DataDir, c.Host.Store, nil)
	if err != nil {
		return nil, err
	}
	return &State{c: c, st: st}, nil
}

// Tokens is the token store (host and connect tokens).
func (h *State) Tokens() *connection.TokenStore {
	return connection.NewTokenStore(h.st.Doc(connection.TokensDoc, dsh.TokenFile(h.c.Host.DataDir), connection.TokensWhat))
}

// Sessions is the browser sessions store.
func (h *State) Sessions() *connection.SessionStore {
	return connection.NewSessionStore(h.st.Doc(connection.SessionsDoc, connection.SessionFile(h.c.Host.DataDir), connection.SessionsWhat))
}

// People is the accounts store.
func (h *State) People() *accounts.Store {
	return accounts.Open(accounts.File(h.c.Host.DataDir), accounts.Options{State: h.st.State()})
}

package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// hostState is the host's persisted state as a command edits it when no
// host answers: the data directory's files, or the shared database when
// host.store.kind is postgres (then every node sees the change).
type hostState struct {
	c     *dsh.LoadedConfig
	state *pgstate.Backend // nil: files
	close func()
}

// openState opens --config's state; close it when done.
func openState(cmd *cobra.Command) (*hostState, error) {
	c, err := loadConfig(cmd)
	if err != nil {
		return nil, err
	}
	return openStateOf(cmd.Context(), c)
}

func openStateOf(ctx context.Context, c *dsh.LoadedConfig) (*hostState, error) {
	db, err := dsh.OpenDatabase(ctx, c.Host.Store, nil)
	if err != nil || db == nil {
		return &hostState{c: c, close: func() {}}, err
	}
	return &hostState{c: c, state: db.State, close: db.Pool.Close}, nil
}

// tokens is the token store (host and connect tokens).
func (h *hostState) tokens() *connection.TokenStore {
	if h.state != nil {
		return connection.NewTokenStore(h.state.Doc(connection.TokensDoc))
	}
	return connection.OpenTokenStore(dsh.TokenFile(h.c.Host.DataDir))
}

// sessions is the browser sessions store.
func (h *hostState) sessions() *connection.SessionStore {
	if h.state != nil {
		return connection.NewSessionStore(h.state.Doc(connection.SessionsDoc))
	}
	return connection.OpenSessionStore(connection.SessionFile(h.c.Host.DataDir))
}

// people is the accounts store.
func (h *hostState) people() *accounts.Store {
	if h.state != nil {
		return accounts.Open("", accounts.Options{State: h.state})
	}
	return accounts.Open(accounts.File(h.c.Host.DataDir), accounts.Options{})
}

package oauth

import (
	"context"
	"sync"
	"time"

	"github.com/go-oauth2/oauth2/v4"
	"github.com/go-oauth2/oauth2/v4/errors"
)

// codes holds authorization codes in memory until they are exchanged
// (once) or expire: the library's TokenStore, for codes only. Access
// tokens are connect tokens in the host's token file, never kept here.
type codes struct {
	mu  sync.Mutex
	all map[string]oauth2.TokenInfo
}

func newCodes() *codes { return &codes{all: map[string]oauth2.TokenInfo{}} }

var _ oauth2.TokenStore = (*codes)(nil)

func (c *codes) Create(_ context.Context, ti oauth2.TokenInfo) error {
	if ti.GetCode() == "" {
		return nil // an access token: the token file has it
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	for k, v := range c.all {
		if v.GetCodeCreateAt().Add(v.GetCodeExpiresIn()).Before(now) {
			delete(c.all, k)
		}
	}
	c.all[ti.GetCode()] = ti
	return nil
}

// RemoveByCode fails for a code already gone, so of two exchanges of one
// code racing each other only one wins.
func (c *codes) RemoveByCode(_ context.Context, code string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.all[code]; !ok {
		return errors.ErrInvalidAuthorizeCode
	}
	delete(c.all, code)
	return nil
}

func (c *codes) GetByCode(_ context.Context, code string) (oauth2.TokenInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ti, ok := c.all[code]
	if !ok {
		return nil, errors.ErrInvalidAuthorizeCode
	}
	return ti, nil
}

func (c *codes) RemoveByAccess(context.Context, string) error  { return nil }
func (c *codes) RemoveByRefresh(context.Context, string) error { return nil }
func (c *codes) GetByAccess(context.Context, string) (oauth2.TokenInfo, error) {
	return nil, errors.ErrInvalidAccessToken
}
func (c *codes) GetByRefresh(context.Context, string) (oauth2.TokenInfo, error) {
	return nil, errors.ErrInvalidRefreshToken
}

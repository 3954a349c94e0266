package oauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-oauth2/oauth2/v4"
	"github.com/go-oauth2/oauth2/v4/errors"
	"github.com/go-oauth2/oauth2/v4/models"

	"github.com/dshgo/dsh/internal/statefile"
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

// sharedCodes hold authorization codes in a state document (a shared
// backend's CodesDoc) until they are exchanged or expire, so a code one
// node issued is exchanged on any node, once: the exchange removes it
// under the document's lock, and of two exchanges at once only one finds
// it. Codes are kept by their SHA-256, never in plain text.
type sharedCodes struct {
	doc statefile.Doc
	now func() time.Time
}

var _ oauth2.TokenStore = (*sharedCodes)(nil)

// storedCode is what is kept of a code: what the library reads back to
// exchange it (client, redirect URI, PKCE challenge, the person who
// approved and the grant they chose), not the code itself.
type storedCode struct {
	SHA256              string        `json:"sha256"`
	ClientID            string        `json:"clientId"`
	UserID              string        `json:"userId"`
	RedirectURI         string        `json:"redirectUri"`
	Scope               string        `json:"scope,omitempty"`
	CodeChallenge       string        `json:"codeChallenge"`
	CodeChallengeMethod string        `json:"codeChallengeMethod"`
	CreatedAt           time.Time     `json:"createdAt"`
	ExpiresIn           time.Duration `json:"expiresIn"`
	Extension           url.Values    `json:"extension,omitempty"`
	AccessExpiresIn     time.Duration `json:"accessExpiresIn"`
}

type codesFile struct {
	Codes []storedCode `json:"codes"`
}

func parseCodes(where string, data []byte) (codesFile, error) {
	var f codesFile
	if len(strings.TrimSpace(string(data))) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return codesFile{}, fmt.Errorf("oauth: parse codes %s: %w", where, err)
	}
	return f, nil
}

func hashCode(code string) string {
	sum := sha256.Sum256([]byte(code))
	return hex.EncodeToString(sum[:])
}

func (sc storedCode) expired(now time.Time) bool { return sc.CreatedAt.Add(sc.ExpiresIn).Before(now) }

func (c *sharedCodes) index(f codesFile, code string) int {
	h := []byte(hashCode(code))
	return slices.IndexFunc(f.Codes, func(sc storedCode) bool { return subtle.ConstantTimeCompare([]byte(sc.SHA256), h) == 1 })
}

func (c *sharedCodes) Create(ctx context.Context, ti oauth2.TokenInfo) error {
	if ti.GetCode() == "" {
		return nil // an access token: the token document has it
	}
	sc := storedCode{
		SHA256: hashCode(ti.GetCode()), ClientID: ti.GetClientID(), UserID: ti.GetUserID(), RedirectURI: ti.GetRedirectURI(),
		Scope: ti.GetScope(), CodeChallenge: ti.GetCodeChallenge(), CodeChallengeMethod: string(ti.GetCodeChallengeMethod()),
		CreatedAt: ti.GetCodeCreateAt(), ExpiresIn: ti.GetCodeExpiresIn(), AccessExpiresIn: ti.GetAccessExpiresIn(),
	}
	if eti, ok := ti.(oauth2.ExtendableTokenInfo); ok {
		sc.Extension = eti.GetExtension()
	}
	now := c.now()
	return statefile.UpdateDoc(ctx, c.doc, parseCodes, func(f codesFile) (codesFile, bool, error) {
		f.Codes = slices.DeleteFunc(f.Codes, func(old storedCode) bool { return old.expired(now) })
		f.Codes = append(f.Codes, sc)
		return f, true, nil
	})
}

// RemoveByCode fails for a code already gone, so of two exchanges of one
// code racing each other, on any nodes, only one wins.
func (c *sharedCodes) RemoveByCode(ctx context.Context, code string) error {
	return statefile.UpdateDoc(ctx, c.doc, parseCodes, func(f codesFile) (codesFile, bool, error) {
		i := c.index(f, code)
		if i < 0 {
			return f, false, errors.ErrInvalidAuthorizeCode
		}
		f.Codes = slices.Delete(f.Codes, i, i+1)
		return f, true, nil
	})
}

func (c *sharedCodes) GetByCode(ctx context.Context, code string) (oauth2.TokenInfo, error) {
	f, err := statefile.ReadDoc(ctx, c.doc, parseCodes)
	if err != nil {
		return nil, err
	}
	i := c.index(f, code)
	if i < 0 {
		return nil, errors.ErrInvalidAuthorizeCode
	}
	sc := f.Codes[i]
	ti := models.NewToken()
	ti.SetCode(code)
	ti.SetClientID(sc.ClientID)
	ti.SetUserID(sc.UserID)
	ti.SetRedirectURI(sc.RedirectURI)
	ti.SetScope(sc.Scope)
	ti.SetCodeChallenge(sc.CodeChallenge)
	ti.SetCodeChallengeMethod(oauth2.CodeChallengeMethod(sc.CodeChallengeMethod))
	ti.SetCodeCreateAt(sc.CreatedAt)
	ti.SetCodeExpiresIn(sc.ExpiresIn)
	ti.SetAccessExpiresIn(sc.AccessExpiresIn)
	if sc.Extension != nil {
		ti.SetExtension(sc.Extension)
	}
	return ti, nil
}

func (c *sharedCodes) RemoveByAccess(context.Context, string) error  { return nil }
func (c *sharedCodes) RemoveByRefresh(context.Context, string) error { return nil }
func (c *sharedCodes) GetByAccess(context.Context, string) (oauth2.TokenInfo, error) {
	return nil, errors.ErrInvalidAccessToken
}
func (c *sharedCodes) GetByRefresh(context.Context, string) (oauth2.TokenInfo, error) {
	return nil, errors.ErrInvalidRefreshToken
}

package httpapi

import (
	"context"
	"net/http"
	"sort"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// People names the host's people (*connection.Service's accounts): the
// members routes speak of people by name, the metadata by id.
type People interface {
	PersonID(ctx context.Context, name string) (id string, ok bool)
	PersonName(ctx context.Context, id string) (name string, ok bool)
	OwnerID(ctx context.Context) string
}

// members holds GET and PUT /boards/:name/members.
type members struct {
	svc    *service.Service
	people People
}

// Member is one person a board is shared with.
type Member struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

type membersBody struct {
	Owner   string   `json:"owner"`
	Members []Member `json:"members"`
}

func (m members) body(ctx context.Context, sh *service.Sharing) membersBody {
	owner := sh.Owner
	if owner == "" {
		owner = m.people.OwnerID(ctx)
	}
	out := membersBody{Members: []Member{}}
	out.Owner, _ = m.people.PersonName(ctx, owner)
	for id, role := range sh.Members {
		name, ok := m.people.PersonName(ctx, id)
		if !ok {
			continue // removed since
		}
		out.Members = append(out.Members, Member{Name: name, Role: role})
	}
	sort.Slice(out.Members, func(i, j int) bool { return out.Members[i].Name < out.Members[j].Name })
	return out
}

func (m members) list(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	sh, err := m.svc.Members(c.Request().Context(), name)
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, m.body(c.Request().Context(), sh))
}

// setBody is PUT /boards/:name/members/:person: role editor or viewer,
// or "" to stop sharing.
type setBody struct {
	Role string `json:"role"`
}

func (m members) set(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	var b setBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	id, found := m.people.PersonID(c.Request().Context(), c.Param("person"))
	if !found {
		return sceneerr.New(sceneerr.NotFound, "no person is named %q on this host (`dsh user add` invites one)", c.Param("person")).With("pointer", "/person")
	}
	sh, err := m.svc.SetMember(c.Request().Context(), name, id, b.Role)
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, m.body(c.Request().Context(), sh))
}

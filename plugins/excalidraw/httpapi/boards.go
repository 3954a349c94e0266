package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/identity"
)

// boardRoutes holds the board and folder handlers the editor's board list
// uses (the session's person, or whoever admission let in): as thin as
// the scene handlers, the rules being the service's.
type boardRoutes struct {
	svc *service.Service
}

// boardBody wraps one board; boardsBody and foldersBody the listings.
type boardBody struct {
	Board any `json:"board"`
}

type boardsBody struct {
	Boards []service.BoardInfo `json:"boards"`
}

type foldersBody struct {
	Folders []service.FolderInfo `json:"folders"`
}

type folderBody struct {
	Folder *service.CreatedFolder `json:"folder"`
}

// answer writes v, or returns err as the web server renders it; a
// rate_limited error also says when to retry in a Retry-After header.
func answer(c echo.Context, status int, v any, err error) error {
	if err != nil {
		var se *sceneerr.Error
		if errors.As(err, &se) && se.Code == sceneerr.RateLimited {
			if after, ok := se.Details["retryAfterSec"].(int); ok && after > 0 {
				c.Response().Header().Set("Retry-After", strconv.Itoa(after))
			}
		}
		return err
	}
	return ok(c, status, v)
}

// list is GET /boards; ?trash=1 lists the caller's trash instead.
func (h boardRoutes) list(c echo.Context) error {
	var trash bool
	switch q := c.QueryParam("trash"); q {
	case "", "0", "false":
	case "1", "true":
		trash = true
	default:
		return badRequest("", "trash must be 1 or 0, not %q", q)
	}
	list, err := h.svc.ListBoards(c.Request().Context(), trash)
	return answer(c, http.StatusOK, boardsBody{Boards: list}, err)
}

// createBoardBody is POST /boards.
type createBoardBody struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	FolderID    string `json:"folderId,omitempty"`
}

func (h boardRoutes) create(c echo.Context) error {
	var b createBoardBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	res, err := h.svc.CreateBoard(c.Request().Context(), service.CreateBoardRequest{
		Name: b.Name, Title: b.Title, Description: b.Description, Folder: b.FolderID,
		Actor: store.ActorUI, Attribution: store.Attribution{Via: ViaEditor},
	})
	return answer(c, http.StatusCreated, boardBody{Board: res}, err)
}

// patchBoardBody is PATCH /boards/:name: a new title, a new description,
// or both.
type patchBoardBody struct {
	Title       *string `json:"title"`
	Description *string `json:"description"`
}

// update renames or describes a board. Both values are checked before
// either is written, so a bad description does not leave the board
// renamed.
func (h boardRoutes) update(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	var b patchBoardBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	if b.Title == nil && b.Description == nil {
		return badRequest("", "give a title, a description, or both")
	}
	if b.Title != nil && strings.TrimSpace(*b.Title) == "" {
		// The page's rename field left empty: the board is shown by its
		// name, which is what a title equal to it does.
		b.Title = &name
	}
	if b.Title != nil && b.Description != nil {
		if t, err := boards.CheckTitle(*b.Title); err != nil || t == "" {
			if err == nil {
				err = sceneerr.New(sceneerr.InvalidOperation, "title must not be empty")
			}
			return located(err, "/title")
		}
		if _, err := boards.CheckDescription(*b.Description); err != nil {
			return located(err, "/description")
		}
	}
	ctx := c.Request().Context()
	var out *service.BoardChange
	if b.Title != nil {
		if out, err = h.svc.RenameBoard(ctx, name, *b.Title); err != nil {
			return answer(c, 0, nil, err)
		}
	}
	if b.Description != nil {
		d, err := h.svc.DescribeBoard(ctx, name, *b.Description)
		if err != nil {
			return answer(c, 0, nil, err)
		}
		if out != nil {
			d.PreviousTitle = out.PreviousTitle
		}
		out = d
	}
	return ok(c, http.StatusOK, boardBody{Board: out})
}

// located is a board check's error with the pointer of the value it is
// about.
func located(err error, pointer string) error {
	var se *sceneerr.Error
	if errors.As(err, &se) {
		return se.With("pointer", pointer)
	}
	return err
}

// trash is DELETE /boards/:name: the board goes to its owner's trash.
func (h boardRoutes) trash(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	res, err := h.svc.TrashBoard(c.Request().Context(), name)
	return answer(c, http.StatusOK, boardBody{Board: res}, err)
}

// restore is POST /boards/:name/restore: out of the trash.
func (h boardRoutes) restore(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	res, err := h.svc.RestoreBoard(c.Request().Context(), name)
	return answer(c, http.StatusOK, boardBody{Board: res}, err)
}

// moveBody is PUT /boards/:name/folder; folderId is required, null
// taking the board out of its folder.
type moveBody struct {
	FolderID json.RawMessage `json:"folderId"`
}

func (h boardRoutes) move(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	var b moveBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	id := ""
	switch raw := bytes.TrimSpace(b.FolderID); {
	case len(raw) == 0:
		return badRequest("/folderId", "folderId is required: a folder's id, or null for no folder")
	case string(raw) == "null":
	default:
		if err := json.Unmarshal(raw, &id); err != nil || id == "" {
			return badRequest("/folderId", "folderId must be a folder's id or null")
		}
	}
	res, err := h.svc.MoveBoard(c.Request().Context(), name, id)
	return answer(c, http.StatusOK, boardBody{Board: res}, err)
}

// folders is GET /folders: the caller's folders.
func (h boardRoutes) folders(c echo.Context) error {
	list, err := h.svc.Folders(c.Request().Context())
	return answer(c, http.StatusOK, foldersBody{Folders: list}, err)
}

type createFolderBody struct {
	Name string `json:"name"`
}

// createFolder is POST /folders: 201 for a new folder, 200 for the one
// of that name the caller had.
func (h boardRoutes) createFolder(c echo.Context) error {
	var b createFolderBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	res, err := h.svc.CreateFolder(c.Request().Context(), b.Name)
	status := http.StatusOK
	if err == nil && res.Created {
		status = http.StatusCreated
	}
	return answer(c, status, folderBody{Folder: res}, err)
}

// Me is GET /me: who the page is signed in as.
type Me struct {
	// Kind is "person", "bot" (a connect token), "host" (a host token,
	// or the host's owner where the host keeps no people) or "local"
	// (the process itself).
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Person is the name of the person it acts for, PersonID their id:
	// a history entry whose personId is the same is theirs ("you"). ""
	// for a host token and a host that keeps no people.
	Person   string `json:"person"`
	PersonID string `json:"personId,omitempty"`
	// Author is how what it changes is named (a history entry's name).
	Author    string `json:"author"`
	Admin     bool   `json:"admin"`
	HostOwner bool   `json:"hostOwner"`
}

func me(c echo.Context) error {
	who := identity.Of(c.Request().Context())
	out := Me{Kind: "person", Name: who.Name, Person: who.PersonName, PersonID: who.Person, Author: who.Author(),
		Admin: who.Admin, HostOwner: who.HostOwner}
	switch {
	case who.Grant != nil:
		out.Kind = "bot"
	case who.Kind == identity.KindLocal:
		out.Kind = "local"
	case who.Person == "":
		out.Kind = "host"
	}
	return ok(c, http.StatusOK, out)
}

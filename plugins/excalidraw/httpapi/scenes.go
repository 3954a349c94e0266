package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// scenes holds the scene handlers; they are thin on purpose: naming,
// validation, locking and revision fencing all live in the service, so the
// browser and the agent tools cannot drift apart.
type scenes struct {
	svc *service.Service
}

// listBody wraps the listing in an object so fields can be added later
// without breaking clients (contract section 9).
type listBody struct {
	Scenes []service.SceneSummary `json:"scenes"`
}

func (h scenes) list(c echo.Context) error {
	rows, err := h.svc.List(c.Request().Context())
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, listBody{Scenes: rows})
}

// read returns the stored document unchanged with its revision and
// sha256, which the editor keeps as the base of its next save.
func (h scenes) read(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	res, err := h.svc.Read(c.Request().Context(), service.ReadRequest{Name: name, Include: service.IncludeFull})
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, res)
}

// createBody is POST /scenes. The UI creates empty scenes; elements, when
// given, are the same strict inputs the agent's create tool takes.
// ViaEditor is how the journal names the editor's writes.
const ViaEditor = "editor"

type createBody struct {
	Name      string            `json:"name"`
	Elements  []json.RawMessage `json:"elements,omitempty"`
	RequestID string            `json:"request_id,omitempty"`
}

func (h scenes) create(c echo.Context) error {
	var b createBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	res, err := h.svc.Create(c.Request().Context(), service.CreateRequest{
		Name: b.Name, Elements: b.Elements, RequestID: b.RequestID, Actor: store.ActorUI,
		Attribution: store.Attribution{Via: ViaEditor},
	})
	if err != nil {
		return err
	}
	return ok(c, http.StatusCreated, res)
}

// saveBody is PUT /scenes/:name. expected_revision is a pointer because it
// is required unless force is set: a save that silently defaulted to
// revision 0 would turn every forgotten field into a confusing conflict.
type saveBody struct {
	Scene            json.RawMessage `json:"scene"`
	ExpectedRevision *int64          `json:"expected_revision"`
	RequestID        string          `json:"request_id"`
	Force            bool            `json:"force,omitempty"`
}

// save answers the service's evidence. A save whose normalized scene is
// the stored one (the editor saving without an edit, a forced save of
// what is there, a stale base holding the current bytes) writes nothing
// and answers 200 with the current revision and unchanged:true, so the
// editor simply adopts that revision as its base.
func (h scenes) save(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	var b saveBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	if b.ExpectedRevision == nil && !b.Force {
		return badRequest("/expected_revision", "expected_revision is required unless force is set")
	}
	req := service.SaveRequest{
		Name: name, Scene: b.Scene, RequestID: b.RequestID, Force: b.Force, Actor: store.ActorUI,
		Attribution: store.Attribution{Via: ViaEditor},
	}
	if b.ExpectedRevision != nil {
		req.ExpectedRevision = *b.ExpectedRevision
	}
	res, err := h.svc.Save(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, res)
}

// mergeBody is POST /scenes/:name/merge.
type mergeBody struct {
	Elements []json.RawMessage `json:"elements"`
	AppState json.RawMessage   `json:"appState,omitempty"`
	Files    json.RawMessage   `json:"files,omitempty"`
}

// merge is POST /scenes/:name/merge: elements an editor changed, stored
// where newer than the board's (service.Merge: no revision fence, no
// conflict; what someone else changed since stays), with the stored
// appState subset and attachments. The page uses it for what its live
// room does not carry (the background, the grid, images) and when it
// cannot reach the room (offline, the tab going away: a keepalive
// request). It answers the merge: the commit (none when nothing was
// newer), the ids taken and how many were stale.
func (h scenes) merge(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	var b mergeBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	res, err := h.svc.Merge(c.Request().Context(), service.MergeRequest{
		Name: name, Elements: b.Elements, AppState: b.AppState, Files: b.Files, Actor: store.ActorUI,
		Attribution: store.Attribution{Via: ViaEditor},
	})
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, res)
}

package room

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/webserver"
)

// Info is a board's room as its API gives it to someone who may read the
// board: the id and key a room link carries, and the link's fragment.
type Info struct {
	Board  string `json:"board"`
	RoomID string `json:"roomId"`
	Key    string `json:"roomKey"`
	// Link is the fragment an Excalidraw client opens the room with.
	Link string `json:"link"`
	// Path is where the room server answers (socket.io's path).
	Path string `json:"path"`
}

// Routes are the room server (socket.io, at Path: a public route that
// admits its sockets itself when the server has Options.Credential, else
// behind the web server's admission) and the room of a board (GET
// api+"/scenes/:name/room").
func (s *Server) Routes(api string) []webserver.Route {
	h := echo.WrapHandler(s.Handler())
	return []webserver.Route{
		{Method: webserver.AnyMethod, Path: Path + "/*", Handler: h, Stream: true, Public: s.opts.Credential != nil},
		{Method: http.MethodGet, Path: api + "/scenes/:name/room", Handler: s.info},
	}
}

func (s *Server) info(c echo.Context) error {
	name, err := url.PathUnescape(c.Param("name"))
	if err != nil {
		return sceneerr.New(sceneerr.InvalidName, "board name is not a valid path segment")
	}
	// The board, as the caller may read it: a room is an existing board's.
	if _, err := s.opts.Boards.Head(c.Request().Context(), name); err != nil {
		return err
	}
	id, key := s.RoomOf(name)
	return c.JSON(http.StatusOK, Info{Board: name, RoomID: id, Key: key.String(), Link: "#room=" + id + "," + key.String(), Path: Path})
}

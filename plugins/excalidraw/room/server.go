package room

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zishang520/socket.io/servers/socket/v3"
	"github.com/zishang520/socket.io/v3/pkg/types"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Boards is what the rooms ask of the scene service (*service.Service):
// each call under the principal of the socket it serves, or the
// process's own for what every member gets alike (a commit's delta).
type Boards interface {
	Role(ctx context.Context, name string) (string, error)
	Head(ctx context.Context, name string) (service.Head, error)
	Read(ctx context.Context, r service.ReadRequest) (*service.ReadResult, error)
	Delta(ctx context.Context, name string, from int64) (*service.Delta, error)
	Merge(ctx context.Context, r service.MergeRequest) (*service.MergeResult, error)
	List(ctx context.Context) ([]service.SceneSummary, error)
	Log(ctx context.Context, r service.LogRequest) (*service.LogResult, error)
}

var _ Boards = (*service.Service)(nil)

// Options configure a Server.
type Options struct {
	Boards Boards
	Keys   *Keys
	// Hub carries every commit of the boards (this process's, other
	// processes' and other nodes'); a room follows its board's.
	Hub    *live.Hub
	Logger *zap.Logger
	// FlushDelay is how long a room gathers what people draw before it
	// commits it (default 250 ms): a stroke is many updates, one commit.
	FlushDelay time.Duration
	// AgentLinger is how long an agent stays in a room's list of people
	// after its last commit (default 10 s).
	AgentLinger time.Duration
	// MaxMessageBytes bounds one socket.io message (default 32 MiB).
	MaxMessageBytes int64
	// Credential says who a request's credential is (a session cookie,
	// a bearer token: the connection service's Principal), checked afresh
	// each time. With it the room server is a public route that admits
	// its sockets itself, so a stock Excalidraw client, which can send no
	// header, joins with a connect token in its room link
	// ("#room=<room id>_<token>,<key>"), and a socket whose credential is
	// revoked is ended within a few seconds. Without it the web server
	// admits the handshake and its context says who the socket is.
	Credential func(r *http.Request) (identity.Principal, bool)
	// Relay carries the rooms to the other nodes of a shared database
	// (nil: this node is the only one); its listener hands what other
	// nodes publish to Server.Relayed.
	Relay Relay
}

// Server is every board's live room on one socket.io server: Excalidraw's
// collaboration protocol, so dsh's page and a stock Excalidraw client
// with dsh as its room server join the same rooms.
//
// dsh is in every room it hosts: it holds the board and its key, so a
// socket that joins gets the board from dsh (SCENE_INIT, as a peer sends
// it), what people draw is relayed to the others at once and committed
// to the board (service.Merge, named after the person, a few times a
// second at most), and what agents commit reaches every member as a
// SCENE_UPDATE, with the agent shown as a collaborator where it worked.
type Server struct {
	opts Options
	log  *zap.Logger
	io   *socket.Server
	h    http.Handler
	node string        // this node among the nodes (Relay)
	done chan struct{} // closed by Close

	mu      sync.Mutex
	closed  bool
	rooms   map[string]*room // by room id
	boardOf map[string]string
	members map[socket.SocketId]*member
	wg      sync.WaitGroup
}

// member is one socket in a room.
type member struct {
	sock *socket.Socket
	id   string
	who  identity.Principal
	ctx  context.Context // carries who
	name string          // as dsh names the principal
	room *room           // nil until it joined
	// verify checks the socket's credential again (nil: nothing to check,
	// the handshake was admitted); known is false for a socket that came
	// with no credential and has not joined with a token yet.
	verify func() (identity.Principal, bool)
	known  bool

	mu     sync.Mutex
	role   string
	roleAt time.Time
}

// roleTTL is how long a member's role is trusted before it is read again
// (access taken away stops what the member sends within it).
const roleTTL = 2 * time.Second

// New makes a Server; Handler serves it, Close ends it.
func New(o Options) (*Server, error) {
	if o.Boards == nil || o.Keys == nil || o.Hub == nil {
		return nil, errors.New("room: Boards, Keys and Hub are required")
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.FlushDelay <= 0 {
		o.FlushDelay = 250 * time.Millisecond
	}
	if o.AgentLinger <= 0 {
		o.AgentLinger = 10 * time.Second
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = 32 << 20
	}
	s := &Server{opts: o, log: o.Logger.Named("excalidraw.room"), rooms: map[string]*room{},
		boardOf: map[string]string{}, members: map[socket.SocketId]*member{}, node: newNodeID(), done: make(chan struct{})}
	opts := socket.DefaultServerOptions()
	opts.SetPath(Path)
	opts.SetServeClient(false)
	opts.SetMaxHttpBufferSize(o.MaxMessageBytes)
	s.io = socket.NewServer(nil, opts)
	s.h = s.io.ServeHandler(opts)
	s.io.On("connection", func(args ...any) {
		if sock, ok := args[0].(*socket.Socket); ok {
			s.connected(sock)
		}
	})
	if o.Relay != nil {
		s.every(membersRefresh, s.refreshMembers)
	}
	if o.Credential != nil {
		s.every(credentialCheck, s.checkCredentials)
	}
	return s, nil
}

// Path is where the rooms are served: socket.io's default, where a stock
// Excalidraw client looks for its room server.
const Path = "/socket.io"

// Handler serves socket.io's requests (polling and WebSocket). The
// requests must have been admitted: the room reads who they are from
// their context (identity).
func (s *Server) Handler() http.Handler { return s.h }

// RoomOf is the room id and key of a board.
func (s *Server) RoomOf(board string) (id string, key *Key) {
	id = s.opts.Keys.RoomID(board)
	s.mu.Lock()
	s.boardOf[id] = board
	s.mu.Unlock()
	return id, s.opts.Keys.Key(board)
}

// Close commits what the rooms hold, then ends every socket and room.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	rooms := make([]*room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	s.mu.Unlock()
	for _, r := range rooms {
		r.close()
	}
	s.io.Close(nil)
	s.wg.Wait()
	return nil
}

// connected greets a socket: who it is comes from its handshake request,
// which admission let in.
func (s *Server) connected(sock *socket.Socket) {
	m := &member{sock: sock, id: string(sock.Id())}
	var req *http.Request
	if hc := sock.Request(); hc != nil {
		req = hc.Request()
	}
	switch {
	case req == nil:
		m.setWho(identity.Local, true)
	case s.opts.Credential == nil:
		m.setWho(identity.Of(req.Context()), true)
	default:
		// What says who, kept to check again: the handshake's headers.
		saved := req.Clone(context.Background())
		m.verify = func() (identity.Principal, bool) { return s.opts.Credential(saved) }
		who, ok := m.verify()
		m.setWho(who, ok)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		sock.Disconnect(true)
		return
	}
	s.members[sock.Id()] = m
	s.mu.Unlock()
	// The events are read as the socket's packets are (OnAny, in its task
	// queue), not through On, whose handlers socket.io drops once the
	// socket is closed: a stroke sent just before a tab closes arrived and
	// must be kept. The socket leaves its room after the packets before
	// its end.
	sock.OnAny(func(args ...any) {
		if len(args) == 0 {
			return
		}
		ev, _ := args[0].(string)
		args = args[1:]
		switch ev {
		case evJoinRoom:
			s.join(m, stringArg(args, 0))
		case evServerBroadcast:
			s.broadcast(m, args, false)
		case evServerVolatile:
			s.broadcast(m, args, true)
		case evUserFollow:
			s.follow(m, args)
		}
	})
	sock.On("disconnecting", func(...any) { sock.Enqueue(func() { s.left(m) }) })
	_ = sock.Emit(evInitRoom)
}

// credentialCheck is how often the sockets' credentials and roles are
// checked again: access taken away (a token revoked, a session ended, a
// member removed) ends a socket within it.
const credentialCheck = 3 * time.Second

// checkCredentials ends the sockets whose credential no longer holds or
// who may no longer read their board.
func (s *Server) checkCredentials() {
	s.mu.Lock()
	ms := slices.Collect(maps.Values(s.members))
	s.mu.Unlock()
	for _, m := range ms {
		m.sock.Enqueue(func() { s.recheck(m) })
	}
}

// every runs fn every d on a goroutine of the server's until Close.
func (s *Server) every(d time.Duration, fn func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-t.C:
				fn()
			}
		}
	}()
}

// recheck is checkCredentials for one socket, in its queue (so it does
// not race the socket's own events).
func (s *Server) recheck(m *member) {
	if m.verify == nil || m.room == nil {
		return
	}
	if _, ok := m.verify(); !ok {
		s.refuseWith(m, connection.CodeUnauthenticated, "your access to dsh ended (signed out, or the token was revoked)")
		return
	}
	role, err := s.opts.Boards.Role(m.ctx, m.room.board)
	if err != nil || role == "" {
		s.refuse(m, sceneerr.New(sceneerr.NotFound, "you no longer have access to this board"))
		return
	}
	m.setRole(role)
}

// splitRoomID parts a room link's id into the room's (20 hex digits) and
// the connect token after it ("<id>_<token>"), if any.
func splitRoomID(s string) (id, token string) {
	if len(s) > 21 && s[20] == '_' && !strings.HasPrefix(s, "follow@") {
		return s[:20], s[21:]
	}
	return s, ""
}

// setWho records who the socket is.
func (m *member) setWho(who identity.Principal, known bool) {
	m.who, m.known = who, known
	m.ctx = identity.With(context.Background(), who)
	m.name = who.Author() // as its commits are named: "<bot> (for <person>)" for a bot
}

// bearer is a request carrying token, for Credential.
func bearer(token string) *http.Request {
	r, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "/", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}

// join puts m in the room of roomID, if it may read that board, and
// sends it the board.
func (s *Server) join(m *member, roomID string) {
	if id, token := splitRoomID(roomID); token != "" && s.opts.Credential != nil {
		// A room link with a connect token: the socket is the token's.
		roomID = id
		check := func() (identity.Principal, bool) { return s.opts.Credential(bearer(token)) }
		who, ok := check()
		if !ok {
			s.refuseWith(m, connection.CodeInvalidToken, "the token in this room link is not valid (revoked or expired?)")
			return
		}
		m.verify = check
		m.setWho(who, true)
	}
	if !m.known {
		s.refuseWith(m, connection.CodeUnauthenticated, "sign in to dsh, or open a room link that carries a connect token")
		return
	}
	board, err := s.board(m.ctx, roomID)
	if err == nil {
		var role string
		role, err = s.opts.Boards.Role(m.ctx, board)
		if err == nil && role == "" {
			err = sceneerr.New(sceneerr.NotFound, "no room %q", roomID)
		}
		m.setRole(role)
	}
	if err != nil {
		s.refuse(m, err)
		return
	}
	r, err := s.room(roomID, board)
	if err != nil {
		s.refuse(m, err)
		return
	}
	if m.room != nil && m.room != r {
		m.room.leave(m)
	}
	m.room = r
	r.enter(m)
}

// refuse tells a socket why it cannot join or write, and ends it.
func (s *Server) refuse(m *member, err error) {
	_ = m.sock.Emit(evDshError, errorBody(err))
	m.sock.Disconnect(true)
}

// refuseWith is refuse with one of the host's admission codes.
func (s *Server) refuseWith(m *member, code, message string) {
	_ = m.sock.Emit(evDshError, map[string]any{"code": code, "message": message, "status": http.StatusUnauthorized})
	m.sock.Disconnect(true)
}

// errorBody is the host's one error contract (code, message, status,
// details) as a dsh-error carries it, so a page words it as it words the
// same error over HTTP.
func errorBody(err error) map[string]any {
	if c, ok := apierr.As(err); ok {
		body := map[string]any{"code": c.ErrorCode(), "message": c.ErrorMessage(), "status": c.HTTPStatus()}
		if d := c.ErrorDetails(); len(d) > 0 {
			body["details"] = d
		}
		return body
	}
	return map[string]any{"code": string(sceneerr.IOError), "message": err.Error(), "status": http.StatusInternalServerError}
}

// board is the board of a room id: one whose room this process named, or
// one of the boards the caller sees.
func (s *Server) board(ctx context.Context, roomID string) (string, error) {
	s.mu.Lock()
	b, ok := s.boardOf[roomID]
	s.mu.Unlock()
	if ok {
		return b, nil
	}
	list, err := s.opts.Boards.List(ctx)
	if err != nil {
		return "", err
	}
	for _, row := range list {
		if s.opts.Keys.RoomID(row.Name) == roomID {
			s.mu.Lock()
			s.boardOf[roomID] = row.Name
			s.mu.Unlock()
			return row.Name, nil
		}
	}
	return "", sceneerr.New(sceneerr.NotFound, "no room %q", roomID)
}

// room is the open room of roomID, opened for board if there is none.
func (s *Server) room(roomID, board string) (*room, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, sceneerr.New(sceneerr.NotFound, "the rooms are closed")
	}
	if r, ok := s.rooms[roomID]; ok {
		return r, nil
	}
	sub, err := s.opts.Hub.Subscribe(board)
	if err != nil {
		return nil, err
	}
	r := newRoom(s, roomID, board, sub)
	s.rooms[roomID] = r
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		r.followBoard()
	}()
	go s.publish(RelayMessage{Room: roomID, Kind: relayHello})
	return r, nil
}

// forget drops an empty room.
func (s *Server) forget(r *room) {
	s.mu.Lock()
	if s.rooms[r.id] == r {
		delete(s.rooms, r.id)
	}
	s.mu.Unlock()
}

// broadcast is server-broadcast and server-volatile-broadcast: (roomId,
// data, iv).
func (s *Server) broadcast(m *member, args []any, volatile bool) {
	r := m.room
	if r == nil || len(args) < 3 {
		return
	}
	to, _ := splitRoomID(stringArg(args, 0))
	data, iv := bytesArg(args, 1), bytesArg(args, 2)
	plain, err := r.key.Open(data, iv)
	if err != nil {
		s.log.Debug("dropped a message not sealed with the room's key", zap.String("room", r.id), zap.String("socket", m.id))
		return
	}
	var msg message
	if json.Unmarshal(plain, &msg) != nil {
		return
	}
	switch msg.Type {
	case msgSceneInit, msgSceneUpdate:
		if to != r.id {
			return
		}
		r.scene(m, msg, data, iv)
	case msgMouse, msgIdle, msgBounds:
		if to != r.id && to != followRoom(m.id) {
			return
		}
		r.presence(m, to, msg, volatile)
	}
}

// follow is user-follow: a member starts or stops following another.
func (s *Server) follow(m *member, args []any) {
	r := m.room
	if r == nil || len(args) < 1 {
		return
	}
	b, err := json.Marshal(args[0])
	if err != nil {
		return
	}
	var p followPayload
	if json.Unmarshal(b, &p) != nil || p.UserToFollow.SocketID == "" {
		return
	}
	r.follow(m, p.UserToFollow.SocketID, p.Action != "UNFOLLOW" && p.Action != "unfollow")
}

// left is a socket's end.
func (s *Server) left(m *member) {
	s.mu.Lock()
	delete(s.members, m.sock.Id())
	s.mu.Unlock()
	if r := m.room; r != nil {
		r.leave(m)
	}
}

// setRole records the member's role, read now.
func (m *member) setRole(role string) {
	m.mu.Lock()
	m.role, m.roleAt = role, time.Now()
	m.mu.Unlock()
}

// mayWrite reports whether the member may change the board, reading its
// role again when the one known is older than roleTTL.
func (m *member) mayWrite(b Boards, board string) bool {
	m.mu.Lock()
	role, at := m.role, m.roleAt
	m.mu.Unlock()
	if time.Since(at) > roleTTL {
		r, err := b.Role(m.ctx, board)
		if err != nil {
			r = ""
		}
		m.setRole(r)
		role = r
	}
	return role == identity.RoleOwner || role == identity.RoleEditor
}

func stringArg(args []any, i int) string {
	if i < len(args) {
		if s, ok := args[i].(string); ok {
			return s
		}
	}
	return ""
}

func bytesArg(args []any, i int) []byte {
	if i >= len(args) {
		return nil
	}
	switch v := args[i].(type) {
	case []byte:
		return v
	case types.BufferInterface:
		return v.Bytes()
	}
	return nil
}

// ids is a sorted copy of a set's keys.
func ids(set map[string]bool) []string { return slices.Sorted(maps.Keys(set)) }

// roomName is a socket.io room.
func roomName(id string) socket.Room { return socket.Room(id) }

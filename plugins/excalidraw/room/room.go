package room

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/identity"
)

// room is one board's live room.
//
//	open (first join) ─► members come and go ─► empty: what it holds is
//	committed, it stops following the board and is forgotten
//
// What the room knows of the board is the newest version of each element
// it has sent or relayed (seen) and the revision it has caught up to:
// a commit's delta is sent to the members less what they already have,
// so what people drew is not echoed back to them when it is stored.
type room struct {
	s     *Server
	id    string
	board string
	key   *Key
	sub   *live.Subscription
	done  chan struct{}

	mu        sync.Mutex
	members   map[string]*member             // by socket id
	followers map[string]map[string]bool     // followed socket id → follower socket ids
	seen      map[string]elementHead         // element id → the newest version the members have
	revision  int64                          // the board's revision the room caught up to
	pending   map[string]*batch              // principal → what it drew, not yet committed
	flushing  bool                           // a flush is scheduled or running
	agents    map[string]*agent              // pseudo socket id → an agent at work
	remote    map[string]remoteList          // node → its sockets in the room (Relay)
	remoteFol map[string]map[string][]string // followed socket id → node → its followers there
	lifted    map[string]float64             // element id → the version a retraction gave the members (preview.go)
	closed    bool
	flushMu   sync.Mutex // one flush at a time
	agentTime *time.Timer
}

// batch is what one principal drew since the room's last commit.
type batch struct {
	who   identity.Principal
	ctx   context.Context
	socks map[string]*member
	els   map[string]json.RawMessage
	heads map[string]elementHead
	order []string
	// acks are what each socket sent (element id → version), told back
	// to it once committed (dsh-saved).
	acks map[string]map[string]float64
}

// remoteList is another node's members of the room, as it last said.
type remoteList struct {
	ids []string
	at  time.Time
}

// agent is an agent shown as a collaborator where its last commit was.
type agent struct {
	id, name string
	until    time.Time
}

func newRoom(s *Server, id, board string, sub *live.Subscription) *room {
	return &room{s: s, id: id, board: board, key: s.opts.Keys.Key(board), sub: sub, done: make(chan struct{}),
		members: map[string]*member{}, followers: map[string]map[string]bool{}, seen: map[string]elementHead{},
		pending: map[string]*batch{}, agents: map[string]*agent{}, remote: map[string]remoteList{},
		remoteFol: map[string]map[string][]string{}, lifted: map[string]float64{}}
}

// enter sends m the board and tells everyone who is here.
func (r *room) enter(m *member) {
	rev, elements, err := r.read(m.ctx)
	if err != nil {
		r.s.refuse(m, err)
		return
	}
	if !r.admit(m, rev, elements) {
		r.s.refuse(m, errClosed)
		return
	}
	m.sock.Join(roomName(r.id))
	data, iv := r.seal(message{Type: msgSceneInit, Payload: mustJSON(scenePayload{Elements: orEmpty(elements)})})
	_ = m.sock.Emit(evClientBroadcast, data, iv)
	if len(elements) == 0 {
		_ = m.sock.Emit(evFirstInRoom)
	}
	_ = m.sock.Emit(evDshRoom, map[string]any{"board": r.board, "revision": rev, "name": m.name, "role": m.roleNow()})
	r.usersChanged()
	r.publishMembers()
}

// read is the board as the caller of ctx may read it: its revision and
// elements.
func (r *room) read(ctx context.Context) (int64, []json.RawMessage, error) {
	res, err := r.s.opts.Boards.Read(ctx, service.ReadRequest{Name: r.board})
	if err != nil {
		return 0, nil, err
	}
	var doc struct {
		Elements []json.RawMessage `json:"elements"`
	}
	if err := json.Unmarshal(res.Scene, &doc); err != nil {
		return 0, nil, err
	}
	return res.Revision, doc.Elements, nil
}

// admit adds m, which read the board at revision rev with elements els,
// to the members; false when the room is closing. The first member's
// board is where the room starts. A later one's read may be ahead of the
// room (a commit whose delta the room has not sent yet): the room's
// revision stays, so the members already here still get that delta (the
// newcomer too, twice: harmless).
func (r *room) admit(m *member, rev int64, els []json.RawMessage) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	if len(r.members) == 0 && rev > r.revision {
		r.revision = rev
		for _, raw := range els {
			if h, ok := headOf(raw); ok {
				r.see(h)
			}
		}
	}
	r.members[m.id] = m
	return true
}

// errClosed refuses a socket joining a room being closed.
var errClosed = errors.New("the room is closing; join again")

// leave takes m out of the room; the last one out closes it.
func (r *room) leave(m *member) {
	r.mu.Lock()
	if _, ok := r.members[m.id]; !ok {
		r.mu.Unlock()
		return
	}
	delete(r.members, m.id)
	var tell []string // sockets whose followers changed
	for followed, set := range r.followers {
		if set[m.id] {
			delete(set, m.id)
			tell = append(tell, followed)
		}
	}
	delete(r.followers, m.id)
	empty := len(r.members) == 0
	r.mu.Unlock()
	m.sock.Leave(roomName(r.id))
	for _, f := range tell {
		r.followersChanged(f)
	}
	r.publishMembers()
	if empty {
		// Forgotten first: a socket joining meanwhile opens a new room
		// rather than meet this one closing.
		r.s.forget(r)
		r.close()
		return
	}
	r.usersChanged()
}

// close commits what the room holds and stops following the board.
func (r *room) close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	if r.agentTime != nil {
		r.agentTime.Stop()
	}
	r.mu.Unlock()
	r.flush()
	r.sub.Close()
	<-r.done
}

// usersChanged sends everyone the room's socket ids (agents at work
// among them).
func (r *room) usersChanged() {
	r.mu.Lock()
	list := make([]string, 0, len(r.members)+len(r.agents))
	for id := range r.members {
		list = append(list, id)
	}
	for id := range r.agents {
		list = append(list, id)
	}
	now := time.Now()
	for _, rl := range r.remote {
		if now.Sub(rl.at) < remoteMembersTTL {
			list = append(list, rl.ids...)
		}
	}
	r.mu.Unlock()
	slices.Sort(list)
	_ = r.s.io.To(roomName(r.id)).Emit(evRoomUserChange, list)
}

// scene is a member's SCENE_INIT or SCENE_UPDATE: relayed to the others
// as sent, and gathered for the next commit. A viewer's is dropped.
func (r *room) scene(m *member, msg message, data, iv []byte) {
	if !m.mayWrite(r.s.opts.Boards, r.board) {
		_ = m.sock.Emit(evDshError, errorBody(sceneerr.New(sceneerr.PermissionDenied, "you may view this board, not change it: what you drew was not shared or saved")))
		return
	}
	var p scenePayload
	if json.Unmarshal(msg.Payload, &p) != nil {
		return
	}
	_ = m.sock.Broadcast().To(roomName(r.id)).Emit(evClientBroadcast, data, iv)
	r.s.publish(RelayMessage{Room: r.id, Kind: relayScene, Data: data, IV: iv})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	key := m.who.String()
	b := r.pending[key]
	if b == nil {
		b = &batch{who: m.who, ctx: m.ctx, socks: map[string]*member{}, els: map[string]json.RawMessage{},
			heads: map[string]elementHead{}, acks: map[string]map[string]float64{}}
		r.pending[key] = b
	}
	b.socks[m.id] = m
	acks := b.acks[m.id]
	if acks == nil {
		acks = map[string]float64{}
		b.acks[m.id] = acks
	}
	for _, raw := range p.Elements {
		h, ok := headOf(raw)
		if !ok {
			continue
		}
		if v, ok := acks[h.ID]; !ok || h.Version > v {
			acks[h.ID] = h.Version
		}
		// What the members were sent is not what the board holds (a
		// forced save may have put an element back to an older
		// version): every element sent goes to Merge, which keeps
		// those newer than the board's.
		r.see(h)
		if old, ok := b.heads[h.ID]; ok && !newerHead(h, old) {
			continue
		}
		if _, ok := b.els[h.ID]; !ok {
			b.order = append(b.order, h.ID)
		}
		b.els[h.ID], b.heads[h.ID] = raw, h
	}
	if !r.flushing {
		r.flushing = true
		time.AfterFunc(r.s.opts.FlushDelay, r.flush)
	}
}

// see records an element the members have, unless the room had it at
// that version or newer already. r.mu is held.
func (r *room) see(h elementHead) {
	if old, ok := r.seen[h.ID]; !ok || newerHead(h, old) {
		r.seen[h.ID] = h
	}
}

// headOf reads what the room needs of an element (false: no element).
func headOf(raw json.RawMessage) (elementHead, bool) {
	var h elementHead
	if json.Unmarshal(raw, &h) != nil || h.ID == "" {
		return h, false
	}
	return h, true
}

// told records an element of the board as the members now have it (a
// commit's: the board's version, newer or not); it reports false when
// they had that very version already (what they sent, committed).
// r.mu is held.
func (r *room) told(raw json.RawMessage) (elementHead, bool) {
	h, ok := headOf(raw)
	if !ok {
		return h, false
	}
	if old, ok := r.seen[h.ID]; ok && old.Version == h.Version && old.VersionNonce == h.VersionNonce {
		return h, false
	}
	r.seen[h.ID] = h
	return h, true
}

// newerHead is service.Merge's rule: a higher version, or the same with
// a lower versionNonce.
func newerHead(a, b elementHead) bool {
	if a.Version != b.Version {
		return a.Version > b.Version
	}
	return a.VersionNonce < b.VersionNonce
}

// flush commits what each principal drew, one commit each, and tells
// their sockets.
func (r *room) flush() {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	r.mu.Lock()
	batches := r.pending
	r.pending = map[string]*batch{}
	r.flushing = false
	r.mu.Unlock()
	for _, b := range batches {
		rev, sha := int64(0), ""
		if len(b.order) > 0 {
			els := make([]json.RawMessage, 0, len(b.order))
			for _, id := range b.order {
				els = append(els, b.els[id])
			}
			res, err := r.s.opts.Boards.Merge(b.ctx, service.MergeRequest{
				Name: r.board, Elements: els, Actor: store.ActorUI,
				Attribution: store.Attribution{Via: Via}, // the service names who, from b.ctx
			})
			if err != nil {
				r.s.log.Warn("room: what a person drew was not saved", zap.String("board", r.board),
					zap.String("who", b.who.String()), zap.Error(err))
				for _, m := range b.socks {
					_ = m.sock.Emit(evDshError, errorBody(err))
				}
				continue
			}
			if res.Write != nil {
				rev, sha = res.Write.Revision, res.Write.SHA256
			}
		}
		// Each socket hears which of the elements it sent are now safe:
		// stored, or superseded by a newer version someone stored.
		for sid, m := range b.socks {
			_ = m.sock.Emit(evDshSaved, map[string]any{"revision": rev, "sha256": sha, "elements": b.acks[sid]})
		}
	}
}

// Via names a room's commits in the journal.
const Via = "room"

// followBoard is the room's side of a board's commits: each new revision's
// delta goes to the members (less what they have), an agent's shown
// where it worked.
func (r *room) followBoard() {
	defer close(r.done)
	for range r.sub.Ready() {
		changes := r.sub.Take()
		if len(changes) == 0 {
			continue
		}
		r.catchUp(changes[len(changes)-1])
	}
}

// catchUp sends the members what changed since the room's revision.
func (r *room) catchUp(c live.Change) {
	r.mu.Lock()
	from := r.revision
	r.mu.Unlock()
	if c.Revision <= from {
		return
	}
	ctx := context.Background() // the process: every member gets the same
	d, err := r.s.opts.Boards.Delta(ctx, r.board, from)
	if err != nil {
		r.s.log.Warn("room: a commit's delta", zap.String("board", r.board), zap.Error(err))
		return
	}
	// d is shared with every stream of the board: read, never written.
	els, rev := d.Elements, d.Revision
	if d.Resync {
		if rev, els, err = r.read(ctx); err != nil {
			r.s.log.Warn("room: the board after a commit", zap.String("board", r.board), zap.Error(err))
			return
		}
	}
	var send []json.RawMessage
	var touched []elementHead
	r.mu.Lock()
	if rev > r.revision {
		r.revision = rev
	}
	for _, raw := range els {
		raw = r.lift(raw)
		h, ok := r.told(raw)
		if ok {
			send = append(send, raw)
		}
		if ok || h.ID != "" && !d.Resync {
			touched = append(touched, h) // a preview may have sent it: still the agent's work
		}
	}
	r.mu.Unlock()
	if len(send) > 0 {
		r.emitScene(send)
	}
	if len(touched) > 0 && c.UpdatedBy == string(store.ActorAgent) && c.Revision == rev {
		r.agentAt(r.agentName(ctx, c), touched)
	}
}

// agentName is how the room names the agent of a commit: as dsh names a
// bot's socket, "<bot> (for <person>)", from the commit's journal entry;
// else the writer's name.
func (r *room) agentName(ctx context.Context, c live.Change) string {
	page, err := r.s.opts.Boards.Log(ctx, service.LogRequest{Name: r.board, MinRevision: c.Revision, MaxRevision: c.Revision,
		Limit: 1, IDs: service.LogIDsNone})
	if err == nil && len(page.Entries) == 1 {
		e := page.Entries[0]
		who := identity.Principal{Name: e.Bot, PersonName: e.Person}
		if e.Bot != "" {
			who.Grant = identity.NewGrant(map[string]any{})
			return who.Display()
		}
		if e.Name != "" {
			return e.Name
		}
	}
	if c.UpdatedByName != "" {
		return c.UpdatedByName
	}
	return "an agent"
}

// agentAt shows an agent as a collaborator: in the room's list while it
// works, its pointer on what it changed, those elements selected.
func (r *room) agentAt(name string, touched []elementHead) {
	sum := sha256.Sum256([]byte(name))
	id := "agent-" + hex.EncodeToString(sum[:6])
	selected := map[string]bool{}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, h := range touched {
		if h.IsDeleted || h.ContainerID != nil && *h.ContainerID != "" {
			continue
		}
		selected[h.ID] = true
		minX, minY = math.Min(minX, h.X), math.Min(minY, h.Y)
		maxX, maxY = math.Max(maxX, h.X+h.Width), math.Max(maxY, h.Y+h.Height)
	}
	if len(selected) == 0 {
		return
	}
	r.mu.Lock()
	_, known := r.agents[id]
	r.agents[id] = &agent{id: id, name: name, until: time.Now().Add(r.s.opts.AgentLinger)}
	if r.agentTime == nil && !r.closed {
		r.agentTime = time.AfterFunc(r.s.opts.AgentLinger, r.expireAgents)
	}
	r.mu.Unlock()
	if !known {
		r.usersChanged()
	}
	payload := map[string]any{
		"socketId": id, "username": name, "button": "up", "selectedElementIds": selected,
		"pointer": map[string]any{"x": (minX + maxX) / 2, "y": (minY + maxY) / 2, "tool": "pointer"},
	}
	data, iv := r.seal(message{Type: msgMouse, Payload: mustJSON(payload)})
	_ = r.s.io.To(roomName(r.id)).Emit(evClientBroadcast, data, iv)
}

// expireAgents drops agents that have not committed for AgentLinger.
func (r *room) expireAgents() {
	r.mu.Lock()
	now := time.Now()
	gone := false
	next := time.Duration(0)
	for id, a := range r.agents {
		if !now.Before(a.until) {
			delete(r.agents, id)
			gone = true
		} else if d := a.until.Sub(now); next == 0 || d < next {
			next = d
		}
	}
	r.agentTime = nil
	if next > 0 && !r.closed {
		r.agentTime = time.AfterFunc(next, r.expireAgents)
	}
	r.mu.Unlock()
	if gone {
		r.usersChanged()
	}
}

// presence relays a member's pointer, idle state or viewport, with its
// socket id and name as dsh knows them (a client cannot pose as another).
func (r *room) presence(m *member, to string, msg message, volatile bool) {
	var p map[string]any
	if json.Unmarshal(msg.Payload, &p) != nil || p == nil {
		return
	}
	p["socketId"] = m.id
	p["username"] = m.name
	data, iv := r.seal(message{Type: msg.Type, Payload: mustJSON(p)})
	op := m.sock.Broadcast().To(roomName(to))
	if volatile {
		op = op.Volatile()
	}
	_ = op.Emit(evClientBroadcast, data, iv)
	r.s.publish(RelayMessage{Room: r.id, Kind: relayPresence, To: to, Data: data, IV: iv})
}

// follow starts or stops m following the member of socket id target,
// on this node or another.
func (r *room) follow(m *member, target string, on bool) {
	r.mu.Lock()
	_, here := r.members[target]
	if (!here && !r.isRemote(target)) || target == m.id {
		r.mu.Unlock()
		return
	}
	set := r.followers[target]
	if set == nil {
		set = map[string]bool{}
		r.followers[target] = set
	}
	if on {
		set[m.id] = true
	} else {
		delete(set, m.id)
	}
	mine := ids(set)
	r.mu.Unlock()
	if on {
		m.sock.Join(roomName(followRoom(target)))
	} else {
		m.sock.Leave(roomName(followRoom(target)))
	}
	if here {
		r.followersChanged(target)
	} else {
		r.s.publish(RelayMessage{Room: r.id, Kind: relayFollow, To: target, Members: mine})
	}
}

// isRemote reports whether a socket id is another node's member. r.mu
// is held.
func (r *room) isRemote(id string) bool {
	for _, rl := range r.remote {
		if slices.Contains(rl.ids, id) && time.Since(rl.at) < remoteMembersTTL {
			return true
		}
	}
	return false
}

// followersChanged tells a member who follows it, on every node.
func (r *room) followersChanged(target string) {
	r.mu.Lock()
	t := r.members[target]
	set := maps.Clone(r.followers[target])
	if set == nil {
		set = map[string]bool{}
	}
	for _, fs := range r.remoteFol[target] {
		for _, id := range fs {
			set[id] = true
		}
	}
	list := ids(set)
	r.mu.Unlock()
	if t != nil {
		_ = t.sock.Emit(evFollowRoomChange, list)
	}
}

// publishMembers tells the other nodes this node's members of the room.
func (r *room) publishMembers() {
	if r.s.opts.Relay == nil {
		return
	}
	r.mu.Lock()
	list := make([]string, 0, len(r.members))
	for id := range r.members {
		list = append(list, id)
	}
	r.mu.Unlock()
	slices.Sort(list)
	r.s.publish(RelayMessage{Room: r.id, Kind: relayMembers, Members: list})
}

// expireRemote forgets other nodes' lists not refreshed in time.
func (r *room) expireRemote() {
	r.mu.Lock()
	gone := false
	for node, rl := range r.remote {
		if time.Since(rl.at) >= remoteMembersTTL {
			delete(r.remote, node)
			gone = true
		}
	}
	r.mu.Unlock()
	if gone {
		r.usersChanged()
	}
}

// relayed is what another node's part of the room published.
func (r *room) relayed(m RelayMessage) {
	switch m.Kind {
	case relayScene:
		plain, err := r.key.Open(m.Data, m.IV)
		if err != nil {
			return
		}
		var msg message
		var p scenePayload
		if json.Unmarshal(plain, &msg) != nil || json.Unmarshal(msg.Payload, &p) != nil {
			return
		}
		r.mu.Lock()
		for _, raw := range p.Elements {
			if h, ok := headOf(raw); ok {
				r.see(h) // the other node commits it; its delta is not sent again here
			}
		}
		r.mu.Unlock()
		_ = r.s.io.To(roomName(r.id)).Emit(evClientBroadcast, m.Data, m.IV)
	case relayPresence:
		if m.To != r.id && !strings.HasPrefix(m.To, "follow@") {
			return
		}
		_ = r.s.io.To(roomName(m.To)).Volatile().Emit(evClientBroadcast, m.Data, m.IV)
	case relayMembers:
		r.mu.Lock()
		r.remote[m.Node] = remoteList{ids: m.Members, at: time.Now()}
		r.mu.Unlock()
		r.usersChanged()
	case relayHello:
		r.publishMembers()
	case relayFollow:
		r.mu.Lock()
		fs := r.remoteFol[m.To]
		if fs == nil {
			fs = map[string][]string{}
			r.remoteFol[m.To] = fs
		}
		fs[m.Node] = m.Members
		_, here := r.members[m.To]
		r.mu.Unlock()
		if here {
			r.followersChanged(m.To)
		}
	}
}

// seal encrypts a message with the room's key.
func (r *room) seal(msg message) (data, iv []byte) {
	return r.key.Seal(mustJSON(msg))
}

// roleNow is the member's last known role.
func (m *member) roleNow() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.role
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func orEmpty(els []json.RawMessage) []json.RawMessage {
	if els == nil {
		return []json.RawMessage{}
	}
	return els
}

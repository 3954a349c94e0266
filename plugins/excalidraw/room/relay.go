package room

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"time"

	"go.uber.org/zap"
)

// Relay carries what happens in a room to the same room on the other
// nodes of a shared database, so people on different nodes see each
// other live: their strokes (the commit follows through the database as
// any commit does), pointers, idle states and viewports, and who is in
// the room. Messages are small and may be lost (a notification while a
// node reconnects): a stroke then arrives with its commit, a pointer
// with the next move, the room's members with the next refresh.
type Relay interface {
	// Publish sends a message to the other nodes; a message over the
	// relay's size is not sent (false).
	Publish(ctx context.Context, m RelayMessage) (bool, error)
}

// RelayMessage is one message between nodes.
type RelayMessage struct {
	Node string `json:"n"`           // the sending node
	Room string `json:"r"`           // the room id
	Kind string `json:"k"`           // relayScene, relayPresence, relayMembers, relayHello
	To   string `json:"t,omitempty"` // presence: the room or follow room it goes to
	Data []byte `json:"d,omitempty"` // sealed with the room's key
	IV   []byte `json:"i,omitempty"`
	// Members are the sender's sockets in the room (relayMembers).
	Members []string `json:"m,omitempty"`
}

const (
	relayScene    = "scene"
	relayPresence = "presence"
	relayMembers  = "members"
	relayHello    = "hello"  // a room opened on a node: tell it who is here
	relayFollow   = "follow" // the sender's followers (Members) of a socket (To) on another node
)

// remoteMembersTTL is how long another node's list of a room's members
// holds without a refresh (a node that died takes its sockets with it);
// membersRefresh is how often a node repeats its own.
const (
	remoteMembersTTL = 45 * time.Second
	membersRefresh   = 15 * time.Second
)

// newNodeID names this process among the nodes.
func newNodeID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Relayed takes a message another node published (the relay's listener
// calls it). Messages for rooms not open here, and this node's own, are
// dropped.
func (s *Server) Relayed(payload []byte) {
	var m RelayMessage
	if json.Unmarshal(payload, &m) != nil || m.Node == s.node {
		return
	}
	s.mu.Lock()
	r := s.rooms[m.Room]
	if s.closed {
		r = nil
	}
	s.mu.Unlock()
	if r == nil {
		return
	}
	r.relayed(m)
}

// publish sends m to the other nodes, if there are any.
func (s *Server) publish(m RelayMessage) {
	if s.opts.Relay == nil {
		return
	}
	m.Node = s.node
	if _, err := s.opts.Relay.Publish(context.Background(), m); err != nil {
		s.log.Debug("room: relay to other nodes", zap.Error(err))
	}
}

// refreshMembers repeats this node's members of every open room to the
// other nodes, and forgets theirs not repeated in time.
func (s *Server) refreshMembers() {
	s.mu.Lock()
	rooms := slices.Collect(maps.Values(s.rooms))
	s.mu.Unlock()
	for _, r := range rooms {
		r.publishMembers()
		r.expireRemote()
	}
}

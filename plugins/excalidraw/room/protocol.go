package room

import "encoding/json"

// The socket.io events of Excalidraw's collaboration (excalidraw-room and
// the app's Portal speak them), and dsh's own, which a stock client
// ignores.
const (
	// Server to client.
	evInitRoom         = "init-room"        // on connection: join your room now
	evFirstInRoom      = "first-in-room"    // nobody (and nothing) here yet
	evRoomUserChange   = "room-user-change" // the socket ids in the room
	evClientBroadcast  = "client-broadcast" // an encrypted message: (data, iv)
	evFollowRoomChange = "user-follow-room-change"

	// Client to server.
	evJoinRoom        = "join-room"                 // (roomId)
	evServerBroadcast = "server-broadcast"          // (roomId, data, iv): relayed, kept
	evServerVolatile  = "server-volatile-broadcast" // (roomId, data, iv): relayed if it can be
	evUserFollow      = "user-follow"               // ({userToFollow: {socketId, username}, action})

	// dsh's own (server to client).
	evDshRoom  = "dsh-room"  // after join: {board, revision, name, role}
	evDshSaved = "dsh-saved" // a commit holding elements this socket sent: {revision, taken}
	evDshError = "dsh-error" // {code, message}: the socket is refused or a write failed
)

// The types of the encrypted messages.
const (
	msgSceneInit   = "SCENE_INIT"
	msgSceneUpdate = "SCENE_UPDATE"
	msgMouse       = "MOUSE_LOCATION"
	msgIdle        = "IDLE_STATUS"
	msgBounds      = "USER_VISIBLE_SCENE_BOUNDS"
)

// message is an encrypted message once opened.
type message struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// scenePayload is SCENE_INIT's and SCENE_UPDATE's.
type scenePayload struct {
	Elements []json.RawMessage `json:"elements"`
}

// followPayload is user-follow's.
type followPayload struct {
	UserToFollow struct {
		SocketID string `json:"socketId"`
		Username string `json:"username"`
	} `json:"userToFollow"`
	Action string `json:"action"` // FOLLOW or UNFOLLOW
}

// followRoom is the room a socket's followers are in: its viewport
// (USER_VISIBLE_SCENE_BOUNDS) is sent there.
func followRoom(socketID string) string { return "follow@" + socketID }

// elementHead is what the room reads of an element.
type elementHead struct {
	ID           string  `json:"id"`
	Version      float64 `json:"version"`
	VersionNonce float64 `json:"versionNonce"`
	IsDeleted    bool    `json:"isDeleted"`
	X            float64 `json:"x"`
	Y            float64 `json:"y"`
	Width        float64 `json:"width"`
	Height       float64 `json:"height"`
	ContainerID  *string `json:"containerId"`
}

// Package room is every board's live room: people's editors, stock
// Excalidraw clients and agents' commits meet there, in Excalidraw's
// collaboration protocol (socket.io events, AES-GCM messages with the
// room key a room link carries).
//
// dsh is in every room it hosts. It holds the board and the room's key,
// so a socket that joins gets the board from dsh (SCENE_INIT, as a peer
// sends it); what a member draws is relayed to the others as sent and
// committed to the board (service.Merge: newer elements only, named
// after who drew it, a few commits a second at most per board); a
// commit from anywhere else (an agent, another process or node) reaches
// the members as a SCENE_UPDATE of what they do not have yet, and an
// agent's shows it as a collaborator with what it changed selected.
// Pointers, idle states and viewports are relayed with the sender's
// socket id and dsh's name for it, never journaled. Who a socket is
// comes from its handshake (a session, a host or connect token); a
// viewer's scene messages are dropped, a socket that may not read the
// board cannot join.
//
//	connect ─► init-room ─► join-room(id) ─► SCENE_INIT, dsh-room,
//	room-user-change ─► server-broadcast ⇄ client-broadcast … ─► leave
//	(the last one out: what the room holds is committed, the room closes)
package room

// Package roomcheck checks dsh's live rooms with a client written from
// Excalidraw's collaboration protocol (client.mjs: socket.io-client as
// excalidraw.com uses it, WebCrypto's AES-GCM), as a stock Excalidraw
// client with dsh as its room server would meet them.
package roomcheck

// Package oauth is the MCP authorization server for remote agents: OAuth
// 2.1 as the MCP authorization spec describes it, whose access tokens are
// connect tokens, so they are listed and revoked like any other.
//
//	client ─► /mcp without a token ─► 401, WWW-Authenticate: Bearer resource_metadata=…
//	       ─► GET /.well-known/oauth-protected-resource/mcp   (RFC 9728: resource, authorization server)
//	       ─► GET /.well-known/oauth-authorization-server     (RFC 8414: endpoints, S256, public clients)
//	       ─► POST /oauth/register                            (RFC 7591: redirect URIs, a client id)
//	person ─► GET /oauth/authorize?…&code_challenge=…          (signed in: the consent page; else the login page)
//	       ─► POST /oauth/authorize (boards, role)            ─► redirect_uri?code=…&state=…
//	client ─► POST /oauth/token (code, code_verifier)          ─► a connect token for those boards
//	       ─► /mcp with it, as that person's bot
//
// The protocol (request validation, PKCE, one-time codes, token
// responses) is go-oauth2/oauth2's; this package supplies its client
// store (registered clients in the data directory, redirect URIs matched
// exactly; registration limited per client address, clients that never
// got a token expiring, and the cap on them evicting the flooding
// network's oldest instead of refusing: see clients), its code store (in memory, one exchange each), the consent
// page and the access-token generator that mints the connect token. With
// a backend several nodes share (Options.State), the clients and the
// codes are its documents, so any node serves any step.
package oauth

// Package oauthcheck runs the MCP TypeScript SDK's OAuth client (Node,
// pinned in package-lock.json) against a real host: the flow a remote
// connector goes through, with the consent page in headless Chromium.
package oauthcheck

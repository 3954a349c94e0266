// Package manynodes holds the tests of several dsh nodes on one
// PostgreSQL database: real `dsh serve` processes on their own ports,
// sharing a throwaway database (internal/testkit/pgtest), with writes through
// both, a node killed, the database restarted, a round-robin proxy in
// front and an editor in headless Chromium. It has no code of its own.
package manynodes

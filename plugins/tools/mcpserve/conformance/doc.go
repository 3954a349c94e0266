// Package conformance runs the public MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in package-lock.json) against
// a test instance of `dsh serve`; see conformance_test.go and
// expected-failures.yaml for the scenarios that do not apply and why.
//
// The fixture subpackage holds the suite's fixture tools, compiled into dsh
// only with the `conformance` build tag.
package conformance

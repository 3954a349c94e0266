#!/bin/sh
# Installs the MCP conformance suite pinned in package-lock.json, which
# conformance_test.go runs against a test instance of `dsh serve`.
# Needs Node 20+ and the npm registry.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund

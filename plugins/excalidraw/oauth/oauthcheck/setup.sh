#!/bin/sh
# Installs the MCP TypeScript SDK pinned in package-lock.json, whose OAuth
# client oauthcheck_test.go drives. Needs Node 20+ and the npm registry.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund

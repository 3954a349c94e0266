#!/bin/sh
# Installs socket.io-client pinned in package-lock.json (the version
# excalidraw.com's collaboration uses), which client.mjs runs on. Needs
# Node 20+ and the npm registry.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund

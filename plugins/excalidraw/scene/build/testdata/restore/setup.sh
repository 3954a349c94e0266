#!/bin/sh
# Installs the Node packages pinned in package-lock.json that the restore
# fidelity test (../../restore_fidelity_test.go) runs: the real
# @excalidraw/excalidraw 0.18.1, esbuild to bundle it for Node, and jsdom
# for its browser-only module code. Needs Node 20+ and the npm registry.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund

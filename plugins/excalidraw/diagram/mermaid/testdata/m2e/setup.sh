#!/bin/sh
# Installs the Node packages pinned in package-lock.json that
# ../../compare_test.go runs: @excalidraw/mermaid-to-excalidraw 3.6.0 (with
# Pele, the Mermaid parser and layout it uses) and esbuild, which bundles
# entry.js with it into dist/m2e.js (npm run build; make node-deps does
# both). Needs Node 20+ and the npm registry.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund

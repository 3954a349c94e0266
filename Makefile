# The two commands the README promises:
#   make run    run the host with the example config
#   make test   run every test (what CI runs)
# and the one that puts `dsh` on your PATH:
#   make install   (PREFIX=/usr/local by default)
GO       ?= go
CONFIG   ?= config.example.yaml
FUZZTIME ?= 5s
PREFIX   ?= /usr/local

.PHONY: run test test-corpus vet bench bench-mcp build install deps fuzz node-deps editor browser postgres nginx prometheus readme-check

# Node packages some tests run against (the real Excalidraw 0.18.1),
# installed from the lock file when it changes.
RESTORE := plugins/excalidraw/scene/build/testdata/restore
$(RESTORE)/node_modules/.installed: $(RESTORE)/package-lock.json
	bash $(RESTORE)/setup.sh
	touch $@

# The public MCP conformance suite, run against a test `dsh serve`.
CONFORMANCE := plugins/tools/mcpserve/conformance
$(CONFORMANCE)/node_modules/.installed: $(CONFORMANCE)/package-lock.json
	bash $(CONFORMANCE)/setup.sh
	touch $@

# The MCP TypeScript SDK's OAuth client, run against a test host.
OAUTHCHECK := plugins/excalidraw/oauth/oauthcheck
$(OAUTHCHECK)/node_modules/.installed: $(OAUTHCHECK)/package-lock.json
	bash $(OAUTHCHECK)/setup.sh
	touch $@

# A room client written from Excalidraw's collaboration protocol, on the
# socket.io client excalidraw.com uses.
ROOMCHECK := plugins/excalidraw/room/roomcheck
$(ROOMCHECK)/node_modules/.installed: $(ROOMCHECK)/package-lock.json
	bash $(ROOMCHECK)/setup.sh
	touch $@

# The official Mermaid-to-Excalidraw converter (@excalidraw/mermaid-to-excalidraw
# 3.6.0), bundled for headless Chromium, which the Mermaid parser is
# compared with (diagram/mermaid/compare_test.go).
M2E := plugins/excalidraw/diagram/mermaid/testdata/m2e
$(M2E)/node_modules/.installed: $(M2E)/package-lock.json
	bash $(M2E)/setup.sh
	touch $@
$(M2E)/dist/m2e.js: $(M2E)/node_modules/.installed $(M2E)/entry.js $(M2E)/build.mjs
	cd $(M2E) && npm run build --silent

node-deps: $(RESTORE)/node_modules/.installed $(CONFORMANCE)/node_modules/.installed $(OAUTHCHECK)/node_modules/.installed \
  $(ROOMCHECK)/node_modules/.installed \
  $(M2E)/dist/m2e.js

# The browser editor: React + Vite + Excalidraw 0.18.1 from the npm registry,
# built into plugins/excalidraw/editor/dist/app, which dsh embeds, with a
# brotli and a gzip copy beside each compressible file (web/compress.mjs)
# that dsh sends to browsers accepting them.
EDITOR     := plugins/excalidraw/editor
EDITOR_SRC := $(wildcard $(EDITOR)/web/src/*) $(EDITOR)/web/index.html $(EDITOR)/web/vite.config.js $(EDITOR)/web/copy-fonts.mjs \
              $(EDITOR)/web/compress.mjs $(EDITOR)/web/package.json
$(EDITOR)/web/node_modules/.installed: $(EDITOR)/web/package-lock.json
	cd $(EDITOR)/web && npm ci --no-audit --no-fund
	touch $@
$(EDITOR)/dist/app/index.html: $(EDITOR)/web/node_modules/.installed $(EDITOR_SRC)
	cd $(EDITOR)/web && npm run build

editor: $(EDITOR)/dist/app/index.html

deps:
	$(GO) mod download

build: editor
	$(GO) build -o bin/dsh ./cmd/dsh

# The binary carries the editor, so other commands (dsh login, dsh token,
# dsh mcp) work from bin/dsh, or from PATH after make install.
run: build
	bin/dsh serve --config $(CONFIG)

install: build
	@mkdir -p "$(PREFIX)/bin" 2>/dev/null || true
	@install -m 0755 bin/dsh "$(PREFIX)/bin/dsh" 2>/dev/null || { \
	  echo "make install: cannot write $(PREFIX)/bin; run it with sudo, or choose another prefix on your PATH: make install PREFIX=\$$HOME/.local" >&2; exit 1; }
	@echo "installed $(PREFIX)/bin/dsh"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH" >&2;; esac

vet:
	$(GO) vet ./...

# The browser tests drive Debian's Chromium (no tool downloads a browser).
# make test installs it with apt when it can, and stops with what to do
# when it cannot; it never lets the browser tests skip.
CHROMIUM ?= $(firstword $(wildcard /usr/bin/chromium /usr/bin/chromium-browser))
APT_GET  ?= $(shell command -v apt-get 2>/dev/null)
# PostgreSQL for the store tests: internal/testkit/pgtest starts a throwaway
# cluster of its own (as the postgres user when run as root) unless
# DSH_PG_DSN names a server; this only makes sure the programs are there.
postgres:
	@if [ -n "$$DSH_PG_DSN" ] || command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi; \
	if [ -n "$(APT_GET)" ] && [ "$$(id -u)" = 0 ]; then \
	  echo "make test: installing Debian's postgresql for the store tests"; \
	  $(APT_GET) update -qq && $(APT_GET) install -y -qq postgresql >/dev/null && exit 0; \
	fi; \
	echo "make test: the store tests need PostgreSQL (initdb), which is not installed." >&2; \
	echo "  Install it (Debian/Ubuntu: sudo apt-get install postgresql), or set DSH_PG_DSN to a server." >&2; \
	exit 2

# nginx for deploy/'s tests (deploy/nginx.conf in front of real nodes).
nginx:
	@if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi; \
	if [ -n "$(APT_GET)" ] && [ "$$(id -u)" = 0 ]; then \
	  echo "make test: installing Debian's nginx for deploy/'s tests"; \
	  $(APT_GET) update -qq && $(APT_GET) install -y -qq nginx >/dev/null && exit 0; \
	fi; \
	echo "make test: deploy/'s tests need nginx, which is not installed (Debian/Ubuntu: sudo apt-get install nginx)." >&2; \
	exit 2

# Prometheus and promtool for deploy/'s tests (prometheus.yml and
# alerts.yml checked and run against a real node).
prometheus:
	@if command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1; then exit 0; fi; \
	if [ -n "$(APT_GET)" ] && [ "$$(id -u)" = 0 ]; then \
	  echo "make test: installing Debian's prometheus for deploy/'s tests"; \
	  $(APT_GET) update -qq && $(APT_GET) install -y -qq --no-install-recommends prometheus >/dev/null && exit 0; \
	fi; \
	echo "make test: deploy/'s tests need prometheus and promtool, which are not installed (Debian/Ubuntu: sudo apt-get install prometheus)." >&2; \
	exit 2

browser:
	@if [ -n "$(CHROMIUM)" ] && [ -x "$(CHROMIUM)" ]; then exit 0; fi; \
	if [ -n "$(APT_GET)" ] && [ "$$(id -u)" = 0 ]; then \
	  echo "make test: installing Debian's chromium for the browser tests"; \
	  $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium fonts-liberation fonts-dejavu-core >/dev/null && exit 0; \
	fi; \
	echo "make test: the browser tests need Chromium, which is not installed." >&2; \
	echo "  Install it (Debian/Ubuntu: sudo apt-get install chromium), or point CHROMIUM= (and DSH_CHROMIUM=) at one." >&2; \
	exit 2

# DSH_REQUIRE_ALL=1: a test whose prerequisite is missing fails instead of
# skipping (internal/testkit/testenv), since everything above installed them.
# The second pass runs, without the race detector, what measures pictures
# and time rather than concurrency: dsh's pictures against Excalidraw's own
# in headless Chromium, their speed, and the whole font set's decoding
# (verbose, so the figures are in the log).
test: deps node-deps editor browser postgres nginx prometheus vet
	DSH_REQUIRE_ALL=1 DSH_CHROMIUM=$(CHROMIUM) $(GO) test -race -count=1 -timeout 15m ./...
	DSH_REQUIRE_ALL=1 DSH_CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -timeout 10m -v \
	  -run 'AgainstExcalidraw|EditorFonts|Tdewolff|DecodeStructure' ./plugins/excalidraw/render/ ./plugins/excalidraw/render/fonts/woff2/

# make test runs the corpus tests on the generated scenes committed in
# internal/testcorpus/testdata. This runs them again on the shared corpus
# of real drawings (DSH_CORPUS; CORPUS=dir points elsewhere), with the
# fidelity comparison in a second pass without the race detector. A test
# that reads testcorpus.Files belongs in CORPUS_TESTS.
CORPUS       ?= ../shared/corpus
CORPUS_PKGS  := ./internal/testcorpus/ ./plugins/excalidraw/scene/... ./plugins/excalidraw/query/ ./plugins/excalidraw/lint/ \
                ./plugins/excalidraw/service/ ./plugins/excalidraw/render/ ./plugins/excalidraw/render/freehand/
CORPUS_TESTS := Corpus|^TestSplitElementsMatchesParse$$|^TestMarshalSplitIsSplitDocument$$|^TestDeltaIsNeighboursRunDiff$$|^TestKeptModelsAreFreshReads$$|^TestForkedWritesEqualFullWrites$$|^TestAgainstReference$$|^TestSharedOverride$$|^(FuzzParse|FuzzValidate|FuzzNormalize)$$
test-corpus: deps node-deps editor browser
	@if ! ls "$(CORPUS)"/*.excalidraw >/dev/null 2>&1; then \
	  echo "make test-corpus: no .excalidraw files in $(CORPUS); clone the shared corpus there, or point CORPUS= at it" >&2; exit 2; fi
	DSH_CORPUS=$(abspath $(CORPUS)) DSH_REQUIRE_ALL=1 DSH_CHROMIUM=$(CHROMIUM) $(GO) test -race -count=1 -timeout 15m \
	  -run '$(CORPUS_TESTS)' $(CORPUS_PKGS)
	DSH_CORPUS=$(abspath $(CORPUS)) DSH_REQUIRE_ALL=1 DSH_CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -timeout 10m -v \
	  -run 'FidelityAgainstExcalidraw' ./plugins/excalidraw/render/

# Runs the README's commands from a clean clone (CI does this too).
readme-check:
	bash .ci/readme-check

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Benchmark only, not part of make test or .ci/run: dsh mcp against the
# in-memory peer mcp-excalidraw-server 2.0.0 (its lock file pins it), both
# over stdio from one MCP client script; see bench/mcp/README.md.
# BENCH_MCP_ARGS passes options on, e.g. BENCH_MCP_ARGS="--rounds 3".
BENCH_MCP ?= bench/mcp
BENCH_MCP_ARGS ?=
$(BENCH_MCP)/node_modules/.installed: $(BENCH_MCP)/package-lock.json
	cd $(BENCH_MCP) && npm ci --no-audit --no-fund
	touch $@
bench-mcp: $(BENCH_MCP)/node_modules/.installed
	$(GO) build -o bin/dsh ./cmd/dsh
	cd $(BENCH_MCP) && node compare.mjs --dsh ../../bin/dsh $(BENCH_MCP_ARGS)

fuzz:
	FUZZTIME=$(FUZZTIME) bash .ci/fuzz

# Not part of make test or .ci/run: the tests that lean on processes,
# time, PostgreSQL or a browser, each run 20 times under -race beside two
# CPU-burning processes (started by .ci/stress, always stopped), then
# runs passed/failed per package (.ci/stress-tally.go); it fails if any
# run fails. The set (.ci/stress's table): all of pgstore, pgstate, pgdb,
# database (its tracer on a real server),
# live (the hub and the directory watcher), manynodes (nodes, kill -9,
# database restarts, Chromium, a room across nodes), roomcheck (the live
# rooms through Node clients), cmd/dsh (the binary as a process),
# internal/migrate (documents through a database), the admin API's and
# hosttest's real hosts; deploy/'s nodes behind nginx;
# the editor's Chromium tests 5 times each (20 would take over an hour
# on 2 cores); webserver's shutdown, unmount, drain, stream and start page tests;
# httpapi's event streams and database outage; mcpserve's close, session
# caps, streams, stdio and round-robin; the Excalidraw plugin's hosts
# (the access matrix, agent session, lifecycle, a live config reload, the
# start page through an unload, traces and metrics on PostgreSQL), the
# store's lock waits, and
# the root package's (lifecycle, reloads, admission, login, an
# unreachable database).
# Narrow it: STRESS_PKGS='./plugins/excalidraw/manynodes ./cmd/dsh' (packages),
# STRESS_RUN='TestDatabaseRestart$' (instead of the table's -run),
# STRESS_COUNT=5 (for every package), STRESS_HOGS=0.
STRESS_PKGS  ?=
STRESS_RUN   ?=
STRESS_COUNT ?=
.PHONY: stress
stress: node-deps editor browser postgres
	STRESS_PKGS="$(STRESS_PKGS)" STRESS_RUN='$(value STRESS_RUN)' STRESS_COUNT="$(STRESS_COUNT)" GO=$(GO) \
	  DSH_CHROMIUM=$(CHROMIUM) bash .ci/stress

# The two commands the README promises:
#   make run    run the host with the example config
#   make test   run every test (what CI runs)
GO       ?= go
CONFIG   ?= config.example.yaml
FUZZTIME ?= 5s

.PHONY: run test vet bench build deps fuzz node-deps editor

# Node packages some tests run against (the real Excalidraw 0.18.1),
# installed from the lock file when it changes.
RESTORE := plugins/excalidraw/scene/build/testdata/restore
$(RESTORE)/node_modules/.installed: $(RESTORE)/package-lock.json
	bash $(RESTORE)/setup.sh
	touch $@

# The public MCP conformance suite, run against a test `dsh serve`.
CONFORMANCE := internal/conformance
$(CONFORMANCE)/node_modules/.installed: $(CONFORMANCE)/package-lock.json
	bash $(CONFORMANCE)/setup.sh
	touch $@

node-deps: $(RESTORE)/node_modules/.installed $(CONFORMANCE)/node_modules/.installed

# The browser editor: React + Vite + Excalidraw 0.18.1 from the npm registry,
# built into plugins/excalidraw/editor/dist/app, which dsh embeds.
EDITOR     := plugins/excalidraw/editor
EDITOR_SRC := $(wildcard $(EDITOR)/web/src/*) $(EDITOR)/web/index.html $(EDITOR)/web/vite.config.js $(EDITOR)/web/copy-fonts.mjs
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

run: editor
	$(GO) run ./cmd/dsh serve --config $(CONFIG)

vet:
	$(GO) vet ./...

test: deps node-deps editor vet
	$(GO) test -race -count=1 -timeout 15m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	FUZZTIME=$(FUZZTIME) bash .ci/fuzz

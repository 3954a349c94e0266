# The two commands the README promises:
#   make run    run the host with the example config
#   make test   run every test (what CI runs)
GO       ?= go
CONFIG   ?= config.example.yaml
FUZZTIME ?= 5s

.PHONY: run test vet bench build deps fuzz node-deps

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

deps:
	$(GO) mod download

build:
	$(GO) build -o bin/dsh ./cmd/dsh

run:
	$(GO) run ./cmd/dsh serve --config $(CONFIG)

vet:
	$(GO) vet ./...

test: deps node-deps vet
	$(GO) test -race -count=1 -timeout 15m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	FUZZTIME=$(FUZZTIME) bash .ci/fuzz

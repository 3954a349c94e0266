# The two commands the README promises:
#   make run    run the host with the example config
#   make test   run every test (what CI runs)
GO       ?= go
CONFIG   ?= config.example.yaml
FUZZTIME ?= 5s

.PHONY: run test vet bench build deps fuzz

deps:
	$(GO) mod download

build:
	$(GO) build -o bin/dsh ./cmd/dsh

run:
	$(GO) run ./cmd/dsh serve --config $(CONFIG)

vet:
	$(GO) vet ./...

test: deps vet
	$(GO) test -race -count=1 -timeout 15m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	FUZZTIME=$(FUZZTIME) bash .ci/fuzz

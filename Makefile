# Frontdoor: `make run` serves http://127.0.0.1:8080/account/; `make test` runs every test.
.PHONY: run test deps build build-release unit e2e clean

PORT ?= 8080
RUN_DIR := $(CURDIR)/run
VAR_DIR := $(CURDIR)/var

deps:
	@scripts/install-deps

build: deps
	swift build

build-release: deps
	swift build -c release

# Starts frontdoor (release build) and a local nginx on 127.0.0.1:$(PORT); Ctrl-C stops both.
run: build-release
	@scripts/run-dev $(PORT)

unit: build
	swift test

e2e: build
	@scripts/install-deps --with-venv
	FRONTDOOR_BIN=$(CURDIR)/.build/debug/frontdoor .venv/bin/pytest -q Tests/e2e

test: unit e2e

clean:
	rm -rf $(RUN_DIR) .venv

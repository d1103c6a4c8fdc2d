# Frontdoor: `make run` serves http://127.0.0.1:8080/account/; `make test` runs every test.
# Both first install what is missing (scripts/install-deps: Debian packages; .venv for the e2e tests).
.PHONY: run test deps build build-release unit e2e bench clean

PORT ?= 8080
PYTEST_ARGS ?=

deps:
	@scripts/install-deps

build: deps
	swift build

build-release: deps
	swift build -c release

# frontdoor (release build) on var/frontdoor.sock + nginx on 127.0.0.1:$(PORT), config in run/; Ctrl-C stops both.
run: build-release
	@scripts/run-dev $(PORT)

unit: build
	swift test

# pytest through a real nginx and the debug binary (Tests/e2e; each session on its own free ports and temp folder).
e2e: build
	@scripts/install-deps --with-venv
	FRONTDOOR_BIN=$(CURDIR)/.build/debug/frontdoor .venv/bin/pytest -q -ra Tests/e2e $(PYTEST_ARGS)

test: unit e2e

# The load benchmark of issue 6 (bench/README.md): frontdoor vs a libfcgi C responder and the raw argon2id rate.
BENCH_ARGS ?=
bench: build-release
	@scripts/install-deps --with-venv
	bench/run $(BENCH_ARGS)

clean:
	rm -rf run .venv

# Frontdoor: `make run` serves http://localhost:8080/account/; `make test` runs every test.
# Both first install what is missing (scripts/install-deps: Debian packages; .venv for the e2e tests).
.PHONY: run test deps build build-release unit e2e e2e-postgres bench clean tsan tsan-repeat fuzz-smoke fuzz http-fuzz faults soak \
        dist deb deb-check runtime-libraries

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

# The unit suites twice: on SQLite, then on PostgreSQL (a private cluster from scripts/pg-cluster, stopped after).
# A run takes a minute or two; scripts/unit-watchdog stops one still going after UNIT_LIMIT seconds and names the
# tests that never finished, with the test process's thread stacks.
UNIT_LIMIT ?= 900
unit: build
	swift build --build-tests
	scripts/unit-watchdog $(UNIT_LIMIT) swift test --skip-build
	@pg=$$(mktemp -d) && url=$$(scripts/pg-cluster start $$pg) && \
	  { FRONTDOOR_TEST_BACKEND=postgresql FRONTDOOR_TEST_POSTGRES="$$url" scripts/unit-watchdog $(UNIT_LIMIT) swift test --skip-build; rc=$$?; \
	    scripts/pg-cluster stop $$pg; rm -rf $$pg; exit $$rc; }

# pytest through a real nginx and the debug binary (Tests/e2e; each session on its own free ports and temp folder).
e2e: build
	@scripts/install-deps --with-venv
	FRONTDOOR_BIN=$(CURDIR)/.build/debug/frontdoor .venv/bin/pytest -q -ra Tests/e2e $(PYTEST_ARGS)

# The same suite with every stack on PostgreSQL: one private cluster for the run (scripts/pg-cluster, stopped after),
# a new database per stack; the tests about SQLite itself (sqlite_only) are deselected and listed at the end. The tests
# of several hosts sharing one database (postgresql_only) run only here, and `make e2e` lists them as deselected.
e2e-postgres: build
	@scripts/install-deps --with-venv
	FRONTDOOR_E2E_BACKEND=postgresql FRONTDOOR_BIN=$(CURDIR)/.build/debug/frontdoor .venv/bin/pytest -q -ra Tests/e2e $(PYTEST_ARGS)

# make test = the unit tests (on SQLite and on PostgreSQL), the end-to-end suite (with the short smoke of the HTTP
# fuzz, faults and soak) on SQLite and again on PostgreSQL, the unit tests under the thread sanitizer, and every fuzz
# target for a short run over its corpus; and docs/install.md's runtime libraries against ldd (runtime-libraries).
test: unit e2e e2e-postgres tsan fuzz-smoke runtime-libraries

# Issue 11 (SECURITY.md has the figures of the long runs). The thread-sanitized build has its own folder.
tsan: deps
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	scripts/unit-watchdog $$(($(UNIT_LIMIT) * 2)) swift test --skip-build --sanitize=thread --scratch-path .build-tsan

# Issue 21: the concurrent-requests suite under the thread sanitizer TSAN_REPEAT times in a row; the first failed
# run stops it and prints its output.
TSAN_REPEAT ?= 50
tsan-repeat: deps
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	@for i in $$(seq $(TSAN_REPEAT)); do \
	  swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter ConcurrentRequestsTests \
	    > .build-tsan/repeat.log 2>&1 && ! grep -q "ThreadSanitizer" .build-tsan/repeat.log \
	    || { cat .build-tsan/repeat.log; echo "tsan-repeat: run $$i of $(TSAN_REPEAT) failed"; exit 1; }; \
	done; echo "tsan-repeat: $(TSAN_REPEAT) of $(TSAN_REPEAT) runs passed, 0 sanitizer reports"

# libFuzzer targets (fuzz/): `fuzz-smoke` replays the corpora and runs each target briefly; `fuzz` is the long run.
fuzz-smoke: deps
	scripts/fuzz smoke

FUZZ_RUNS ?= 100000
fuzz: deps
	scripts/fuzz long $(FUZZ_RUNS)

# The long runs of the e2e smokes: HTTP fuzz through nginx, kill -9 and races, the 10-minute soak (release build).
HTTP_FUZZ_REQUESTS ?= 100000
http-fuzz: build
	@scripts/install-deps --with-venv
	HTTP_FUZZ_REQUESTS=$(HTTP_FUZZ_REQUESTS) FRONTDOOR_BIN=$(CURDIR)/.build/debug/frontdoor .venv/bin/pytest -q -s -ra Tests/e2e/test_http_fuzz.py

FAULT_ROUNDS ?= 20
faults: build
	@scripts/install-deps --with-venv
	FAULT_ROUNDS=$(FAULT_ROUNDS) FRONTDOOR_BIN=$(CURDIR)/.build/debug/frontdoor .venv/bin/pytest -q -s -ra Tests/e2e/test_faults_kill.py Tests/e2e/test_faults_mail.py Tests/e2e/test_faults_disk.py Tests/e2e/test_races.py

SOAK_SECONDS ?= 600
soak: build-release
	@scripts/install-deps --with-venv
	SOAK_SECONDS=$(SOAK_SECONDS) FRONTDOOR_BIN=$(CURDIR)/.build/release/frontdoor .venv/bin/pytest -q -s -ra Tests/e2e/test_soak.py

# The load benchmark of issue 6 (bench/README.md): frontdoor vs a libfcgi C responder and the raw argon2id rate.
BENCH_ARGS ?=
bench: build-release
	@scripts/install-deps --with-venv
	bench/run $(BENCH_ARGS)

# Packages for machines without a Swift toolchain (docs/install.md): the release tarball, the Debian package, and the
# package installed and signed in through on a clean debootstrap'd bookworm (root; not part of `make test`).
dist: deps
	scripts/dist

deb: dist
	scripts/deb

deb-check: deb
	scripts/deb-check

# docs/install.md's runtime libraries against `ldd` of a --static-swift-stdlib binary: a debug build in its own scratch
# folder, since the static standard library is chosen when modules compile, not only at the link (make dist checks
# its release binary the same way).
runtime-libraries: deps
	swift build --static-swift-stdlib --scratch-path .build-static --product frontdoor
	scripts/runtime-libraries --check .build-static/debug/frontdoor

clean:
	rm -rf run .venv dist

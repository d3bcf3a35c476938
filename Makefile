# Two commands matter: `make run` and `make test`. Both install what is missing first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: run serve test test-unit test-e2e build bench deps deps-python deps-node deps-browser deps-relay clean

run: deps-python deps-node
	$(PY) build.py dist --serve --port $(PORT)

serve: run

build: deps-python deps-node
	$(PY) build.py

# Two test processes share the tests out (one that runs out of work takes some of the other's).
# The linter (ruff, its rules in pyproject.toml) goes first: a mistake it finds stops the run.
# The browser tests spend much of their time waiting on the pages, so the conformance test runs
# beside them at the lowest priority, on the time they leave; its report follows theirs.
CONFORMANCE_LOG := .cache/conformance.log
test: deps-python deps-node deps-browser deps-relay build
	$(VENV)/bin/ruff check --quiet .
	@mkdir -p .cache; \
	nice -n 19 $(PY) -m pytest tests/conformance -p no:cacheprovider > $(CONFORMANCE_LOG) 2>&1 & conformance=$$!; \
	$(PY) -m pytest tests -n 2 --dist worksteal --ignore tests/conformance; suite=$$?; \
	wait $$conformance; agreed=$$?; \
	echo "== tests/conformance (run beside the others)"; cat $(CONFORMANCE_LOG); \
	test $$suite -eq 0 -a $$agreed -eq 0

test-unit: deps-python
	$(PY) -m pytest tests/unit

test-e2e: deps-python deps-node deps-browser deps-relay build
	$(PY) -m pytest tests/e2e

bench: deps-python deps-node deps-browser deps-relay build
	$(PY) -m bench

deps: deps-python deps-node deps-browser deps-relay

# Installs Debian packages (as root, as on CI); only runs when something is missing.
apt_install = { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(1); }

$(VENV)/.installed: requirements.txt
	@command -v $(PYTHON) >/dev/null || { $(call apt_install,python3 python3-venv); }
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || { $(call apt_install,python3-venv); }
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -r requirements.txt
	touch $@

deps-python: $(VENV)/.installed

# The meeting point the browser tests start on 127.0.0.1 (a published Nostr relay), in a venv of
# its own so that its pins never meet the site's.
RELAY_VENV := .venv-relay
$(RELAY_VENV)/.installed: tests/relay/requirements.txt
	$(PYTHON) -m venv $(RELAY_VENV)
	$(RELAY_VENV)/bin/pip install -q -r tests/relay/requirements.txt
	touch $@

deps-relay: $(RELAY_VENV)/.installed

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { $(call apt_install,nodejs npm); }
	npm ci --no-audit --no-fund
	touch $@

deps-node: node_modules/.installed

# The browser tests drive Debian's chromium (never `playwright install`, which downloads a browser).
deps-browser:
	@[ -x /usr/bin/chromium ] || { $(call apt_install,chromium fonts-dejavu-core); }

clean:
	rm -rf dist .pytest_cache

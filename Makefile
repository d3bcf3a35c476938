# Two commands matter: `make run` and `make test`. Both install what is missing first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
APT_UPDATED := /tmp/.cribbage-apt-updated

.PHONY: run serve test test-unit test-e2e build bench deps deps-python deps-node deps-browser clean

run: deps-python deps-node build
	@echo "Serving dist/ on http://127.0.0.1:$(PORT)"
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory dist

serve: run

build: deps-python deps-node
	$(PY) build.py

test: deps-python deps-node deps-browser build
	$(PY) -m pytest tests

test-unit: deps-python
	$(PY) -m pytest tests/unit

test-e2e: deps-python deps-node deps-browser build
	$(PY) -m pytest tests/e2e

bench: deps-python deps-node deps-browser build
	$(PY) -m bench

deps: deps-python deps-node deps-browser

define apt_install
	@if [ ! -f $(APT_UPDATED) ]; then apt-get update -qq && touch $(APT_UPDATED); fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1)
endef

$(VENV)/.installed: requirements.txt
	@command -v $(PYTHON) >/dev/null || { $(call apt_install,python3 python3-venv); }
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || { $(call apt_install,python3-venv); }
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -r requirements.txt
	touch $@

deps-python: $(VENV)/.installed

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { $(call apt_install,nodejs npm); }
	npm ci --no-audit --no-fund
	touch $@

deps-node: node_modules/.installed

deps-browser:
	@command -v chromium >/dev/null || { $(call apt_install,chromium); }

clean:
	rm -rf dist .pytest_cache

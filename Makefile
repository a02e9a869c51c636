# wirespeed: `make` installs what the repository needs and builds everything from data/results;
# `make test` runs the test suite. CI runs exactly these targets (.ci/run).

PYTHON      ?= python3
VENV        := .venv
BIN         := $(VENV)/bin
WIRESPEED   := $(BIN)/wirespeed
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The distribution (/etc/os-release): Debian 12 and Ubuntu 24.04 (and their derivatives) are supported.
OS_RELEASE  := $(shell . /etc/os-release 2>/dev/null && echo "$$ID $$ID_LIKE")
DISTRO      := $(if $(filter ubuntu,$(OS_RELEASE)),ubuntu,$(if $(filter debian,$(OS_RELEASE)),debian,unsupported))
# Packages the later stages need, under the same names on Debian and Ubuntu: TeX Live for the PDF
# reports, poppler for PDF checks, graphviz for the test-bed diagrams, iproute2/iperf3/tcpdump/tshark/netsniff-ng/nftables for collectors,
# shellcheck for the workflow lint. Chromium for the browser tests is a package on Debian only
# (Ubuntu's is a snap, unusable on runners and in containers): see the browser target.
APT_PACKAGES := python3-venv texlive-xetex texlive-latex-extra texlive-fonts-recommended lmodern latexmk \
                poppler-utils graphviz iperf3 tcpdump tshark netsniff-ng nftables iproute2 ethtool fonts-dejavu-core shellcheck \
                $(if $(filter debian,$(DISTRO)),chromium)
# actionlint checks .github/workflows (and runs shellcheck on their scripts) in `make test`; built
# from its Go module into a repository-local folder (go 1.18 or later: Debian 12 has 1.19).
ACTIONLINT_VERSION := v1.7.7
TOOLS       := .tools/bin
# pytest-xdist workers for `make test`: one per core (`make test TEST_WORKERS=N` to choose). One more than the cores
# ran the suite here in 16 min instead of 18 (much of it waits on pages and builds), but kept the machine so busy that
# the namespace loadtest found its generator short of the offered rate and skipped, as it must on a busy machine.
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all setup system-packages python-env node-env browser actionlint test-tools build validate ingest analyse site-data reports site serve serve-built summary test test-fast bench clean distclean

all: build

setup: system-packages python-env node-env

# Install the Debian/Ubuntu packages that are missing (none when all are present).
system-packages:
	@[ "$(DISTRO)" != unsupported ] || { echo "make supports Debian 12 and Ubuntu 24.04 (and derivatives); /etc/os-release says: $(or $(OS_RELEASE),nothing)" >&2; exit 1; }
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing $(DISTRO) packages:" $$missing; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  echo "wireshark-common wireshark-common/install-setuid boolean false" | $(SUDO) debconf-set-selections && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

# The package's bytecode, written as pip writes it for an installed package (an editable install gets none, and
# with PYTHONDONTWRITEBYTECODE set nothing else writes it): every `wirespeed` process, a test's too, then reads its
# modules instead of compiling them (a quarter of the time of the tests that run the command line). 0.1 s when current.
python-env: $(VENV)/.installed
	@$(BIN)/python -m compileall -q wirespeed

# Vega, Vega-Lite and vega-embed for the site's interactive charts, hyparquet and DuckDB-Wasm for the archive's
# browser and SQL page, pinned by package-lock.json.
node-env: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

# One step at a time (`make analyse`, `make site`, …): a step that leaves some result sets out names each
# in one line and exits 1 (wirespeed/pipeline/status.py, EXIT_LEFT_OUT), which fails make at once; `make`
# (`wirespeed build`) goes on past a left-out set and fails only when a step fails as a whole (exit 3).
validate: python-env
	@$(WIRESPEED) validate

ingest: python-env
	@$(WIRESPEED) ingest

summary: ingest
	@$(WIRESPEED) summary

analyse: ingest
	@$(WIRESPEED) analyse

site-data: analyse
	@$(WIRESPEED) site --data-only

reports: site-data
	@$(WIRESPEED) report

site: reports
	@$(WIRESPEED) site

# A preview with live reload on a free port (`wirespeed serve`: Hugo's server, drafts shown and marked); the built
# site as published, search index and HTTP Range requests included: `make serve-built`.
serve: setup
	@$(WIRESPEED) serve

serve-built: setup
	@$(WIRESPEED) serve --built

# `make`: builds everything, in one process (`wirespeed build`). A result set (or an article citing it)
# that fails a step is left out and named; the rest is built and `make` succeeds, printing what was left
# out (`wirespeed summary --left-out`, also to the GitHub job summary), so the publish workflow deploys the
# site without it. When a step fails as a whole (exit status 3) the site cannot be built: `make` fails.
# When nothing the build reads has changed since the last build (build/build-stamp.json) it stops at once.
build: setup
	@$(WIRESPEED) build

bench: setup
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python bench/run.py

# What the tests need beyond `setup`: a Chromium and actionlint.
test-tools: browser actionlint

# A Chromium for the browser tests, found by wirespeed.system.browser: Debian's package (system-packages),
# else Google Chrome (GitHub's ubuntu-24.04 runners have it), else on Ubuntu the Chromium Playwright
# downloads with the libraries it needs (not on Debian: there the package is the browser).
browser: system-packages python-env
	@$(BIN)/python -m wirespeed.system.browser >/dev/null 2>&1 || [ "$(DISTRO)" != ubuntu ] || $(BIN)/python -m playwright install --with-deps chromium
	@$(BIN)/python -m wirespeed.system.browser

actionlint: $(TOOLS)/.actionlint-$(ACTIONLINT_VERSION)

# Go from the distribution when there is none (golang-go: 1.19 on Debian 12, 1.22 on Ubuntu 24.04);
# GOTOOLCHAIN=local keeps a newer Go from downloading another toolchain.
$(TOOLS)/.actionlint-$(ACTIONLINT_VERSION):
	@command -v go >/dev/null || { echo "installing golang-go to build actionlint"; $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends golang-go; }
	mkdir -p $(TOOLS)
	GOBIN=$(CURDIR)/$(TOOLS) GOTOOLCHAIN=local go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
	touch $@

test: setup test-tools
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

# The fast lane, the default while developing (under a minute on an idle 2-core machine): tests that start
# no process and build nothing (tests/conftest.py marks the others slow); `make test` runs them all.
test-fast: python-env
	$(BIN)/python -m pytest -q -n 2 -m "not slow and not browser and not netns"

clean:
	rm -rf build public resources/_gen

distclean: clean
	rm -rf $(VENV) node_modules .tools

# wirespeed: `make` installs what the repository needs and builds everything from data/results;
# `make test` runs the test suite. CI runs exactly these targets (.ci/run).

PYTHON      ?= python3
VENV        := .venv
BIN         := $(VENV)/bin
WIRESPEED   := $(BIN)/wirespeed
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian/Ubuntu packages the later stages need: TeX Live for the PDF reports, Chromium for the
# browser tests, poppler for PDF checks, iproute2/iperf3/tcpdump/tshark/netsniff-ng for collectors.
APT_PACKAGES := python3-venv texlive-xetex texlive-latex-extra texlive-fonts-recommended lmodern latexmk \
                chromium poppler-utils iperf3 tcpdump tshark netsniff-ng iproute2 fonts-dejavu-core

.PHONY: all setup system-packages python-env node-env build validate ingest analyse site-data reports site serve summary test bench clean distclean

all: build

setup: system-packages python-env node-env

# Install the Debian packages that are missing (none when all are present).
system-packages:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:" $$missing; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  echo "wireshark-common wireshark-common/install-setuid boolean false" | $(SUDO) debconf-set-selections && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

python-env: $(VENV)/.installed

# Vega, Vega-Lite and vega-embed for the site's interactive charts, pinned by package-lock.json.
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

validate: python-env
	$(WIRESPEED) validate

ingest: python-env
	$(WIRESPEED) ingest

summary: ingest
	$(WIRESPEED) summary

analyse: ingest
	$(WIRESPEED) analyse

site-data: analyse
	$(WIRESPEED) site --data-only

reports: site-data
	$(WIRESPEED) report

site: reports
	$(WIRESPEED) site

serve: site
	@echo "serving public/ on http://127.0.0.1:8000/ (Ctrl-C stops)"
	$(BIN)/python -m http.server --directory public --bind 127.0.0.1 8000

build: setup validate site summary

bench: setup
	$(BIN)/python bench/run.py

test: setup
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

clean:
	rm -rf build public resources/_gen

distclean: clean
	rm -rf $(VENV) node_modules

# Almanac: `make run` starts it with the demo games, `make test` runs every test.
# Nothing else to set up: cargo fetches the crates, SQLite is compiled in (rusqlite "bundled"), and the
# browser test's Chromium comes from Debian's packages (installed here when missing).

DB ?= data/almanac.db
BIND ?= 127.0.0.1:8080
CARGO ?= cargo
# A corpus of catanatron games for `make bench`, made by the dump script CATANATRON_TOOL names.
CORPUS ?= bench-corpus
CATANATRON_TOOL ?= ../shared/tools/catanatron_dump.py

# The server's build compiles the games' rules for the browser too (crates/browser-rules, WebAssembly):
# rustup adds the target when it is missing.
.PHONY: run demo build wasm-target test browser postgres xz lint fuzz bench bench-scale bench-http bench-uploads bench-postgres-import bench-load bench-corpus clean

# Seeds an empty database from data/samples/, then serves the dashboard at http://$(BIND)/.
run: build
	./target/release/almanac serve --db $(DB) --bind $(BIND) --seed data/samples --demo-club demo

# The same games, summarised on the terminal.
demo: build
	./target/release/almanac demo --db $(DB) --samples data/samples

build: wasm-target
	$(CARGO) build --release --bin almanac

wasm-target:
	@rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# Every test, the store's and the API's on SQLite and again on a real PostgreSQL (started here for the run
# in a temporary directory, stopped at the end, whatever the outcome), and reads spread over a streaming
# replica (a second PostgreSQL and its replica). The tests register the toy game of crates/toy-game beside the
# real ones (ARCHITECTURE.md, "Adding a game"), so every test across games checks it. The tests that need PostgreSQL or a browser are
# `#[ignore]`d with the reason, so that a plain `cargo test` passes on a bare machine; here they run too
# (`--include-ignored`).
test: wasm-target browser postgres xz
	@pg=$$(mktemp -d); pair=$$(mktemp -d); \
	url=$$(tests/postgres.sh start $$pg) && urls=$$(tests/postgres.sh start-replicated $$pair) && \
	ALMANAC_TEST_PG=$$url ALMANAC_TEST_PG_REPLICATED="$$urls" $(CARGO) test --workspace -- --include-ignored && \
	ALMANAC_TEST_PG=$$url ALMANAC_TEST_STORE=postgres $(CARGO) test -p almanac-server --test api --test clubs --test players; \
	status=$$?; tests/postgres.sh stop $$pg; tests/postgres.sh stop $$pair; exit $$status

# xz, which unpacks the shared corpus of JSettlers robot games the tests replay
# (tests/data/jsettlers-botgames.tar.xz, with `tar -xJf`), installed when missing.
xz:
	@if ! command -v xz >/dev/null; then \
		echo "installing xz-utils (Debian package) to unpack the corpus the tests replay"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq xz-utils >/dev/null; \
	fi

# Debian's PostgreSQL server for the tests (tests/postgres.sh), and pg_auto_failover for the failover test
# (its command and the extension built for that PostgreSQL), installed when missing.
postgres:
	@SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "installing postgresql (Debian package) for the tests"; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql >/dev/null; \
	fi; \
	version=$$(ls /usr/lib/postgresql | sort -V | tail -1); \
	if ! command -v pg_autoctl >/dev/null || [ ! -f /usr/share/postgresql/$$version/extension/pgautofailover.control ]; then \
		echo "installing pg-auto-failover-cli and postgresql-$$version-auto-failover (Debian packages) for the tests"; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
			pg-auto-failover-cli postgresql-$$version-auto-failover >/dev/null; \
	fi

# Debian's Chromium and ChromeDriver for the browser test (tests/browser.rs), and axe-core (Deque's
# accessibility checker, MPL-2.0) fetched by npm's own client (`npm pack`), checked against its SHA-256.
AXE_VERSION = 4.10.2
AXE_SHA256 = 9ea2d2d6917da998122bdacfd3b473e31ead53f4b87146c716a12edf89158100
AXE = target/axe/axe-$(AXE_VERSION).min.js

browser: $(AXE)
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
		echo "installing chromium and chromium-driver (Debian packages) for the browser test"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

$(AXE):
	@if ! command -v npm >/dev/null; then \
		echo "installing npm (Debian package) to fetch axe-core"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq npm >/dev/null; \
	fi
	mkdir -p target/axe
	cd target/axe && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null
	echo "$(AXE_SHA256)  target/axe/axe-core-$(AXE_VERSION).tgz" | sha256sum -c --quiet
	tar -xzf target/axe/axe-core-$(AXE_VERSION).tgz -C target/axe package/axe.min.js
	mv target/axe/package/axe.min.js $@
	rm -rf target/axe/package target/axe/axe-core-$(AXE_VERSION).tgz

# The fuzz harness for longer than `make test` runs it: every reader and ruleset, 20,000 mutated records.
fuzz:
	ALMANAC_FUZZ_CASES=$${ALMANAC_FUZZ_CASES:-20000} $(CARGO) test --release -p almanac-engine --test fuzz

lint: wasm-target
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# 1,000 catanatron games (about two minutes), then the speed figures: ours, and catanatron's own replay of
# the same files against `almanac validate` of them; then the scale figures of what coaches ask.
bench: build $(CORPUS)/.done
	./target/release/almanac bench $(CORPUS)
	bench/foreign.sh $(CORPUS)
	bench/scale.sh

# Questions, player pages, head-to-heads and the games list on a generated database: GAMES games of each
# ruleset (2,000 by default; GAMES=20000 for the 100,000-game figures).
bench-scale:
	bench/scale.sh

# HTTP figures with wrk: states and charts at 32 and 256 connections, alone and with 4 uploaders running.
bench-http: build
	bench/http.sh

# Uploads through the server, by one uploader and by 4, against plain SQLite's inserts of the same events.
bench-uploads: build
	bench/uploads.sh

# `almanac import` of one corpus into SQLite and into a PostgreSQL set for work, and the ratio of the two.
bench-postgres-import: build
	bench/postgres-import.sh

# A crowd for 60 s on loopback: 50 uploaders, 200 readers, 5 live writers; throughput, p99, errors, lost games.
bench-load: build
	bench/load.sh

bench-corpus: $(CORPUS)/.done

$(CORPUS)/.done:
	python3 -m venv .venv-catanatron
	.venv-catanatron/bin/pip install --quiet catanatron==3.2.1
	.venv-catanatron/bin/python $(CATANATRON_TOOL) --num 1000 --seed 10000 --out $(CORPUS)
	touch $@

clean:
	$(CARGO) clean
	rm -f $(DB) $(DB)-wal $(DB)-shm

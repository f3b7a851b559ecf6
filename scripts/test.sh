#!/usr/bin/env bash
# Installs what the tests need, then runs the whole test suite.
#
# The tests play against two outside engines: GNU Go 3.8 (/usr/games/gnugo) and
# GRhino's GTP Othello engine (/usr/games/gtp-rhino), run sharded batch commands
# through GNU parallel (/usr/bin/parallel), open `sente arena report` pages in
# headless Chromium (/usr/bin/chromium), and drive `sente phantom referee`'s pages in
# it through WebDriver (chromedriver, /usr/bin/chromedriver). Each is installed with apt-get
# (Debian/Ubuntu) only when missing, so a machine that has them skips the package
# index. Everything else the tests read is in the repository. Extra arguments go to
# `cargo test` (e.g. `scripts/test.sh -- --nocapture`).
set -euo pipefail
cd "$(dirname "$0")/.."

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    else
        sudo "$@"
    fi
}

need=()
[ -x /usr/games/gnugo ] || need+=(gnugo)
[ -x /usr/games/gtp-rhino ] || need+=(grhino)
[ -x /usr/bin/parallel ] || need+=(parallel)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null; then
        echo "scripts/test.sh: ${need[*]} missing and no apt-get here; install them so that" \
            "/usr/games/gnugo, /usr/games/gtp-rhino, /usr/bin/parallel, /usr/bin/chromium and /usr/bin/chromedriver exist, then run" \
            "this again" >&2
        exit 1
    fi
    echo "scripts/test.sh: installing ${need[*]} with apt-get" >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
    for program in /usr/games/gnugo /usr/games/gtp-rhino /usr/bin/parallel /usr/bin/chromium /usr/bin/chromedriver; do
        if [ ! -x "$program" ]; then
            echo "scripts/test.sh: $program is still missing after apt-get install" >&2
            exit 1
        fi
    done
fi

# --no-fail-fast: one failing test binary does not hide the results of the others.
cargo test --release --workspace --no-fail-fast "$@" </dev/null

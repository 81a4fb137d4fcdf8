#!/usr/bin/env bash
# Install the PostgreSQL and Redis servers the runtime tests need, if missing; start nothing.
# The tests start throwaway servers themselves (jobcheck/runtime/servers.py), from initdb and
# postgres found on PATH or in the newest /usr/lib/postgresql/*/bin, and redis-server on PATH;
# this script looks in the same places. Idempotent; apt-get (as root) runs only when one is missing.
# Run it, or source it for pg_bindir and install_servers (.ci/services.sh does).
set -euo pipefail

log() { echo "install-servers: $*" >&2; }
die() { log "error: $*"; exit 1; }

# The directory holding initdb and postgres: PATH first, else the newest Debian version.
pg_bindir() {
    local initdb postgres
    if initdb=$(command -v initdb) && postgres=$(command -v postgres); then
        dirname "$(readlink -f "$initdb")"
        return 0
    fi
    initdb=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
    [ -n "$initdb" ] && [ -x "$(dirname "$initdb")/postgres" ] && dirname "$initdb"
}

# Packages install only: a package's own service is kept from starting (policy-rc.d), since the
# tests never use it and it would hold the default ports.
apt_install() {
    [ "$(id -u)" = 0 ] || die "need root to apt-get install $*"
    local policy=/usr/sbin/policy-rc.d ours=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && ours=1
    fi
    log "apt-get install $*"
    { apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null; } \
        || { [ "$ours" = 0 ] || rm -f "$policy"; die "apt-get install $* failed"; }
    [ "$ours" = 0 ] || rm -f "$policy"
}

install_servers() {
    local missing=()
    pg_bindir >/dev/null || missing+=(postgresql)
    command -v redis-server >/dev/null || missing+=(redis-server)
    if [ "${#missing[@]}" -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
    pg_bindir >/dev/null || die "postgresql installed but initdb/postgres not found"
    command -v redis-server >/dev/null || die "redis-server installed but not on PATH"
    log "PostgreSQL binaries in $(pg_bindir); $(command -v redis-server)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    install_servers
fi

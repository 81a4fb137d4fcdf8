#!/usr/bin/env bash
# Start long-lived PostgreSQL and Redis on their default ports, by hand, for whoever wants them
# (the examples, JOBCHECK_TEST_POSTGRES_DSN / JOBCHECK_TEST_REDIS_URL, a debugging session):
#   postgresql://jobcheck:jobcheck@127.0.0.1:5432/jobcheck   and   redis://127.0.0.1:6379/0
# The tests do not need it (they start throwaway servers of their own) and CI does not run it.
# Installs what is missing first (.ci/install-servers.sh). Idempotent: servers that already
# answer are left alone; ours live under /tmp/jobcheck-ci.
set -euo pipefail
source "$(dirname "$0")/install-servers.sh"

PG_HOST=127.0.0.1
PG_PORT=5432
PG_ROLE=jobcheck
PG_PASSWORD=jobcheck
PG_DB=jobcheck
REDIS_PORT=6379
STATE=/tmp/jobcheck-ci
PG_DSN="postgresql://${PG_ROLE}:${PG_PASSWORD}@${PG_HOST}:${PG_PORT}/${PG_DB}"

log() { echo "services: $*" >&2; }

# Poll a command until it succeeds or the deadline passes.
wait_for() {
    local what=$1 seconds=$2
    shift 2
    local i
    for ((i = 0; i < seconds * 4; i++)); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.25
    done
    die "$what did not come up within ${seconds}s"
}

# ---------------------------------------------------------------- PostgreSQL

# -w: never prompt for a password (CI has no terminal).
pg_dsn_works() { PGCONNECT_TIMEOUT=3 "$PG_BIN/psql" -w "$PG_DSN" -Atqc 'select 1' >/dev/null 2>&1; }
pg_accepting() { "$PG_BIN/pg_isready" -q -h "$PG_HOST" -p "$PG_PORT" >/dev/null 2>&1; }

# postgres refuses to run as root: use the packaged 'postgres' user, or make a system user.
pg_run_user() {
    if [ "$(id -u)" != 0 ]; then id -un; return; fi
    if id postgres >/dev/null 2>&1; then echo postgres; return; fi
    id jobcheck-pg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin jobcheck-pg
    echo jobcheck-pg
}

as_user() {
    local user=$1
    shift
    if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}

start_own_postgres() {
    local user dir data sock
    user=$(pg_run_user)
    dir=$STATE/pg
    data=$dir/data
    sock=$dir/sock
    mkdir -p "$data" "$sock"
    chown -R "$user" "$dir"
    chmod 700 "$data"
    if [ ! -s "$data/PG_VERSION" ]; then
        log "initdb $data (as $user)"
        as_user "$user" "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    fi
    log "starting postgres on $PG_HOST:$PG_PORT (data $data)"
    as_user "$user" "$PG_BIN/pg_ctl" -D "$data" -l "$dir/postgres.log" -w -t 60 \
        -o "-c listen_addresses=$PG_HOST -p $PG_PORT -c unix_socket_directories=$sock" start >/dev/null \
        || { tail -n 30 "$dir/postgres.log" >&2; die "pg_ctl start failed"; }
}

PROVISION_SQL="
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${PG_ROLE}') THEN
    CREATE ROLE ${PG_ROLE} LOGIN PASSWORD '${PG_PASSWORD}';
  END IF;
END \$\$;
ALTER ROLE ${PG_ROLE} LOGIN PASSWORD '${PG_PASSWORD}';
SELECT 'CREATE DATABASE ${PG_DB} OWNER ${PG_ROLE}'
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${PG_DB}') \\gexec
"

# Create the role and database as a superuser: ours trusts 'postgres' on loopback; a packaged
# (Debian) cluster lets the 'postgres' OS user in over its Unix socket.
provision_postgres() {
    if PGCONNECT_TIMEOUT=3 "$PG_BIN/psql" -w -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres -Atqc 'select 1' >/dev/null 2>&1; then
        log "creating role and database ${PG_DB} (as postgres over loopback)"
        echo "$PROVISION_SQL" | "$PG_BIN/psql" -w -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres -q -v ON_ERROR_STOP=1 >/dev/null
    elif [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
        log "creating role and database ${PG_DB} (as the postgres OS user over the Unix socket)"
        echo "$PROVISION_SQL" | runuser -u postgres -- "$PG_BIN/psql" -w -p "$PG_PORT" -d postgres -q -v ON_ERROR_STOP=1 >/dev/null
    else
        die "a server answers on $PG_HOST:$PG_PORT but no superuser login is available to create role ${PG_ROLE}"
    fi
}

ensure_postgres() {
    PG_BIN=$(pg_bindir)
    if pg_dsn_works; then
        log "postgres: ready ($PG_DSN)"
        return
    fi
    if ! pg_accepting; then
        start_own_postgres
    fi
    wait_for "postgres" 60 pg_accepting
    provision_postgres
    wait_for "postgres login as ${PG_ROLE}" 30 pg_dsn_works
    log "postgres: ready ($PG_DSN)"
}

# ---------------------------------------------------------------- Redis

redis_ping() {
    if command -v redis-cli >/dev/null; then
        [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]
    else
        # No client: speak the inline protocol over bash's /dev/tcp.
        local reply
        exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT" || return 1
        printf 'PING\r\n' >&3
        IFS= read -r -t 2 reply <&3 || true
        exec 3<&- 3>&-
        [ "${reply%$'\r'}" = "+PONG" ]
    fi
}

ensure_redis() {
    if redis_ping 2>/dev/null; then
        log "redis: ready (redis://127.0.0.1:$REDIS_PORT/0)"
        return
    fi
    mkdir -p "$STATE/redis"
    log "starting redis-server on 127.0.0.1:$REDIS_PORT"
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes \
        --dir "$STATE/redis" --logfile "$STATE/redis.log" --pidfile "$STATE/redis.pid" \
        --save '' --appendonly no >/dev/null
    wait_for "redis" 30 redis_ping
    log "redis: ready (redis://127.0.0.1:$REDIS_PORT/0)"
}

install_servers
ensure_postgres
ensure_redis

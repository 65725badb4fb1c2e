#!/usr/bin/env bash
# A throw-away PostgreSQL server on loopback, for the cluster tests.
#
#   postgres.sh start   install Debian's postgresql if missing, initdb a fresh data
#                       dir, start the server on 127.0.0.1:55432, create the
#                       database "fl0", and print its DATABASE_URL on stdout
#   postgres.sh stop    stop that server and delete its data dir
#   postgres.sh status  exit 0 when it is running
#
# The server runs as an unprivileged user, because initdb and postgres refuse to
# run as root: the current user when that is not root, else Debian's "postgres".
# The superuser is named fl0 whoever runs it, and loopback connections are
# trusted (no password): the server listens on 127.0.0.1 only and lives as
# long as one test run. fsync is off for the same reason: durability across a
# power cut is not what these tests are about, and it spares the disk.
#
# Settings (environment): PG_PORT (55432), PG_DATABASE (fl0), FL0_RUN_DIR
# (/tmp/fl0-cluster), PG_START_TIMEOUT seconds (60).
set -euo pipefail

PORT=${PG_PORT:-55432}
DATABASE=${PG_DATABASE:-fl0}
RUN_DIR=${FL0_RUN_DIR:-${TMPDIR:-/tmp}/fl0-cluster}/postgres-$PORT
DATA=$RUN_DIR/data
SUPERUSER=fl0

say() { echo "postgres: $*" >&2; }

# Debian keeps the server binaries out of PATH, one directory per major version;
# /usr/local/bin may hold other builds, so the path is named in full.
bin_dir() {
  local dirs
  dirs=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V) || true
  for d in $dirs; do [[ -x $d/initdb ]] && echo "$d"; done | tail -n 1
}

install() {
  [[ -n $(bin_dir) ]] && return 0
  if [[ $(id -u) -ne 0 ]]; then
    say "PostgreSQL is not installed; as root: apt-get install -y postgresql"
    exit 1
  fi
  say "installing Debian's postgresql package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  [[ -n $(bin_dir) ]] || { say "postgresql installed, but no initdb under /usr/lib/postgresql/*/bin"; exit 1; }
}

# Runs a command as the user that owns the cluster.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() { [[ -f $DATA/postmaster.pid ]] && as_owner "$(bin_dir)/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

start() {
  install
  local bin
  bin=$(bin_dir)
  if running; then say "already running on port $PORT; stop it first"; exit 1; fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    say "port $PORT on 127.0.0.1 is taken by another process"
    exit 1
  fi
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR"
  [[ $(id -u) -eq 0 ]] && chown postgres: "$RUN_DIR"
  # The parent of the run dir must be traversable by the owner (mktemp-style 0700
  # parents are not); /tmp is.
  as_owner "$bin/initdb" -D "$DATA" -U "$SUPERUSER" --auth=trust -E UTF8 --locale=C.UTF-8 >"$RUN_DIR/initdb.log" 2>&1 ||
    { cat "$RUN_DIR/initdb.log" >&2; say "initdb failed"; exit 1; }
  # The socket goes in the run dir, not /var/run/postgresql, which only the
  # packaged cluster's user may write to.
  as_owner "$bin/pg_ctl" -D "$DATA" -l "$RUN_DIR/server.log" -w -t "${PG_START_TIMEOUT:-60}" \
    -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$RUN_DIR -c fsync=off -c full_page_writes=off -c max_connections=200" \
    start >&2 || { tail -n 30 "$RUN_DIR/server.log" >&2; say "the server did not start"; exit 1; }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$PORT" -U "$SUPERUSER" "$DATABASE"
  say "server up on 127.0.0.1:$PORT (data and log in $RUN_DIR)"
  echo "postgres://$SUPERUSER@127.0.0.1:$PORT/$DATABASE"
}

stop() {
  local bin
  bin=$(bin_dir)
  if [[ -n $bin ]] && running; then
    # fast: roll back open transactions and disconnect clients instead of
    # waiting for them (a test that crashed may have left a pool open).
    as_owner "$bin/pg_ctl" -D "$DATA" -m fast -w -t 30 stop >&2 ||
      as_owner "$bin/pg_ctl" -D "$DATA" -m immediate -w stop >&2
  fi
  if [[ ${FL0_KEEP_RUN_DIR:-} == 1 ]]; then say "kept $RUN_DIR"; else rm -rf "$RUN_DIR"; fi
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) if running; then echo "running on 127.0.0.1:$PORT"; else echo "not running"; exit 1; fi ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac

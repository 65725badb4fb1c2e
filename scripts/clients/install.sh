#!/usr/bin/env bash
# Installs the real Segment and RudderStack server-side libraries that
# server/src/clients.integration.test.ts runs against an embedded fl0, each from
# its own registry at the version pinned here:
#
#   python/requirements.txt  Segment's segment-analytics-python and RudderStack's
#                            rudder-sdk-python (PyPI), in a venv
#   go/go.mod, go/go.sum     Segment's github.com/segmentio/analytics-go/v3 (the Go
#                            module proxy), built into one binary from go/main.go
#   java/pom.xml             Segment's com.segment.analytics.java:analytics (Maven
#                            Central), its runtime jars, and java/src/Fl0JavaClient.java
#                            compiled against them
#
# RudderStack's Node SDK is an npm devDependency of the server workspace and is
# not installed here.
#
# Everything lands under $FL0_CLIENTS_DIR (default $FL0_CACHE_DIR/clients, that is
# ~/.cache/fl0/clients); Maven's own repository is $FL0_CACHE_DIR/m2, shared with
# scripts/cluster/kafka.sh. Each client is rebuilt only when its inputs change: a
# stamp holding the hash of its files is written last, so an interrupted install
# is redone, and a second run with nothing changed takes well under a second.
#
#   bash scripts/clients/install.sh [python] [go] [java]   (all three by default)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE_ROOT=${FL0_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fl0}
DIR=${FL0_CLIENTS_DIR:-$CACHE_ROOT/clients}
mkdir -p "$DIR"

say() { echo "clients: $*" >&2; }

# The hash of a client's input files, relative to this folder.
inputs_hash() { (cd "$HERE" && sha256sum "$@" | sha256sum | cut -c1-16); }

# up_to_date NAME HASH: the stamp of NAME's last complete install holds HASH.
up_to_date() { [[ -f $DIR/$1/.stamp && $(<"$DIR/$1/.stamp") == "$2" ]]; }

# Tools come with the machines this project runs on; a machine without one gets
# Debian's when we may install (root), or is told what to install.
need_debian() {
  local missing=("$@")
  ((${#missing[@]} == 0)) && return 0
  if [[ $(id -u) -ne 0 ]]; then say "missing: ${missing[*]} (apt-get install -y ${missing[*]})"; exit 1; fi
  say "installing Debian's ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

install_python() {
  local hash
  hash=$(inputs_hash python/requirements.txt)
  up_to_date python "$hash" && return 0
  local python
  python=$(command -v python3 || true)
  if [[ -z $python ]] || ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    need_debian python3 python3-venv
    python=$(command -v python3)
  fi
  say "installing Segment's and RudderStack's Python libraries into $DIR/python"
  rm -rf "$DIR/python"
  "$python" -m venv "$DIR/python/venv"
  "$DIR/python/venv/bin/pip" install -q --disable-pip-version-check --no-input -r "$HERE/python/requirements.txt" >&2
  echo "$hash" >"$DIR/python/.stamp"
}

install_go() {
  local hash
  hash=$(inputs_hash go/go.mod go/go.sum go/main.go)
  up_to_date go "$hash" && return 0
  local go
  go=$(command -v go || true)
  [[ -z $go && -x /usr/local/go/bin/go ]] && go=/usr/local/go/bin/go
  if [[ -z $go ]]; then
    need_debian golang-go
    go=$(command -v go)
  fi
  say "building Segment's Go library client into $DIR/go"
  rm -rf "$DIR/go"
  mkdir -p "$DIR/go"
  # go.sum pins every module, so nothing is asked of the checksum database; the
  # go.mod's go line is older than any Go this runs with, so no toolchain is fetched.
  (cd "$HERE/go" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly "$go" build -buildvcs=false -o "$DIR/go/fl0-go-client" .)
  echo "$hash" >"$DIR/go/.stamp"
}

install_java() {
  local hash
  hash=$(inputs_hash java/pom.xml java/src/Fl0JavaClient.java)
  up_to_date java "$hash" && return 0
  local missing=()
  command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null || missing+=(maven)
  need_debian "${missing[@]}"
  say "fetching Segment's Java library with Maven into $DIR/java"
  rm -rf "$DIR/java"
  mkdir -p "$DIR/java"
  # Maven's output is kept for a failure, not shown for a success.
  mvn -B -Dstyle.color=never -f "$HERE/java/pom.xml" \
    -Dmaven.repo.local="$CACHE_ROOT/m2" \
    -DoutputDirectory="$DIR/java/lib" \
    dependency:copy-dependencies >"$DIR/java.mvn.log" 2>&1 ||
    { tail -n 40 "$DIR/java.mvn.log" >&2; say "Maven could not fetch Segment's Java library (log: $DIR/java.mvn.log)"; exit 1; }
  javac -encoding UTF-8 -cp "$DIR/java/lib/*" -d "$DIR/java/classes" "$HERE/java/src/Fl0JavaClient.java"
  echo "$hash" >"$DIR/java/.stamp"
}

clients=("$@")
((${#clients[@]} == 0)) && clients=(python go java)
for client in "${clients[@]}"; do
  case $client in
    python) install_python ;;
    go) install_go ;;
    java) install_java ;;
    *) say "unknown client: $client (python, go or java)"; exit 2 ;;
  esac
done
say "ready in $DIR"

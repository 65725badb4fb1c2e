#!/usr/bin/env bash
# One Apache Kafka broker on loopback, for the cluster tests.
#
#   kafka.sh fetch   download Kafka's jars with Maven into the cache (once)
#   kafka.sh start   fetch if needed, format a fresh log dir, start one broker in
#                    KRaft combined mode (broker and controller in one JVM), wait
#                    until it serves, and print its address (127.0.0.1:9092) on stdout
#   kafka.sh stop    stop the broker this script started and delete its log dir
#   kafka.sh status  exit 0 when the broker is running
#
# Why Maven rather than the release tarball: Maven Central is reachable from every
# machine that runs these tests (developers' and CI's); the download mirrors are not.
# The jars land in $FL0_CACHE_DIR/kafka/<version>/libs (default ~/.cache/fl0), so
# only the first run downloads; Maven's own repository sits beside them
# ($FL0_CACHE_DIR/m2) so that one directory holds everything worth keeping.
#
# Settings (environment): KAFKA_VERSION (3.9.1), KAFKA_PORT (9092),
# KAFKA_CONTROLLER_PORT (9093), KAFKA_HEAP_OPTS (-Xms256m -Xmx512m),
# KAFKA_START_TIMEOUT seconds (90), FL0_CACHE_DIR, FL0_RUN_DIR (/tmp/fl0-cluster).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KAFKA_VERSION=${KAFKA_VERSION:-3.9.1}
CACHE_ROOT=${FL0_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fl0}
LIBS=$CACHE_ROOT/kafka/$KAFKA_VERSION/libs
PORT=${KAFKA_PORT:-9092}
CONTROLLER_PORT=${KAFKA_CONTROLLER_PORT:-9093}
RUN_DIR=${FL0_RUN_DIR:-${TMPDIR:-/tmp}/fl0-cluster}/kafka-$PORT
PID_FILE=$RUN_DIR/pid
LOG=$RUN_DIR/logs/server.log

say() { echo "kafka: $*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

running_pid() {
  [[ -f $PID_FILE ]] || return 1
  local pid
  pid=$(<"$PID_FILE")
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

# Java 17 and Maven come with the machines this project runs on; a machine
# without them gets Debian's, when we may install (root), or is told what to install.
need() {
  local missing=()
  command -v "${JAVA_HOME:+$JAVA_HOME/bin/}java" >/dev/null || missing+=(openjdk-17-jre-headless)
  [[ $1 == fetch ]] && ! command -v mvn >/dev/null && missing+=(maven)
  ((${#missing[@]} == 0)) && return 0
  if [[ $(id -u) -ne 0 ]]; then say "missing: ${missing[*]} (apt-get install -y ${missing[*]})"; exit 1; fi
  say "installing Debian's ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

fetch() {
  # The marker is written last, so an interrupted download is redone, not half used.
  [[ -f $LIBS/.complete ]] && return 0
  need fetch
  say "fetching Apache Kafka $KAFKA_VERSION with Maven into $LIBS (first run only)"
  rm -rf "$LIBS.partial"
  mkdir -p "$(dirname "$LIBS")"
  # Maven's output is kept for a failure, not shown for a success.
  mvn -B -Dstyle.color=never -f "$HERE/pom.xml" \
    -Dkafka.version="$KAFKA_VERSION" \
    -Dmaven.repo.local="$CACHE_ROOT/m2" \
    -DoutputDirectory="$LIBS.partial" \
    dependency:copy-dependencies >"$LIBS.mvn.log" 2>&1 ||
    { tail -n 40 "$LIBS.mvn.log" >&2; say "Maven could not fetch Kafka $KAFKA_VERSION (log: $LIBS.mvn.log)"; exit 1; }
  rm -rf "$LIBS"
  mv "$LIBS.partial" "$LIBS"
  touch "$LIBS/.complete"
}

write_config() {
  # Sized for one broker on a 2-core machine: every internal topic has one
  # replica, few partitions (offsets.topic.num.partitions defaults to 50, which
  # makes a first consumer group wait for 50 partitions to be created), and no
  # initial rebalance delay, so a consumer group forms at once.
  cat >"$RUN_DIR/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$RUN_DIR/data
auto.create.topics.enable=true
num.partitions=4
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
EOF
  cat >"$RUN_DIR/log4j.properties" <<EOF
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$LOG
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
EOF
}

start() {
  if pid=$(running_pid); then
    say "already running (pid $pid); stop it first"
    exit 1
  fi
  for p in "$PORT" "$CONTROLLER_PORT"; do
    if port_open "$p"; then say "port $p on 127.0.0.1 is taken by another process"; exit 1; fi
  done
  fetch
  need java
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR/data" "$RUN_DIR/logs"
  write_config

  local java=${JAVA_HOME:+$JAVA_HOME/bin/}java
  local cp="$LIBS/*"
  # A cluster id is 16 random bytes in URL-safe base64 without padding, which is
  # what `StorageTool random-uuid` prints; made here to spare one JVM start. One
  # that begins with '-' would be read as an option (-t then has no argument, and
  # the format fails: one start in 64), so such an id is drawn again.
  local cluster_id=-
  while [[ $cluster_id == -* ]]; do
    cluster_id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
  done
  "$java" -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" -cp "$cp" \
    kafka.tools.StorageTool format -t "$cluster_id" -c "$RUN_DIR/server.properties" >"$RUN_DIR/format.out" 2>&1 ||
    { cat "$RUN_DIR/format.out" >&2; say "formatting the log dir failed"; exit 1; }

  # setsid: the broker gets its own session, so a Ctrl-C meant for the caller
  # does not kill it half way; `stop` ends it by its pid.
  # shellcheck disable=SC2086
  setsid "$java" ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} -XX:+UseG1GC -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" -Dkafka.logs.dir="$RUN_DIR/logs" \
    -cp "$cp" kafka.Kafka "$RUN_DIR/server.properties" >"$RUN_DIR/stdout.log" 2>&1 </dev/null &
  echo $! >"$PID_FILE"
  local pid=$!

  # An open port is not enough: the listener opens before the broker has caught
  # up with its own metadata log. KafkaRaftServer logs "Kafka Server started"
  # once it serves requests.
  local deadline=$((SECONDS + ${KAFKA_START_TIMEOUT:-90}))
  until grep -q 'Kafka Server started' "$LOG" 2>/dev/null && port_open "$PORT"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$LOG" "$RUN_DIR/stdout.log" >&2 2>/dev/null || true
      say "the broker exited during start-up (logs above, in $RUN_DIR)"
      exit 1
    fi
    if ((SECONDS >= deadline)); then
      tail -n 40 "$LOG" >&2 2>/dev/null || true
      say "the broker did not start within ${KAFKA_START_TIMEOUT:-90}s; stopping it"
      stop
      exit 1
    fi
    sleep 0.3
  done
  say "broker up on 127.0.0.1:$PORT (pid $pid, logs in $RUN_DIR/logs)"
  echo "127.0.0.1:$PORT"
}

stop() {
  local pid
  if pid=$(running_pid); then
    kill -TERM "$pid"
    # A clean shutdown of a lone KRaft node takes a few seconds; past 30 s, kill it.
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      say "broker did not stop within 30s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    say "stopped (pid $pid)"
  fi
  if [[ ${FL0_KEEP_RUN_DIR:-} == 1 ]]; then say "kept $RUN_DIR"; else rm -rf "$RUN_DIR"; fi
}

case ${1:-} in
  fetch) fetch ;;
  start) start ;;
  stop) stop ;;
  status) if pid=$(running_pid); then echo "running (pid $pid) on 127.0.0.1:$PORT"; else echo "not running"; exit 1; fi ;;
  *) echo "usage: $0 fetch|start|stop|status" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# npm run test:cluster [-- vitest args]
#
# Starts one Kafka broker and one PostgreSQL server on loopback (kafka.sh,
# postgres.sh), runs every *.cluster.test.ts against them with KAFKA_BROKERS
# and DATABASE_URL set (vitest.cluster.config.ts), stops both whatever
# happened, and exits with the tests' status. Extra arguments go to vitest,
# e.g. `npm run test:cluster -- stores/src/bus` to run one folder.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/../.."
began=$SECONDS

stop_engines() {
  bash "$HERE/kafka.sh" stop || true
  bash "$HERE/postgres.sh" stop || true
}
trap stop_engines EXIT
# An interrupted run still stops the engines: exiting runs the EXIT trap.
trap 'exit 130' INT
trap 'exit 143' TERM

# Engines left behind by a run that was killed outright (its trap never ran)
# would hold the ports; these stops only touch what the scripts started.
stop_engines 2>/dev/null

KAFKA_BROKERS=$(bash "$HERE/kafka.sh" start) || { echo "test:cluster: Kafka did not start" >&2; exit 1; }
DATABASE_URL=$(bash "$HERE/postgres.sh" start) || { echo "test:cluster: PostgreSQL did not start" >&2; exit 1; }
export KAFKA_BROKERS DATABASE_URL
echo "test:cluster: engines up in $((SECONDS - began))s (KAFKA_BROKERS=$KAFKA_BROKERS DATABASE_URL=$DATABASE_URL)" >&2

npx vitest run --config vitest.cluster.config.ts "$@"
status=$?
echo "test:cluster: finished with status $status in $((SECONDS - began))s" >&2
exit $status

#!/usr/bin/env bash
# The embedded node's tables through the official SDK (TablesBench): single-row transactional upserts,
# compare-and-set by WRITERS writers on distinct keys and on one key, an index range read of 100 rows — in memory
# and with a data directory (fsync per group commit). The node runs in the benchmark's JVM. Not part of `verify`;
# loopback only. Prints the load average before and after: the numbers mean little on a busy machine.
#
#   ./mvnw -B -ntp -Pbench -pl bench -am package -DskipTests
#   bench/tables/run.sh                       # DURATION=10 WARMUP=3 WRITERS=8 MODES="memory data-dir"
#   bench/tables/run.sh grpc://127.0.0.1:2136/local     # any YDB (or a node started with --data-dir)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECONDS_EACH=${DURATION:-10}; WARMUP=${WARMUP:-3}; WRITERS=${WRITERS:-8}
MODES=${*:-${MODES:-memory data-dir}}
JAR="$ROOT/bench/target/benchmarks.jar"
[[ -f $JAR ]] || { echo "missing $JAR: ./mvnw -B -ntp -Pbench -pl bench -am package -DskipTests" >&2; exit 1; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)  cores: $(nproc 2>/dev/null || echo '?')"
for mode in $MODES; do
  java -Xmx1g -XX:+UseParallelGC -Dseconds="$SECONDS_EACH" -Dwarmup="$WARMUP" -Dwriters="$WRITERS" \
    -Dlogback.configurationFile=ydb-embedded-logback.xml -cp "$JAR" dev.egress.bench.tables.TablesBench "$mode" \
    2>&1 | grep -E '^(memory|data-dir|grpc)' || true
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"

#!/usr/bin/env bash
# System benchmark 5: the registry at scale. One App watches a registry holding BORDERS announcements x 8 IPs
# (published by bench ScaleRegistryMain through YdbBorderRegistry, one session each, against the embedded
# node). Prints: App RSS and heap after GC with an empty registry and with all of them; App CPU per second
# while it just holds them (watch + 500 ms safety poll, each decoding every announcement); watch latency
# update() of one of them -> the App's /v1/tenants/scale/egress; and JMH SnapshotBuildBenchmark
# (decode + build of 1,000 payloads) for the snapshot build time.
#
#   ./mvnw -B -ntp -q -DskipTests package && ./mvnw -B -ntp -q -Pbench -pl bench -am package -DskipTests
#   bench/system/scale.sh          # BORDERS=1000 ROUNDS=40 JMH=1 DRIVER_SESSION_TIMEOUT=30 (seconds)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd); HERE="$ROOT/bench/system"
. "$ROOT/bench/lib/common.sh"
BORDERS=${BORDERS:-1000}; ROUNDS=${ROUNDS:-40}; COORD=18536; APP_PORT=18591
need_jars "$APP_JAR" "$COORD_JAR" "$BENCH_JAR"; need_tools curl jcmd
make_work system-scale
# Tenant "scale" is dedicated to the first IP of border-0500 (see ScaleRegistryMain.ipOf).
printf 'sharedPool: [10.1.0.1]\ntenants:\n  - id: scale\n    dedicatedIps: [10.3.0.1]\n' > "$WORK/tenants.yaml"
start_coord "$COORD"
start_app app1 "$APP_PORT" "$WORK/tenants.yaml" "$COORD"; A=$APP_PID
wait_http "http://127.0.0.1:$APP_PORT/actuator/health" 
sleep 10
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
cpu_per_s() { # pid seconds -> CPU ms per second of wall time
  local a b; a=$(cpu_ticks "$1"); sleep "$2"; b=$(cpu_ticks "$1")
  awk -v d=$((b - a)) -v s="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f ms/s", d * 1000 / hz / s }'
}
echo "load before: $(load_avg)"
echo "App, empty registry: RSS $(rss_mb $A) MB; CPU $(cpu_per_s $A 10); heap after GC $(heap_after_gc $A); RSS after GC $(rss_mb $A) MB"
java -Xmx1g -cp "$BENCH_JAR" dev.egress.bench.system.ScaleRegistryMain "grpc://127.0.0.1:$COORD/local" \
  "http://127.0.0.1:$APP_PORT" "$APP_TOKEN" "$BORDERS" 8 "$ROUNDS" 40 "${DRIVER_SESSION_TIMEOUT:-30}" > "$WORK/scale-main.out" 2> "$WORK/scale-main.err" & M=$!; PIDS+=($M)
for _ in $(seq 1 600); do grep -q HOLDING "$WORK/scale-main.out" && break; kill -0 $M 2>/dev/null || break; sleep 1; done
grep -v '^samples_ms\|HOLDING\|^[0-9][0-9]:' "$WORK/scale-main.out" || true
echo "driver session churn (its own sessions; not App): $(grep -c 'Ping timeout' "$WORK/scale-main.out" || true) ping timeouts, $(grep -c 'lost; registering again' "$WORK/scale-main.out" || true) sessions lost and re-registered; App watcher WARNs: $(grep -c ' WARN .*[Ss]ession' "$WORK/app-app1.log" || true)"
grep -q HOLDING "$WORK/scale-main.out" || { echo "driver failed:"; tail -20 "$WORK/scale-main.err"; exit 1; }
grep '^samples_ms' "$WORK/scale-main.out" > "${OUT:-$HERE/results}/scale-watch-samples.txt" || true
echo "App, $BORDERS x 8 IPs: RSS $(rss_mb $A) MB; CPU while holding $(cpu_per_s $A 10) (load $(load_avg)); heap after GC $(heap_after_gc $A); RSS after GC $(rss_mb $A) MB"
echo "/v1/egress/ips: $(curl -s -o /dev/null -w '%{size_download} B in %{time_total} s' -H "Authorization: Bearer $APP_TOKEN" "http://127.0.0.1:$APP_PORT/v1/egress/ips")"
wait $M || true
if [[ ${JMH:-1} == 1 ]]; then
  echo "JMH SnapshotBuildBenchmark (load $(load_avg)):"
  java -jar "$BENCH_JAR" 'SnapshotBuildBenchmark' -f 1 -wi 3 -i 5 -w 1s -r 1s 2>&1 | grep -E '^Benchmark|SnapshotBuild'
fi
echo "load at the end: $(load_avg); logs: $WORK"

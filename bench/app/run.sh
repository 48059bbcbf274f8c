#!/usr/bin/env bash
# App dispatch benchmark: throughput and added latency of App -> Border -> sink against a direct POST to
# the sink (and against the Border alone, to isolate App's share), at fixed concurrency, in the same run (same sink, same client, same machine). Not part of
# `verify`. Everything listens on loopback only.
#
#   ./mvnw -B -ntp -pl app-service,ydb-embedded -am package -DskipTests   # app, border, coord jars
#   bench/app/run.sh               # CONNS="1 8 32" DUR=20s THREADS=2; PROFILE=1 records a JFR of App
#                                  # (15 s, from 25 s after start: during the warm-up) into the work dir
#
# Needs wrk, nginx, curl (apt-get install -y wrk nginx-light curl).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/bench/app"
POST="$ROOT/bench/lib/post.lua"   # one POST script for every path, chosen by MODE
DUR=${DUR:-20s}; CONNS=${CONNS:-"1 8 32"}; THREADS=${THREADS:-2}
export SINK_PORT=${SINK_PORT:-19080} APP_TOKEN=bench-api-token
APP_PORT=${APP_PORT:-19090}; BORDER_PORT=${BORDER_PORT:-19181}; COORD_PORT=${COORD_PORT:-19136}
export SRC_IP=${SRC_IP:-127.0.0.3} INTERNAL_TOKEN=bench-internal-token
APP_JAR="$ROOT/app-service/target/app-service.jar"
BORDER_JAR="$ROOT/border-service/target/border-service.jar"
COORD_JAR="$ROOT/ydb-embedded/target/ydb-embedded.jar"
for jar in "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"; do
  [[ -f $jar ]] || { echo "missing $jar: ./mvnw -B -ntp -pl app-service,ydb-embedded -am package -DskipTests" >&2; exit 1; }
done
command -v wrk nginx curl >/dev/null || { echo "needs wrk, nginx, curl (apt-get install -y wrk nginx-light curl)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/app-bench.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

cat > "$WORK/tenants.yaml" <<YAML
sharedPool: [127.0.0.9]
tenants:
  - id: acme
    dedicatedIps: [$SRC_IP]
YAML

mkdir -p "$WORK/nginx-body"
sed -e "s#@WORK@#$WORK#g" -e "s#@SINK_PORT@#$SINK_PORT#g" "$HERE/nginx.conf.template" > "$WORK/nginx.conf"
nginx -c "$WORK/nginx.conf" -p "$WORK" & PIDS+=($!)
java -jar "$COORD_JAR" --port "$COORD_PORT" > "$WORK/coord.log" 2>&1 & PIDS+=($!)
java -Xmx512m -jar "$BORDER_JAR" --server.port="$BORDER_PORT" --egress.border.id=border-bench-app \
  --egress.border.ips="$SRC_IP" --egress.border.allow-loopback-ips=true --egress.border.advertised-url="http://127.0.0.1:$BORDER_PORT" \
  --egress.security.internal-token="$INTERNAL_TOKEN" --egress.security.insecure-local=true \
  --egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535 \
  --egress.registry.connection-string="grpc://127.0.0.1:$COORD_PORT/local" > "$WORK/border.log" 2>&1 & PIDS+=($!)
APP_JFR=()
[[ ${PROFILE:-0} == 1 ]] && APP_JFR=(-XX:StartFlightRecording=filename="$WORK/app.jfr",settings=profile,delay=25s,duration=15s)
java -Xmx512m "${APP_JFR[@]}" -jar "$APP_JAR" --server.port="$APP_PORT" --egress.tenants.file="$WORK/tenants.yaml" \
  --egress.security.api-tokens="$APP_TOKEN" --egress.security.internal-token="$INTERNAL_TOKEN" \
  --egress.security.insecure-local=true \
  --egress.registry.connection-string="grpc://127.0.0.1:$COORD_PORT/local" > "$WORK/app.log" 2>&1 & PIDS+=($!)

for _ in $(seq 1 240); do curl -s -o /dev/null "http://127.0.0.1:$SINK_PORT/" && break; sleep 0.5; done
for _ in $(seq 1 240); do
  curl -s -H "Authorization: Bearer $APP_TOKEN" "http://127.0.0.1:$APP_PORT/v1/tenants/acme/egress" 2>/dev/null \
    | grep -q '"available":true' && break
  sleep 0.5
done
curl -s -H "Authorization: Bearer $APP_TOKEN" "http://127.0.0.1:$APP_PORT/v1/tenants/acme/egress" | grep -q '"available":true' \
  || { echo "App never saw the Border; logs in $WORK" >&2; exit 1; }
echo "one delivery: $(curl -s -H "Authorization: Bearer $APP_TOKEN" -H 'Content-Type: application/json' \
  -d "{\"tenantId\":\"acme\",\"url\":\"http://127.0.0.1:$SINK_PORT/hook\",\"payload\":{\"n\":1}}" \
  "http://127.0.0.1:$APP_PORT/v1/deliveries")"

run_wrk() { # mode url conn -> table row
  local out rps p50 p99 errs non2xx threads=$(( $3 < THREADS ? $3 : THREADS ))  # wrk needs conns >= threads
  out=$(MODE=$1 wrk -t"$threads" -c"$3" -d"$DUR" --latency -s "$POST" "$2" 2>&1)
  echo "$out" > "$WORK/wrk-$1-c$3.txt"
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '/^ +50%/ {print $2}' <<<"$out")
  p99=$(awk '/^ +99%/ {print $2}' <<<"$out")
  errs=$(awk '/Socket errors|Non-2xx/ {printf "%s ", $0}' <<<"$out")
  non2xx=$(awk '/^non-2xx:/ {print $2}' <<<"$out")
  printf '%-6s %5s %10s %9s %9s  %s%s\n' "$1" "$3" "$rps" "$p50" "$p99" "${errs:-}" "non-2xx=${non2xx:-?}"
}

echo "load average before: $(cut -d" " -f1-3 /proc/loadavg)"
echo "== warm-up (JIT, pools): 20s through App =="
MODE=app wrk -t"$THREADS" -c8 -d20s -s "$POST" "http://127.0.0.1:$APP_PORT" > /dev/null
MODE=direct wrk -t"$THREADS" -c8 -d5s -s "$POST" "http://127.0.0.1:$SINK_PORT" > /dev/null

echo
echo "== wrk -t$THREADS -d$DUR per row, POST ~100 B JSON; sink nginx 127.0.0.1:$SINK_PORT; App -> Border ($SRC_IP) -> sink =="
printf '%-6s %5s %10s %9s %9s  %s\n' path conns req/s p50 p99 notes
for c in $CONNS; do
  run_wrk direct "http://127.0.0.1:$SINK_PORT" "$c"
  run_wrk border "http://127.0.0.1:$BORDER_PORT" "$c"
  run_wrk app "http://127.0.0.1:$APP_PORT" "$c"
done

echo
echo "App delivery counters:"
curl -s "http://127.0.0.1:$APP_PORT/actuator/prometheus" | grep -E '^egress_deliveries_seconds_count|^egress_delivery_attempts_total' || true
echo "load average at the end: $(cut -d" " -f1-3 /proc/loadavg)"
echo "logs and raw wrk output: $WORK"

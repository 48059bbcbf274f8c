#!/usr/bin/env bash
# App -> Border -> nginx after a long warm-up (JIT), optionally with a JFR recording of App.
#   bench/app/warmed.sh            # 35 s warm-up, then a 25 s measured wrk run (8 connections)
#   PROFILE=1 bench/app/warmed.sh  # also records /tmp/app-warmed.jfr during the measured run
# Needs the jars (./mvnw -B -ntp -DskipTests package), wrk, nginx, curl. Loopback only; stops by itself.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
need_tools wrk nginx curl
make_work app-warmed
WARMUP=${WARMUP:-35}
start_sink 26280
start_coord 26136
start_border border-a 26181 127.0.0.2 26136
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.2]\n' > "$WORK/tenants.yaml"
if [[ ${PROFILE:-0} == 1 ]]; then
  APP_JVM_OPTS=(-XX:FlightRecorderOptions=stackdepth=256
    "-XX:StartFlightRecording=filename=/tmp/app-warmed.jfr,settings=profile,delay=$((WARMUP + 5))s,duration=20s")
fi
start_app app 26080 "$WORK/tenants.yaml" 26136
wait_ready http://127.0.0.1:26181
wait_ready http://127.0.0.1:26080
wait_tenant_available http://127.0.0.1:26080 acme
echo "warm-up ${WARMUP}s (load $(load_avg))"
MODE=app SINK_PORT=26280 wrk -t2 -c8 -d"${WARMUP}s" -s "$ROOT/bench/lib/post.lua" http://127.0.0.1:26080 \
  | grep -E "Requests/sec|pcts"
echo "measured 25s (load $(load_avg))"
MODE=app SINK_PORT=26280 wrk -t2 -c8 -d25s --latency -s "$ROOT/bench/lib/post.lua" http://127.0.0.1:26080 | head -14

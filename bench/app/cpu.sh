#!/usr/bin/env bash
# CPU per request of each hop, from /proc: (utime + stime) of the process over a measured wrk run, divided by
# the requests that run completed. Unlike req/s this barely moves when other work shares the machine, so it is
# the figure to compare before/after a change. Loopback only; every process is stopped at exit.
#
#   ./mvnw -B -ntp -pl app-service,ydb-embedded -am package -DskipTests
#   bench/app/cpu.sh                 # plaintext (insecure-local); TLS=1: Borders on https, App on mutual TLS
#   CONNS=8 DUR=20 WARMUP=20 RUNS=3 bench/app/cpu.sh
#
# Rows: "border" = wrk -> Border forward API -> nginx; "app" = wrk -> App /v1/deliveries -> Border -> nginx.
# For each: req/s, and µs of CPU per request in App, in the Border and in nginx (the sink).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
need_tools wrk nginx curl
make_work app-cpu
# Extra JVM options for App only, e.g. APP_JAVA_OPTS="-agentpath:/path/libasyncProfiler.so=start,event=itimer,file=/tmp/app.collapsed"
read -r -a APP_JVM_OPTS <<< "${APP_JAVA_OPTS:-}"
CONNS=${CONNS:-8}; DUR=${DUR:-20}; WARMUP=${WARMUP:-20}; RUNS=${RUNS:-3}; TLS=${TLS:-0}
SINK=27280; COORD=27136; BPORT=27181; APORT=27080
export SINK_PORT=$SINK SRC_IP=127.0.0.2
start_sink "$SINK"
start_coord "$COORD"
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.2]\n' > "$WORK/tenants.yaml"
if [[ $TLS == 1 ]]; then
  make_pki border-a@127.0.0.2 app-bench
  start_border_tls border-a "$BPORT" 127.0.0.2 "$COORD"; BURL=https://127.0.0.1:$BPORT
  start_app_tls bench "$APORT" "$WORK/tenants.yaml" "$COORD"
else
  start_border border-a "$BPORT" 127.0.0.2 "$COORD"; BURL=http://127.0.0.1:$BPORT
  start_app bench "$APORT" "$WORK/tenants.yaml" "$COORD"
fi
NGINX_PID=$(cat "$WORK/nginx-$SINK.pid" 2>/dev/null || true)
wait_ready "$BURL"
wait_ready "http://127.0.0.1:$APORT"
wait_tenant_available "http://127.0.0.1:$APORT" acme

nginx_pids() { pgrep -f "nginx-$SINK.conf" | tr '\n' ' '; }
HZ=$(getconf CLK_TCK)

measure() { # mode url -> row
  local a0 b0 n0 out reqs a1 b1 n1 rps
  a0=$(ticks "$APP_PID"); b0=$(ticks "$BORDER_PID"); n0=$(ticks $(nginx_pids))
  out=$(MODE=$1 wrk -t2 -c"$CONNS" -d"${DUR}s" --latency -s "$ROOT/bench/lib/post.lua" "$2" 2>&1)
  a1=$(ticks "$APP_PID"); b1=$(ticks "$BORDER_PID"); n1=$(ticks $(nginx_pids))
  reqs=$(awk '/requests in/ {print $1}' <<<"$out"); rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  local bad; bad=$(awk '/^non-2xx:/ {print $2}' <<<"$out")
  awk -v m="$1" -v r="$reqs" -v s="$rps" -v a=$((a1 - a0)) -v b=$((b1 - b0)) -v n=$((n1 - n0)) -v hz="$HZ" -v bad="$bad" \
    -v p50="$(awk '/^ +50%/ {print $2}' <<<"$out")" -v p99="$(awk '/^ +99%/ {print $2}' <<<"$out")" \
    'BEGIN { f = 1e6 / hz / r; printf "%-7s %9s %8s %8s %8s %10.0f %10.0f %9.0f %6s\n", m, r, s, p50, p99, a * f, b * f, n * f, bad }'
}

echo "load average before: $(load_avg); TLS=$TLS conns=$CONNS duration=${DUR}s runs=$RUNS"
echo "warm-up ${WARMUP}s through App, 5s to the Border"
MODE=app wrk -t2 -c"$CONNS" -d"${WARMUP}s" -s "$ROOT/bench/lib/post.lua" "http://127.0.0.1:$APORT" > /dev/null
[[ $TLS == 1 ]] || MODE=border wrk -t2 -c"$CONNS" -d5s -s "$ROOT/bench/lib/post.lua" "$BURL" > /dev/null
printf '%-7s %9s %8s %8s %8s %10s %10s %9s %6s\n' path requests req/s p50 p99 'App µs/rq' 'Bord µs/rq' 'nginx µs' non2xx
# PROFILE=/path/libasyncProfiler.so: CPU samples of App (and the Border) during the last App row (after the JIT has settled), as collapsed
# stacks (flame-graph input) in the work dir. Loaded into the running JVMs, so start-up and warm-up are left out.
profile() { # start|stop
  profile_jvm "$1" "$APP_PID" "$WORK/app.collapsed"
  profile_jvm "$1" "$BORDER_PID" "$WORK/border.collapsed"
}
for run in $(seq 1 "$RUNS"); do
  # The Border's forward API needs App's client certificate under TLS=1; wrk cannot present one, so only App's row.
  [[ $TLS == 1 ]] || measure border "$BURL"
  [[ $run == "$RUNS" ]] && profile start
  measure app "http://127.0.0.1:$APORT"
  [[ $run == "$RUNS" ]] && profile stop
done
echo "RSS after: App $(rss_mb "$APP_PID") MB, Border $(rss_mb "$BORDER_PID") MB; load average after: $(load_avg)"
echo "logs: $WORK"

#!/usr/bin/env bash
# Slow targets: many concurrent deliveries for ONE dedicated tenant to destinations that answer after a delay.
#   wrk -c$CONC (bench/lib/slow.lua) -> App POST /v1/deliveries (tenant acme, dedicated 127.0.0.3)
#     -> one Border -> SlowSinkMain (bench jar): $DESTS destinations (127.0.1.1-127.0.1.10, ports from 19100),
#        each answering 200 $DELAY_MS after reading the request
# Prints req/s, p50/p90/p99, answers by status (errors = non-2xx + wrk socket errors), the most requests the sink
# held at once, established connections App -> Border and Border -> sink, and the RSS (VmRSS, /proc) of App and
# Border: max while loaded, and after the run.
#
#   ./mvnw -B -ntp -q -DskipTests package && ./mvnw -B -ntp -q -Pbench -pl bench -am package -DskipTests
#   bench/system/slow-targets.sh                 # SCENARIO=1k: CONC=1000 DESTS=20, default settings
#   SCENARIO=5k bench/system/slow-targets.sh     # CONC=5000 DESTS=100 with the settings below (docs/configuration/limits.md)
# TLS=1 (the default, as the platform runs): the trust chain (signed announcements, https Border, App -> Border mutual
# TLS); TLS=0: insecure-local (plaintext h2c, unsigned), as this script ran before issue 27.
# Knobs: CONC DESTS DELAY_MS DUR WARMUP THREADS HEAP_SAMPLE (0: no mid-run full GC for the heap figure); APP_ARGS / BORDER_ARGS (extra --properties, space separated);
# APP_JAR / BORDER_JAR (e.g. jars of another commit, for before/after).
# PROFILE=/path/libasyncProfiler.so: CPU samples (itimer, 1 ms) of App and the Border during the measured run, as
# collapsed stacks (flame-graph input) app.collapsed / border.collapsed in the work dir; warm-up is left out.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
SCENARIO=${SCENARIO:-1k}
case $SCENARIO in
  1k) CONC=${CONC:-1000}; DESTS=${DESTS:-20}; SCENARIO_APP=(); SCENARIO_BORDER=() ;;
  # Documented settings for 5,000 in flight for one tenant on one IP (docs/configuration/limits.md).
  5k) CONC=${CONC:-5000}; DESTS=${DESTS:-100}
      SCENARIO_APP=(--egress.dispatch.max-in-flight=8192 --egress.dispatch.max-in-flight-per-tenant=8192)
      SCENARIO_BORDER=(--egress.limits.max-concurrency-per-ip=8192) ;;
  *) echo "SCENARIO: 1k or 5k" >&2; exit 2 ;;
esac
DELAY_MS=${DELAY_MS:-1000}; DUR=${DUR:-30s}; WARMUP=${WARMUP:-15s}; THREADS=${THREADS:-2}
COORD=${COORD:-18436}; BORDER_PORT=${BORDER_PORT:-18481}; APP_PORT=${APP_PORT:-18490}; SINK_BASE=${SINK_BASE:-19100}
read -r -a EXTRA_APP <<<"${APP_ARGS:-}"; read -r -a EXTRA_BORDER <<<"${BORDER_ARGS:-}"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR" "$BENCH_JAR"; need_tools wrk curl
make_work system-slow
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
[[ $(ulimit -n) -gt $((CONC * 3)) ]] || echo "warning: ulimit -n $(ulimit -n) is low for $CONC connections" >&2

# DESTS destinations over 10 addresses 127.0.1.1-127.0.1.10 (ports SINK_BASE..), so port space is not shared.
per_ip=$(( (DESTS + 9) / 10 )); specs=(); dest_list=""
for ((i = 0; i < DESTS; i++)); do
  dest_list+="${dest_list:+,}127.0.1.$((i / per_ip + 1)):$((SINK_BASE + i % per_ip))"
done
for ((ip = 1; ip <= (DESTS + per_ip - 1) / per_ip; ip++)); do specs+=("127.0.1.$ip:$SINK_BASE-$((SINK_BASE + per_ip - 1))"); done
java -Xmx256m -cp "$BENCH_JAR" dev.egress.bench.system.SlowSinkMain "$DELAY_MS" "${specs[@]}" > "$WORK/sink.out" 2>&1 & SINK=$!; PIDS+=($SINK)

cat > "$WORK/tenants.yaml" <<YAML
tenants:
  - id: acme
    dedicatedIps: [127.0.0.3]
YAML
start_coord "$COORD"
# The Border's SSRF guard denies loopback: allow the sink's range (a second value of the list property).
BORDER_START=start_border; APP_START=start_app; BORDER_SCHEME=http
if [[ ${TLS:-1} == 1 ]]; then
  make_pki border-a@127.0.0.3 app-app1; BORDER_START=start_border_tls; APP_START=start_app_tls; BORDER_SCHEME=https
fi
"$BORDER_START" border-a "$BORDER_PORT" 127.0.0.3 "$COORD" --egress.ssrf.allowed-ranges=127.0.1.0/24:1024-65535 \
  "${SCENARIO_BORDER[@]}" "${EXTRA_BORDER[@]}"; B=$BORDER_PID
"$APP_START" app1 "$APP_PORT" "$WORK/tenants.yaml" "$COORD" "${SCENARIO_APP[@]}" "${EXTRA_APP[@]}"; A=$APP_PID
wait_ready "$BORDER_SCHEME://127.0.0.1:$BORDER_PORT"; wait_ready "http://127.0.0.1:$APP_PORT"
wait_tenant_available "http://127.0.0.1:$APP_PORT" acme
first=${dest_list%%,*}
check=$(curl -s -m 90 -H "Authorization: Bearer $APP_TOKEN" -H 'Content-Type: application/json' \
  -d "{\"tenantId\":\"acme\",\"url\":\"http://$first/hook\",\"payload\":{}}" "http://127.0.0.1:$APP_PORT/v1/deliveries" || true)
grep -q '"status":200' <<<"$check" || { echo "a single delivery did not reach the sink: $check" >&2; exit 1; }

vmrss() { awk '/^VmRSS/ {printf "%.0f", $2/1024}' "/proc/$1/status" 2>/dev/null; }
sample() { # seconds -> "appMax borderMax" (VmRSS MB, every second; bounded loop)
  local a=0 b=0 r; for _ in $(seq 1 "$1"); do
    r=$(vmrss "$A"); [[ ${r:-0} -gt $a ]] && a=$r; r=$(vmrss "$B"); [[ ${r:-0} -gt $b ]] && b=$r; sleep 1; done
  echo "$a $b"
}
conns() { ss -Htn state established "( $1 )" 2>/dev/null | wc -l; }
run_wrk() { # duration
  DESTS="$dest_list" wrk -t"$THREADS" -c"$CONC" -d"$1" --timeout 60s --latency -s "$ROOT/bench/lib/slow.lua" \
    "http://127.0.0.1:$APP_PORT" 2>&1 || true
}
echo "trust chain: $([[ ${TLS:-1} == 1 ]] && echo "on (App -> Border mutual TLS; $(grep -ho 'TLS provider: .*' "$WORK/app-app1.log" | head -1))" || echo "off (insecure-local)")"
echo "scenario $SCENARIO: $CONC concurrent deliveries of tenant acme (127.0.0.3) over $DESTS destinations answering after ${DELAY_MS} ms"
echo "App: ${SCENARIO_APP[*]} ${EXTRA_APP[*]}"; echo "Border: ${SCENARIO_BORDER[*]} ${EXTRA_BORDER[*]}"
echo "idle VmRSS: App $(vmrss $A) MB, Border $(vmrss $B) MB; heap after GC: App $(heap_after_gc $A); Border $(heap_after_gc $B); load $(load_avg)"
echo "== warm-up $WARMUP =="
run_wrk "$WARMUP" > "$WORK/warmup.out"; grep -E 'Requests/sec|answers|Socket' "$WORK/warmup.out" || true
sleep 3
secs=${DUR%s}
la=$(load_avg)
sample $((secs - 2)) > "$WORK/rss" & S=$!
in_flight() { curl -s "http://127.0.0.1:$APP_PORT/actuator/prometheus" | awk '/^egress_dispatch_in_flight/ {printf "%d", $2}'; }
( sleep $((secs / 2))
  echo "mid-run established: App->Border $(conns "dport = :$BORDER_PORT"), Border->sink $(conns "src 127.0.0.3 and dport >= :$SINK_BASE and dport < :$((SINK_BASE + per_ip))"); in flight in App $(in_flight)"
  # Live heap with the deliveries held (memory per in-flight call = difference to idle / in flight). It forces a
  # full GC in both JVMs, which shows in the latency tail: HEAP_SAMPLE=0 leaves it out.
  [[ ${HEAP_SAMPLE:-1} == 0 ]] ||
    echo "mid-run heap after GC: App $(heap_after_gc $A); Border $(heap_after_gc $B); in flight in App $(in_flight)" ) > "$WORK/mid" & M=$!
profile() { # start|stop: async-profiler loaded into the running JVMs
  [[ -n ${PROFILE:-} ]] || return 0
  local pid name
  for name in app border; do
    pid=$A; [[ $name == border ]] && pid=$B
    if [[ $1 == start ]]; then
      jcmd "$pid" JVMTI.agent_load "$PROFILE" '"start,event=itimer,interval=1ms"' > /dev/null
    else
      jcmd "$pid" JVMTI.agent_load "$PROFILE" "\"stop,file=$WORK/$name.collapsed,collapsed\"" > /dev/null
    fi
  done
}
echo "== wrk -t$THREADS -c$CONC -d$DUR --timeout 60s =="
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; } # utime+stime, clock ticks
a0=$(ticks "$A"); b0=$(ticks "$B")
profile start
out=$(run_wrk "$DUR"); wait $S $M
a1=$(ticks "$A"); b1=$(ticks "$B")
profile stop
echo "$out" | grep -E 'Requests/sec|requests in|answers|pcts|Socket errors|Non-2xx'
cat "$WORK/mid"
# CPU per request (what wrk counted as completed, 2xx or not): robust on a shared machine, unlike req/s.
done_rq=$(echo "$out" | awk '/requests in/ {print $1}')
awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) -v n="${done_rq:-0}" -v hz="$(getconf CLK_TCK)" 'BEGIN {
  if (n > 0) printf "CPU per request: App %.0f us, Border %.0f us (%d requests; App %.1f s, Border %.1f s of CPU)\n",
    a / hz / n * 1e6, b / hz / n * 1e6, n, a / hz, b / hz }'
read -r ra rb < "$WORK/rss"
echo "max VmRSS under load: App $ra MB, Border $rb MB; after: App $(vmrss $A) MB, Border $(vmrss $B) MB; load $la -> $(load_avg)"
echo "sink (peak held = in flight at the target):"; tail -n $((secs / 5 + 1)) "$WORK/sink.out"
curl -s "http://127.0.0.1:$APP_PORT/actuator/prometheus" | grep -E '^egress_dispatch_admission_refused_total' || true
curl -s "http://127.0.0.1:$BORDER_PORT/actuator/prometheus" | grep -E '^border_egress_requests_total' || true
echo "logs: $WORK"

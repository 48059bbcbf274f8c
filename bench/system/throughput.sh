#!/usr/bin/env bash
# System benchmark 1 (+ memory under load): the same webhook POST along four paths, same run, same client
# (wrk --latency, bench/lib/post.lua), fixed concurrency, one nginx sink on 127.0.0.1:
#   direct  wrk -> sink
#   border  wrk -> Border /internal/v1/egress (source 127.0.0.2) -> sink
#   app     wrk -> App /v1/deliveries -> Border (tenant acme, dedicated 127.0.0.3) -> sink
#   squid   wrk -> Squid (tcp_outgoing_address 127.0.0.2) -> sink   (last: it exhausts the ports)
# Prints req/s, p50/p99/p99.9, ratios, RSS of App and Border under load and heap after GC; writes
# $OUT/throughput-*.txt (raw wrk output with the percentile series used by plot.py).
#
#   ./mvnw -B -ntp -q -DskipTests package
#   bench/system/throughput.sh        # CONN=16 THREADS=2 DUR=20s OUT=bench/system/results
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd); HERE="$ROOT/bench/system"
. "$ROOT/bench/lib/common.sh"
CONN=${CONN:-16}; THREADS=${THREADS:-2}; DUR=${DUR:-20s}; OUT=${OUT:-$HERE/results}
export SINK_PORT=${SINK_PORT:-18280}; COORD=${COORD:-18236}; BORDER_PORT=18281; APP_PORT=18290; SQUID_PORT=18228
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"; need_tools wrk nginx squid curl jcmd
make_work system-throughput; mkdir -p "$OUT"

cat > "$WORK/tenants.yaml" <<YAML
sharedPool: [127.0.0.2]
tenants:
  - id: acme
    dedicatedIps: [127.0.0.3]
YAML
start_sink "$SINK_PORT"
start_coord "$COORD"
start_border border-a "$BORDER_PORT" 127.0.0.2,127.0.0.3 "$COORD"; B=$BORDER_PID
start_app app1 "$APP_PORT" "$WORK/tenants.yaml" "$COORD"; A=$APP_PID
wait_ready "http://127.0.0.1:$BORDER_PORT"; wait_ready "http://127.0.0.1:$APP_PORT"
wait_tenant_available "http://127.0.0.1:$APP_PORT" acme
start_squid "$SQUID_PORT" 127.0.0.2 "$SINK_PORT"
echo "idle RSS: App $(rss_mb $A) MB, Border $(rss_mb $B) MB; heap after GC: App $(heap_after_gc $A); Border $(heap_after_gc $B)"

url_of() { case $1 in direct) echo "http://127.0.0.1:$SINK_PORT";; border) echo "http://127.0.0.1:$BORDER_PORT";;
  app) echo "http://127.0.0.1:$APP_PORT";; squid) echo "http://127.0.0.1:$SQUID_PORT";; esac; }
sample_rss() { # pid seconds -> max RSS MB seen, sampled every second (bounded loop)
  local max=0 r; for _ in $(seq 1 "$2"); do r=$(rss_mb "$1"); [[ ${r:-0} -gt $max ]] && max=$r; sleep 1; done; echo "$max"
}
declare -A RPS P50 P99 P999
run() { # mode
  local la out mem=""; la=$(load_avg)
  local secs=${DUR%s}
  if [[ $1 == border || $1 == app ]]; then
    sample_rss "$B" $((secs - 2)) > "$WORK/rss-border-$1" & local s1=$!
    sample_rss "$A" $((secs - 2)) > "$WORK/rss-app-$1" & local s2=$!
  fi
  out=$(MODE=$1 SRC_IP=127.0.0.2 wrk -t"$THREADS" -c"$CONN" -d"$DUR" --latency -s "$ROOT/bench/lib/post.lua" "$(url_of "$1")" 2>&1 || true)
  if [[ $1 == border || $1 == app ]]; then wait $s1 $s2; mem="max RSS under load: Border $(cat "$WORK/rss-border-$1") MB, App $(cat "$WORK/rss-app-$1") MB"; fi
  { echo "load: $la -> $(load_avg)"; echo "$out"; } > "$OUT/throughput-$1.txt"
  RPS[$1]=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  P50[$1]=$(awk '/^pct 50 / {printf "%.2f", $3/1000}' <<<"$out")
  P99[$1]=$(awk '/^pct 99 / {printf "%.2f", $3/1000}' <<<"$out")
  P999[$1]=$(awk '/^pct 99.9 / {printf "%.2f", $3/1000}' <<<"$out")
  printf '%-7s %10s %9s %9s %9s  %-12s %-28s load %s -> %s  %s\n' "$1" "${RPS[$1]:-failed}" "${P50[$1]:-}" "${P99[$1]:-}" "${P999[$1]:-}" \
    "$(awk '/^non-2xx:/ {print "non-2xx=" $2}' <<<"$out")" "$(awk '/Socket errors/ {print $0}' <<<"$out" | tr -s ' ')" "$la" "$(cut -d' ' -f1 /proc/loadavg)" "$mem"
}

echo "== warm-up: 15 s Border, 15 s App, 5 s direct (load $(load_avg)) =="
MODE=border wrk -t"$THREADS" -c"$CONN" -d15s -s "$ROOT/bench/lib/post.lua" "$(url_of border)" > /dev/null
MODE=app wrk -t"$THREADS" -c"$CONN" -d15s -s "$ROOT/bench/lib/post.lua" "$(url_of app)" > /dev/null
MODE=direct wrk -t"$THREADS" -c"$CONN" -d5s -s "$ROOT/bench/lib/post.lua" "$(url_of direct)" > /dev/null
sleep 5
echo
echo "== wrk -t$THREADS -c$CONN -d$DUR --latency, POST ~100 B JSON; latencies in ms =="
printf '%-7s %10s %9s %9s %9s\n' path req/s p50 p99 p99.9
for m in direct border app squid; do run "$m"; done
echo "heap after GC, after the load: App $(heap_after_gc $A); Border $(heap_after_gc $B); RSS now App $(rss_mb $A) MB, Border $(rss_mb $B) MB"
echo
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.3f", a / b }'; }
echo "ratios (req/s): border/direct $(ratio "${RPS[border]}" "${RPS[direct]}"), app/direct $(ratio "${RPS[app]}" "${RPS[direct]}"), app/border $(ratio "${RPS[app]}" "${RPS[border]}"), border/squid $(ratio "${RPS[border]}" "${RPS[squid]:-}"), app/squid $(ratio "${RPS[app]}" "${RPS[squid]:-}")"
echo "ratios (p99): border/direct $(ratio "${P99[border]}" "${P99[direct]}"), app/direct $(ratio "${P99[app]}" "${P99[direct]}"), app/border $(ratio "${P99[app]}" "${P99[border]}")"
echo "squid commBind EADDRINUSE: $(grep -c 'Cannot bind socket' "$WORK/squid-cache.log" || true); TIME_WAIT to the sink: $(ss -Htan state time-wait "( dport = :$SINK_PORT )" | wc -l)"
curl -s "http://127.0.0.1:$APP_PORT/actuator/prometheus" | grep -E '^egress_delivery_attempts_total|^egress_deliveries_seconds_count' | head -5 || true
echo "load at the end: $(load_avg); logs: $WORK"

#!/usr/bin/env bash
# Border egress benchmark: one Border vs a direct call vs Squid (tcp_outgoing_address), all on loopback,
# same sink (nginx), same client (wrk + Lua POST), same run. Prints a table; not part of `verify`.
#
#   ./mvnw -B -ntp -pl border-service -am package -DskipTests   # builds both jars
#   bench/border/run.sh                                          # DUR=30s CONN=32 SLICES=6 SLICE=10s
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/bench/border"
POST="$ROOT/bench/lib/post.lua"   # one POST script for every path, chosen by MODE
DUR=${DUR:-30s}; CONN=${CONN:-32}; THREADS=${THREADS:-2}; SLICES=${SLICES:-6}; SLICE=${SLICE:-10s}
export SINK_PORT=${SINK_PORT:-18080} SRC_IP=${SRC_IP:-127.0.0.2} BORDER_TOKEN=bench-token
export INTERNAL_TOKEN=$BORDER_TOKEN   # what post.lua sends to the Border
BORDER_PORT=${BORDER_PORT:-18181}; SQUID_PORT=${SQUID_PORT:-13128}; COORD_PORT=${COORD_PORT:-12136}
BORDER_JAR="$ROOT/border-service/target/border-service.jar"
COORD_JAR="$ROOT/ydb-embedded/target/ydb-embedded.jar"
for jar in "$BORDER_JAR" "$COORD_JAR"; do
  [[ -f $jar ]] || { echo "missing $jar: ./mvnw -B -ntp -pl border-service -am package -DskipTests" >&2; exit 1; }
done
command -v wrk squid nginx >/dev/null || { echo "needs wrk, squid, nginx (apt-get install -y wrk squid nginx-light)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/border-bench.XXXXXX)
chmod 777 "$WORK"   # squid drops to the proxy user and writes its log here
PIDS=()
cleanup() {
  [[ -f $WORK/squid.pid ]] && squid -f "$WORK/squid.conf" -k shutdown 2>/dev/null || true
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

render() { sed -e "s#@WORK@#$WORK#g" -e "s#@SINK_PORT@#$SINK_PORT#g" -e "s#@SQUID_PORT@#$SQUID_PORT#g" -e "s#@SRC_IP@#$SRC_IP#g" "$1"; }
wait_http() { for _ in $(seq 1 240); do curl -s -o /dev/null "$1" && return 0; sleep 0.5; done; echo "timeout waiting for $1" >&2; exit 1; }
time_wait() { # TIME_WAIT sockets towards the sink
  ss -Htan state time-wait "( dport = :$SINK_PORT )" 2>/dev/null | wc -l
}

mkdir -p "$WORK/nginx-body"
render "$HERE/nginx.conf.template" > "$WORK/nginx.conf"
nginx -c "$WORK/nginx.conf" -p "$WORK" & PIDS+=($!)
java -jar "$COORD_JAR" --port "$COORD_PORT" > "$WORK/coord.log" 2>&1 & PIDS+=($!)
java -Xmx512m -jar "$BORDER_JAR" --server.port="$BORDER_PORT" --egress.border.id=border-bench \
  --egress.border.ips="$SRC_IP" --egress.border.allow-loopback-ips=true --egress.border.advertised-url="http://127.0.0.1:$BORDER_PORT" \
  --egress.security.internal-token="$BORDER_TOKEN" --egress.security.insecure-local=true --egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535 \
  --egress.registry.connection-string="grpc://127.0.0.1:$COORD_PORT/local" > "$WORK/border.log" 2>&1 & PIDS+=($!)
render "$HERE/squid.conf.template" > "$WORK/squid.conf"
squid -f "$WORK/squid.conf" -N > "$WORK/squid.out" 2>&1 & PIDS+=($!)

wait_http "http://127.0.0.1:$SINK_PORT/"
for _ in $(seq 1 240); do
  [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$BORDER_PORT/actuator/health/readiness") == 200 ]] && break
  sleep 0.5
done
for _ in $(seq 1 60); do
  [[ $(curl -s -o /dev/null -w '%{http_code}' -x "http://127.0.0.1:$SQUID_PORT" "http://127.0.0.1:$SINK_PORT/") == 200 ]] && break
  sleep 0.5
done

# Which source address does each path use? (nginx sees it; check once through the logs of a probe)
run_wrk() { # mode url duration -> "rps avg p50 p99 errors"
  local out
  out=$(MODE=$1 wrk -t"$THREADS" -c"$CONN" -d"$3" --latency -s "$POST" "$2" 2>&1)
  echo "$out" > "$WORK/wrk-$1.txt"
  local rps avg p50 p99 errs non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  avg=$(awk '/^    Latency/ {print $2}' <<<"$out")
  p50=$(awk '/^ +50%/ {print $2}' <<<"$out")
  p99=$(awk '/^ +99%/ {print $2}' <<<"$out")
  errs=$(awk '/Socket errors|Non-2xx/ {printf "%s ", $0}' <<<"$out")
  non2xx=$(awk '/^non-2xx:/ {print $2}' <<<"$out")
  printf '%-8s %10s %9s %9s %9s  %s%s (load %s)\n' "$1" "$rps" "$avg" "$p50" "$p99" "${errs:-}" "${non2xx:+non-2xx=$non2xx}" "$(cut -d' ' -f1 /proc/loadavg)"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores, shared with other builds)"
echo "== warm-up (JIT, pools) =="
MODE=border wrk -t"$THREADS" -c"$CONN" -d10s -s "$POST" "http://127.0.0.1:$BORDER_PORT" > /dev/null
MODE=direct wrk -t"$THREADS" -c"$CONN" -d5s -s "$POST" "http://127.0.0.1:$SINK_PORT" > /dev/null
sleep 65   # let the warm-up's TIME_WAIT sockets expire before measuring

echo
echo "== throughput: wrk -t$THREADS -c$CONN -d$DUR, POST ~100 B JSON, sink nginx on 127.0.0.1:$SINK_PORT, source $SRC_IP =="
printf '%-8s %10s %9s %9s %9s  %s\n' path req/s avg p50 p99 notes
run_wrk direct "http://127.0.0.1:$SINK_PORT" "$DUR"
run_wrk border "http://127.0.0.1:$BORDER_PORT" "$DUR"
sleep 65
run_wrk squid "http://127.0.0.1:$SQUID_PORT" "$DUR"
echo "TIME_WAIT towards the sink right after the squid run: $(time_wait)"
sleep 65

echo
echo "== sustained: $SLICES back-to-back slices of $SLICE each (req/s per slice, TIME_WAIT towards the sink after it) =="
for path in border squid; do
  line="$path:"
  for i in $(seq 1 "$SLICES"); do
    # A slice may fail outright once Squid has used up the source IP's ports: record it, keep going.
    if [[ $path == border ]]; then
      out=$(MODE=border wrk -t"$THREADS" -c"$CONN" -d"$SLICE" -s "$POST" "http://127.0.0.1:$BORDER_PORT" 2>&1 || true)
    else
      out=$(MODE=squid wrk -t"$THREADS" -c"$CONN" -d"$SLICE" -s "$POST" "http://127.0.0.1:$SQUID_PORT" 2>&1 || true)
    fi
    echo "$out" > "$WORK/wrk-$path-slice$i.txt"
    r=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    bad=$(awk '/Non-2xx/ {print $5} /^non-2xx:/ {print $2}' <<<"$out" | head -1)
    line="$line ${r:-failed}(tw=$(time_wait),bad=${bad:-0})"
  done
  echo "$line"
  if [[ $path == border ]]; then
    # Read now: after Squid's slices no loopback port may be left for curl.
    curl -s "http://127.0.0.1:$BORDER_PORT/actuator/prometheus" | grep -E '^border_egress_requests_total' > "$WORK/border-counters.txt" || true
    sleep 65
  fi
done

echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "squid: commBind EADDRINUSE on $SRC_IP: $(grep -c 'Cannot bind socket' "$WORK/squid-cache.log" || true)"
echo "Border egress counters:"
cat "$WORK/border-counters.txt"
echo "logs and raw wrk output: $WORK"

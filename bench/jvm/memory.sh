#!/usr/bin/env bash
# RSS and CPU per request of App and the Border under the fast-sink load, for given JVM options. Not part
# of `verify`; loopback only. One run: nginx sink, coordination node, one Border (source 127.0.0.3), one
# App; a warm-up through App, then two measured phases with wrk:
#   border  wrk -> Border /internal/v1/egress -> sink        (the Border at its own, higher, rate)
#   app     wrk -> App /v1/deliveries -> Border -> sink       (both services)
# Per phase and service: RSS at the end and the largest of 1 s samples (VmRSS), and CPU per request =
# (utime + stime from /proc/<pid>/stat over the phase) / requests wrk completed in it.
#
#   ./mvnw -B -ntp -pl app-service,ydb-embedded -am package -DskipTests
#   APP_OPTS="-Xmx512m" BORDER_OPTS="-Xmx512m" bench/jvm/memory.sh      # the JVM options under test
#   (default: the JVM options of run-local.sh; CONN=8 WARMUP=30 DUR=20; NMT=1 adds a native-memory summary)
#
# Needs wrk, nginx, curl (apt-get install -y wrk nginx-light curl).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
POST="$ROOT/bench/lib/post.lua"
CONN=${CONN:-8}; WARMUP=${WARMUP:-30}; DUR=${DUR:-20}
export SINK_PORT=${SINK_PORT:-19280} SRC_IP=127.0.0.3
APP_PORT=${APP_PORT:-19290}; BORDER_PORT=${BORDER_PORT:-19281}; COORD_PORT=${COORD_PORT:-19236}
DEFAULT_OPTS=$(sed -n 's/^DEFAULT_JAVA_OPTS="\(.*\)"$/\1/p' "$ROOT/run-local.sh")
read -r -a APP_JVM <<<"${APP_OPTS-$DEFAULT_OPTS}"
read -r -a BORDER_JVM <<<"${BORDER_OPTS-$DEFAULT_OPTS}"
NMT_OPT=()
[[ ${NMT:-0} == 1 ]] && NMT_OPT=(-XX:NativeMemoryTracking=summary)
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
need_tools wrk nginx curl
make_work jvm-memory
TICK=$(getconf CLK_TCK)

cat > "$WORK/tenants.yaml" <<YAML
sharedPool: [127.0.0.9]
tenants:
  - id: acme
    dedicatedIps: [$SRC_IP]
YAML

start_sink "$SINK_PORT"
start_coord "$COORD_PORT"
java "${BORDER_JVM[@]}" "${NMT_OPT[@]}" -jar "$BORDER_JAR" --server.port="$BORDER_PORT" --egress.border.id=border-jvm \
  --egress.border.ips="$SRC_IP" --egress.border.allow-loopback-ips=true --egress.border.advertised-url="http://127.0.0.1:$BORDER_PORT" \
  --egress.security.internal-token="$INTERNAL_TOKEN" --egress.security.insecure-local=true \
  --egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535 \
  --egress.registry.connection-string="grpc://127.0.0.1:$COORD_PORT/local" > "$WORK/border.log" 2>&1 &
BORDER_PID=$!; PIDS+=("$BORDER_PID")
java "${APP_JVM[@]}" "${NMT_OPT[@]}" -jar "$APP_JAR" --server.port="$APP_PORT" --egress.tenants.file="$WORK/tenants.yaml" \
  --egress.security.api-tokens="$APP_TOKEN" --egress.security.internal-token="$INTERNAL_TOKEN" \
  --egress.security.insecure-local=true \
  --egress.registry.connection-string="grpc://127.0.0.1:$COORD_PORT/local" > "$WORK/app.log" 2>&1 &
APP_PID=$!; PIDS+=("$APP_PID")
wait_ready "http://127.0.0.1:$BORDER_PORT"
wait_ready "http://127.0.0.1:$APP_PORT"
wait_tenant_available "http://127.0.0.1:$APP_PORT" acme

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # utime + stime

echo "app    JVM options: ${APP_JVM[*]:-(none)}"
echo "border JVM options: ${BORDER_JVM[*]:-(none)}"
echo "RSS after start: app $(( $(rss_kb "$APP_PID") / 1024 )) MB, border $(( $(rss_kb "$BORDER_PID") / 1024 )) MB"
echo "load average before: $(load_avg)"
MODE=app wrk -t2 -c"$CONN" -d"${WARMUP}s" -s "$POST" "http://127.0.0.1:$APP_PORT" > /dev/null
MODE=border wrk -t2 -c"$CONN" -d10s -s "$POST" "http://127.0.0.1:$BORDER_PORT" > /dev/null

phase() { # mode port
  local a0 b0 a1 b1 out reqs non2xx sampler
  : > "$WORK/rss-$1.txt"
  ( while :; do echo "$(rss_kb "$APP_PID") $(rss_kb "$BORDER_PID")" >> "$WORK/rss-$1.txt"; sleep 1; done ) &
  sampler=$!
  a0=$(cpu_ticks "$APP_PID"); b0=$(cpu_ticks "$BORDER_PID")
  out=$(MODE=$1 wrk -t2 -c"$CONN" -d"${DUR}s" --latency -s "$POST" "http://127.0.0.1:$2" 2>&1)
  a1=$(cpu_ticks "$APP_PID"); b1=$(cpu_ticks "$BORDER_PID")
  kill "$sampler"; wait "$sampler" 2>/dev/null || true
  echo "$(rss_kb "$APP_PID") $(rss_kb "$BORDER_PID")" >> "$WORK/rss-$1.txt"
  echo "$out" > "$WORK/wrk-$1.txt"
  reqs=$(awk '/requests in/ {print $1}' <<<"$out")
  non2xx=$(awk '/^non-2xx:/ {print $2}' <<<"$out")
  awk -v mode="$1" -v reqs="$reqs" -v non2xx="$non2xx" -v dur="$DUR" -v tick="$TICK" \
      -v da=$((a1 - a0)) -v db=$((b1 - b0)) -v load="$(load_avg)" '
    { if ($1 > ma) ma = $1; if ($2 > mb) mb = $2; ea = $1; eb = $2 }
    END {
      printf "%-6s %8d req %7.0f req/s non-2xx %s | App RSS max %4.0f end %4.0f MB, CPU %6.0f us/req | Border RSS max %4.0f end %4.0f MB, CPU %6.0f us/req | load %s\n",
        mode, reqs, reqs / dur, non2xx, ma / 1024, ea / 1024, da * 1e6 / tick / reqs, mb / 1024, eb / 1024, db * 1e6 / tick / reqs, load
    }' "$WORK/rss-$1.txt"
}
phase border "$BORDER_PORT"
phase app "$APP_PORT"
if [[ ${NMT:-0} == 1 ]]; then
  for p in "$APP_PID" "$BORDER_PID"; do
    echo "== NMT summary of pid $p =="; jcmd "$p" VM.native_memory summary | grep -E '^(Total|-) ' || true
  done
fi
for p in "$APP_PID" "$BORDER_PID"; do
  echo "code cache of pid $p: $(jcmd "$p" Compiler.codecache 2>/dev/null | grep -m1 -E 'size=' | tr -s ' ')"
  echo "heap of pid $p: $(jcmd "$p" GC.heap_info 2>/dev/null | grep -E 'total' | tr -s ' ' | tr '\n' ';')"
done
for p in "$APP_PID" "$BORDER_PID"; do   # common.sh's heap_after_gc reads G1's line only; print every space
  jcmd "$p" GC.run > /dev/null 2>&1 || true
  echo "heap of pid $p after a full GC: $(jcmd "$p" GC.heap_info 2>/dev/null | grep -E 'total' | tr -s ' ' | tr '\n' ';')"
done
echo "load average at the end: $(load_avg); logs: $WORK"

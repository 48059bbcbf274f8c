#!/usr/bin/env bash
# Fast from the first minute (issue 27): the time from the fork of `java` to 90 % of steady-state req/s.
# The measured service (SERVICE=app or border) is started last, once its neighbours run (nginx sink, the
# coordination node and, for App, a Border already warmed by 20 s of load of its own). As soon as it answers
# readiness 200, wrk drives it at CONNS connections for DUR seconds (App: POST /v1/deliveries, App -> Border ->
# nginx; Border: its forward API -> nginx), counting completed responses per wall-clock second
# (bench/lib/persecond.lua). Steady state is the mean of the last STEADY seconds; reported is the first second
# since the fork whose req/s reaches 90 % of it, with the time to ready and req/s after 10, 20, 30 and 60 s.
# Insecure-local mode by default; TLS=1 (SERVICE=app) runs the trust chain as the platform does (signed
# announcements, the Border on https, App -> Border mutual TLS), the Border then warmed by 20 s of load through a
# throwaway App (wrk cannot present App's certificate). The default JVM options of run-local.sh. Not part of
# `verify`; loopback only.
#
#   bench/jvm/warmup.sh                          # SERVICE=app LAUNCH=jar CONNS=8 DUR=90 STEADY=20
#   SERVICE=border bench/jvm/warmup.sh
#   LAUNCH=cds bench/jvm/warmup.sh               # as the image starts it: extracted jars + an AppCDS archive
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java LAUNCH=aot bench/jvm/warmup.sh
#                                                # JDK >= 25: an AOT cache (JEP 483/514/515) from a training run
#
# LAUNCH=jar: the fat jar (as run-local.sh runs it). LAUNCH=cds: extracted as the Dockerfile does, a dynamic
# archive trained by a start that exits at refresh, then -XX:SharedArchiveFile. LAUNCH=aot: extracted, then a
# training run with -XX:AOTCacheOutput that serves TRAIN seconds of the same load (TRAIN=0: exit at refresh,
# as an image build can train), then -XX:AOTCache. LAUNCH=local: as run-local.sh starts it (local/aot.sh: an AppCDS
# archive on Java 17-24, an AOT cache on 25+, each trained by a start that exits at refresh). OPTS replaces the JVM
# options; EXTRA_OPTS is added after them (tiered settings: EXTRA_OPTS="-XX:TieredStopAtLevel=1", say).
# Printed: req/s in each of the first 60 s after the fork and the 10th second / steady ratio (issue 36's row).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
SERVICE=${SERVICE:-app}; LAUNCH=${LAUNCH:-jar}; JAVA=${JAVA:-java}
CONNS=${CONNS:-8}; DUR=${DUR:-90}; STEADY=${STEADY:-20}; TRAIN=${TRAIN:-30}
SINK=19480; COORD=19436; BPORT=19481; APORT=19490
DEFAULT_OPTS=$(sed -n 's/^DEFAULT_JAVA_OPTS="\(.*\)"$/\1/p' "$ROOT/run-local.sh")
read -r -a JVM <<<"${OPTS-$DEFAULT_OPTS} ${EXTRA_OPTS:-}"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"; need_tools wrk nginx curl python3
make_work jvm-warmup
export SINK_PORT=$SINK SRC_IP=127.0.0.2 BENCH_LIB="$ROOT/bench/lib"
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.2]\n' > "$WORK/tenants.yaml"
REGISTRY="grpc://127.0.0.1:$COORD/local"
start_sink "$SINK"
start_coord "$COORD"

if [[ $SERVICE == app && ${TLS:-0} == 1 ]]; then
  make_pki border-a@127.0.0.2 app-warm app-measured
  start_border_tls border-a "$BPORT" 127.0.0.2 "$COORD"; wait_ready "https://127.0.0.1:$BPORT"
  # The neighbour is warm, so that the curve below is App's own: 20 s of load through a throwaway App.
  start_app_tls warm $(( APORT + 1 )) "$WORK/tenants.yaml" "$COORD"; warm=$APP_PID
  wait_ready "http://127.0.0.1:$(( APORT + 1 ))"; wait_tenant_available "http://127.0.0.1:$(( APORT + 1 ))" acme
  MODE=app wrk -t2 -c"$CONNS" -d20s -s "$ROOT/bench/lib/post.lua" "http://127.0.0.1:$(( APORT + 1 ))" > /dev/null
  kill "$warm"; wait "$warm" 2>/dev/null || true
  jar=$APP_JAR; port=$APORT; mode=app
  args=(--server.port="$APORT" --egress.tenants.file="$WORK/tenants.yaml" --egress.security.api-tokens="$APP_TOKEN"
    --egress.security.internal-token="$INTERNAL_TOKEN"
    --egress.trust.certificate="$WORK/pki/app-measured.pem" --egress.trust.private-key="$WORK/pki/app-measured-key.pem"
    --egress.trust.border-ca="$WORK/pki/ca.pem" --egress.registry.connection-string="$REGISTRY")
elif [[ $SERVICE == app ]]; then
  start_border border-a "$BPORT" 127.0.0.2 "$COORD"; wait_ready "http://127.0.0.1:$BPORT"
  # The neighbour is warm, so that the curve below is App's own.
  MODE=border wrk -t2 -c"$CONNS" -d20s -s "$ROOT/bench/lib/post.lua" "http://127.0.0.1:$BPORT" > /dev/null
  jar=$APP_JAR; port=$APORT; mode=app
  args=(--server.port="$APORT" --egress.tenants.file="$WORK/tenants.yaml" --egress.security.api-tokens="$APP_TOKEN"
    --egress.security.internal-token="$INTERNAL_TOKEN" --egress.security.insecure-local=true
    --egress.registry.connection-string="$REGISTRY")
else
  jar=$BORDER_JAR; port=$BPORT; mode=border
  args=(--server.port="$BPORT" --egress.border.id=border-a --egress.border.ips=127.0.0.2
    --egress.border.allow-loopback-ips=true --egress.border.advertised-url="http://127.0.0.1:$BPORT"
    --egress.security.insecure-local=true --egress.security.internal-token="$INTERNAL_TOKEN"
    --egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535 --egress.registry.connection-string="$REGISTRY")
fi
URL=http://127.0.0.1:$port

# The measured JVM's launch: the fat jar, or the extracted jar (CDS and AOT caches need plain jars).
target=(-jar "$jar")
if [[ $LAUNCH != jar ]]; then
  "$JAVA" -Djarmode=tools -jar "$jar" extract --destination "$WORK/$SERVICE" > /dev/null
  target=(-jar "$WORK/$SERVICE/$(basename "$jar")")
fi

wait_up() { # pid : readiness 200 of the measured service
  until [[ $(curl -s -o /dev/null -w '%{http_code}' "$URL/actuator/health/readiness") == 200 ]]; do
    kill -0 "$1" 2>/dev/null || { echo "$SERVICE exited; logs in $WORK" >&2; exit 1; }
    sleep 0.1
  done
}
train() { # extra JVM options of the training run; it serves TRAIN s of load (0: exits at refresh)
  local t0 pid; t0=$(date +%s%N)
  if [[ $TRAIN == 0 ]]; then
    "$JAVA" "${JVM[@]}" "$@" -Dspring.context.exit=onRefresh "${target[@]}" "${args[@]}" > "$WORK/train.log" 2>&1 || true
  else
    "$JAVA" "${JVM[@]}" "$@" "${target[@]}" "${args[@]}" > "$WORK/train.log" 2>&1 & pid=$!; PIDS+=("$pid")
    wait_up "$pid"
    MODE=$mode wrk -t2 -c"$CONNS" -d"${TRAIN}s" -s "$ROOT/bench/lib/post.lua" "$URL" > /dev/null
    kill "$pid"; wait "$pid" 2>/dev/null || true # the cache is written at exit
  fi
  echo "training run: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
cache=()
case $LAUNCH in
  jar) ;;
  cds) train -XX:ArchiveClassesAtExit="$WORK/$SERVICE.jsa"; cache=(-XX:SharedArchiveFile="$WORK/$SERVICE.jsa") ;;
  aot) train -XX:AOTCacheOutput="$WORK/$SERVICE.aot"; cache=(-XX:AOTCache="$WORK/$SERVICE.aot") ;;
  local)
    major=$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p'); TRAIN=0
    if (( major >= 25 )); then
      train -XX:AOTCacheOutput="$WORK/$SERVICE.aot"; cache=(-XX:AOTCache="$WORK/$SERVICE.aot")
    else
      train -XX:ArchiveClassesAtExit="$WORK/$SERVICE.jsa" -Xlog:cds=off; cache=(-XX:SharedArchiveFile="$WORK/$SERVICE.jsa")
    fi ;;
  *) echo "LAUNCH: $LAUNCH (expected: jar, cds, aot or local)" >&2; exit 1 ;;
esac
for f in "$WORK/$SERVICE.jsa" "$WORK/$SERVICE.aot"; do
  [[ -f $f ]] && echo "cache $(basename "$f"): $(( $(stat -c %s "$f") / 1048576 )) MB"
done
[[ ${#cache[@]} == 0 || -f ${cache[0]#*=} ]] || { echo "no cache written; see $WORK/train.log" >&2; exit 1; }

echo "service: $SERVICE; java: $("$JAVA" -version 2>&1 | head -1); launch: $LAUNCH; options: ${JVM[*]} ${cache[*]}"
echo "wrk -t2 -c$CONNS for ${DUR}s from readiness; load average before: $(load_avg)"
t0=$(date +%s.%N)
"$JAVA" "${JVM[@]}" "${cache[@]}" "${target[@]}" "${args[@]}" > "$WORK/$SERVICE.log" 2>&1 & pid=$!; PIDS+=("$pid")
wait_up "$pid"
ready=$(date +%s.%N)
# The process's CPU (utime + stime, clock ticks) at each second: on a shared machine the CPU a warm-up takes is
# the robust figure, the wall time depends on the run queue.
( while kill -0 "$pid" 2>/dev/null; do
    echo "$(date +%s) $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat")"; sleep 0.2
  done ) > "$WORK/cpu.out" 2>/dev/null & sampler=$!
MODE=$mode wrk -t2 -c"$CONNS" -d"${DUR}s" -s "$ROOT/bench/lib/persecond.lua" "$URL" > "$WORK/wrk.out"
kill "$sampler" 2>/dev/null || true
cpu=$(awk -v tick="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / tick}' "/proc/$pid/stat")
echo "load average after: $(load_avg); $SERVICE CPU over the run: $cpu s; non-2xx: $(awk '/^non-2xx:/ {print $2}' "$WORK/wrk.out")"
python3 - "$t0" "$ready" "$STEADY" "$WORK/wrk.out" "$WORK/cpu.out" "$(getconf CLK_TCK)" <<'PY'
import sys
t0, ready, steady = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
hz = float(sys.argv[6])
cpu = {}  # epoch second -> the process's CPU seconds at its last sample in that second
for line in open(sys.argv[5]):
    f = line.split()
    if len(f) == 2:
        cpu[int(f[0])] = int(f[1]) / hz
counts = {}
for line in open(sys.argv[4]):
    if line.startswith("second "):
        _, s, n = line.split()
        counts[int(s)] = int(n)
secs = sorted(counts)[1:-1]  # the first and last seconds are partial
if len(secs) <= steady:
    raise SystemExit("run shorter than STEADY")
mean = sum(counts[s] for s in secs[-steady:]) / steady
def since(s):  # end of that wall-clock second, in seconds since the fork of java
    return s + 1 - t0
first = next(s for s in secs if counts[s] >= 0.9 * mean)
print("ready after %.1f s; steady state (last %d s) %.0f req/s" % (ready - t0, steady, mean))
print("**90 %% of steady state after %.0f s** (the second ending %.1f s after the fork: %d req/s)"
      % (since(first), since(first), counts[first]))
# Issue 36's row: req/s in each of the first 60 s after the fork (0 before the first readiness 200), and the 10th
# second's share of steady state.
first60 = []
for k in range(1, 61):  # the second ending k s after the fork
    inside = [counts[s] for s in secs if k - 1 < since(s) <= k]
    first60.append(inside[0] if inside else 0)
print("first 60 s after the fork, req/s per second: " + " ".join(str(n) for n in first60))
if since(secs[-1]) >= 10:
    print("**10th second / steady state: %.2f** (%d / %.0f req/s)" % (first60[9] / mean, first60[9], mean))
for at in (10, 20, 30, 60):
    got = [counts[s] for s in secs if since(s) <= at]
    if got and since(secs[-1]) >= at:
        print("req/s in the second ending %d s after the fork: %d (%.0f %% of steady)" % (at, got[-1], 100.0 * got[-1] / mean))
print("per second: " + " ".join(str(counts[s]) for s in secs))
# The same on the process's own CPU: requests per CPU second, which the run queue does not stretch.
have = [s for s in secs if s in cpu and s - 1 in cpu and cpu[s] > cpu[s - 1]]
if len(have) > steady:
    eff = {s: counts[s] / (cpu[s] - cpu[s - 1]) for s in have}
    tail = have[-steady:]
    steady_eff = sum(counts[s] for s in tail) / (cpu[tail[-1]] - cpu[tail[0] - 1])
    warm = next(s for s in have if eff[s] >= 0.9 * steady_eff)
    print("steady state: %.0f requests per CPU second of the process; **90 %% of that after %.1f s of its CPU**"
          " (%.0f s of wall time after the fork)" % (steady_eff, cpu[warm], since(warm)))
    print("CPU seconds of the process when ready: %.1f" % cpu.get(have[0] - 1, float("nan")))
PY
echo "logs: $WORK"

#!/usr/bin/env bash
# Start-up time of each service started alone: from the fork of `java` to the first readiness 200
# (/actuator/health/readiness, polled every 100 ms), RUNS times per service, with the median, and the CPU
# the process used until then (utime + stime; robust on a shared machine, unlike wall time). The
# coordination node runs throughout (both services need the registry); nothing else is started.
# Not part of `verify`; loopback only.
#
#   ./mvnw -B -ntp -pl app-service,ydb-embedded -am package -DskipTests
#   bench/jvm/startup.sh                       # RUNS=5; JVM options: OPTS (default: run-local.sh's)
#   CDS=1 bench/jvm/startup.sh                 # the Dockerfile's way: extracted jars + an AppCDS archive
#
# CDS=0 runs the fat jar (`java -jar service.jar`, as run-local.sh does). CDS=1 extracts each jar as the
# Dockerfile does (`java -Djarmode=tools -jar service.jar extract`), trains a dynamic archive once with
# -XX:ArchiveClassesAtExit and -Dspring.context.exit=onRefresh, then measures with -XX:SharedArchiveFile.
# CDS=extracted measures the extracted layout without an archive (to separate the two effects).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
RUNS=${RUNS:-5}; CDS=${CDS:-0}
BORDER_PORT=${BORDER_PORT:-19381}; APP_PORT=${APP_PORT:-19390}; COORD_PORT=${COORD_PORT:-19336}
DEFAULT_OPTS=$(sed -n 's/^DEFAULT_JAVA_OPTS="\(.*\)"$/\1/p' "$ROOT/run-local.sh")
read -r -a JVM <<<"${OPTS-$DEFAULT_OPTS}"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
need_tools curl
make_work jvm-startup

cat > "$WORK/tenants.yaml" <<YAML
sharedPool: [127.0.0.9]
tenants:
  - id: acme
    dedicatedIps: [127.0.0.3]
YAML
REGISTRY="grpc://127.0.0.1:$COORD_PORT/local"
border_args=(--server.port="$BORDER_PORT" --egress.border.id=border-startup --egress.border.ips=127.0.0.3 --egress.border.allow-loopback-ips=true
  --egress.border.advertised-url="http://127.0.0.1:$BORDER_PORT" --egress.security.internal-token="$INTERNAL_TOKEN"
  --egress.security.insecure-local=true --egress.registry.connection-string="$REGISTRY")
app_args=(--server.port="$APP_PORT" --egress.tenants.file="$WORK/tenants.yaml" --egress.security.api-tokens="$APP_TOKEN"
  --egress.security.internal-token="$INTERNAL_TOKEN" --egress.security.insecure-local=true
  --egress.registry.connection-string="$REGISTRY")

# launch_target service -> the java arguments that start it (fat jar, or the extracted jar)
launch_target() {
  local svc=$1 jar=$APP_JAR
  [[ $svc == border ]] && jar=$BORDER_JAR
  if [[ $CDS == 0 ]]; then echo "-jar $jar"; return; fi
  if [[ ! -d $WORK/$svc ]]; then
    java -Djarmode=tools -jar "$jar" extract --destination "$WORK/$svc" > /dev/null
  fi
  echo "-jar $WORK/$svc/$(basename "$jar")"
}

start_coord "$COORD_PORT"
echo "JVM options: ${JVM[*]:-(none)}; CDS=$CDS; java $(java -version 2>&1 | head -1)"
echo "load average before: $(load_avg)"
for svc in border app; do
  port=$BORDER_PORT; args=("${border_args[@]}")
  [[ $svc == app ]] && { port=$APP_PORT; args=("${app_args[@]}"); }
  read -r -a target <<<"$(launch_target "$svc")"
  cds=()
  if [[ $CDS == 1 ]]; then
    t0=$(date +%s%N)
    java "${JVM[@]}" -XX:ArchiveClassesAtExit="$WORK/$svc.jsa" -Dspring.context.exit=onRefresh "${target[@]}" "${args[@]}" \
      > "$WORK/$svc-train.log" 2>&1 || true
    [[ -f $WORK/$svc.jsa ]] || { echo "no archive for $svc; see $WORK/$svc-train.log" >&2; exit 1; }
    echo "$svc: archive trained in $(( ($(date +%s%N) - t0) / 1000000 )) ms, $(( $(stat -c %s "$WORK/$svc.jsa") / 1048576 )) MB"
    cds=(-XX:SharedArchiveFile="$WORK/$svc.jsa")
  fi
  times=(); cpus=()
  for i in $(seq 1 "$RUNS"); do
    t0=$(date +%s%N)
    java "${JVM[@]}" "${cds[@]}" "${target[@]}" "${args[@]}" > "$WORK/$svc-$i.log" 2>&1 &
    pid=$!; PIDS+=("$pid")
    until [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/actuator/health/readiness") == 200 ]]; do
      kill -0 "$pid" 2>/dev/null || { echo "$svc exited; see $WORK/$svc-$i.log" >&2; exit 1; }
      sleep 0.1
    done
    ms=$(( ($(date +%s%N) - t0) / 1000000 )); times+=("$ms")
    cpu=$(awk -v tick="$(getconf CLK_TCK)" '{printf "%.0f", ($14 + $15) * 1000 / tick}' "/proc/$pid/stat"); cpus+=("$cpu")
    spring=$(grep -o 'Started [A-Za-z]* in [0-9.]* seconds (process running for [0-9.]*)' "$WORK/$svc-$i.log" || true)
    echo "$svc run $i: ready after $ms ms, CPU $cpu ms; $spring; load $(load_avg)"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    # the Border's registry slot is released on stop; give the node a moment before the next start
    sleep 1
  done
  median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
  echo "$svc: median $(median "${times[@]}") ms to ready, CPU $(median "${cpus[@]}") ms, over $RUNS runs (${times[*]} ms; CPU ${cpus[*]} ms)"
done
echo "load average at the end: $(load_avg); logs: $WORK"

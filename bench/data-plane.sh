#!/usr/bin/env bash
# Issue 36's rows in one run, on the default configuration (trust chain on), each with the load average around it:
#   proxy  bench/proxy/run.sh PARTS="a b c e": new tunnels/s + p99 connect + CPU per tunnel against Squid, one
#          tunnel's keep-alive GETs against Squid and direct, 100 MiB down and up against direct, TUNNELS (10,000)
#          tunnels from 8 threads and how many failed
#   cpu    bench/app/cpu.sh TLS=1: App CPU per delivery, the Border's CPU per forward behind it
#   slow   bench/system/slow-targets.sh TLS=1 WARMUP=30: 1,000 deliveries in flight to 1 s targets
#   warmup bench/jvm/warmup.sh SERVICE=app TLS=1: req/s in each of the first 60 s, the 10th second ÷ steady
#   prop   bench/system/propagation.sh TLS=1 CHANGES=600 VIA=border: an operator change -> every App
# Nothing else should run on the machine meanwhile (about 25 minutes on 2 cores). Loopback only.
#
#   ./mvnw -B -ntp -DskipTests package -pl ydb-embedded,border-service,app-service -am
#   ./mvnw -B -ntp -DskipTests -Pbench -pl bench -am package          # the slow sink
#   bench/data-plane.sh                       # OUT=bench/system/results TAG=after ROWS_36="proxy cpu slow warmup prop"
#   APP_JAR=... BORDER_JAR=... LAUNCH=jar TAG=before bench/data-plane.sh   # another commit's jars, started as it was
# LAUNCH is warmup.sh's (default local: as run-local.sh starts a service now). Each row's whole output goes to
# $OUT/data-plane-$TAG-<row>.out; this script prints a summary line per row.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-"$ROOT/bench/system/results"}; TAG=${TAG:-after}; ROWS_36=${ROWS_36:-"proxy cpu slow warmup prop"}
mkdir -p "$OUT"
load() { cut -d' ' -f1-3 /proc/loadavg; }

row() { # name command... : runs one row, its output to a file, with the load before and after
  local name=$1 file="$OUT/data-plane-$TAG-$1.out"; shift
  echo "== $name: $* (load before: $(load), $(date -u +%H:%M:%S) UTC)"
  { echo "# $TAG $name: $*"; echo "# load before: $(load), $(date -u +%FT%TZ)"; } > "$file"
  "$@" >> "$file" 2>&1 || echo "   $name FAILED: see $file"
  echo "# load after: $(load), $(date -u +%FT%TZ)" >> "$file"
  echo "   load after: $(load); output: $file"
}

for r in $ROWS_36; do
  case $r in
    proxy) row proxy env PARTS="a b c e" ROWS="direct squid egress" "$ROOT/bench/proxy/run.sh" ;;
    cpu) row cpu env TLS=1 WARMUP="${CPU_WARMUP:-60}" "$ROOT/bench/app/cpu.sh" ;;
    slow) row slow env TLS=1 WARMUP=30 "$ROOT/bench/system/slow-targets.sh" ;;
    warmup) row warmup env SERVICE=app TLS=1 LAUNCH="${LAUNCH:-local}" "$ROOT/bench/jvm/warmup.sh" ;;
    prop) row prop env TLS=1 CHANGES=600 VIA=border OUT="$OUT/prop-$TAG" "$ROOT/bench/system/propagation.sh" ;;
    *) echo "unknown row $r (expected: proxy cpu slow warmup prop)" >&2; exit 2 ;;
  esac
done
echo "== done $(date -u +%H:%M:%S) UTC, load $(load)"

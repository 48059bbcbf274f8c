#!/usr/bin/env bash
# Issue 27's table ("the secure App -> Border link") from ONE run, so that every ratio compares figures measured
# side by side on the same (shared) machine:
#   - App path req/s with mutual TLS (the platform's default, trust chain on) / the same in insecure-local mode;
#   - App CPU per delivery in insecure-local mode, after the warm-up (and the same with mutual TLS);
#   - Border CPU per forward (wrk -> the Border's forward API, insecure-local; and inside the mTLS App path);
#   - App path / Border alone, req/s (both insecure-local: wrk cannot present App's client certificate).
# It prints the JVM, its options and the TLS provider each service chose at the top.
#
#   ./mvnw -B -ntp -pl app-service,border-service,ydb-embedded -am package -DskipTests
#   bench/secure/run.sh                          # 20 s warm-up per App, ROUNDS=3 alternating 20 s rows
#   TLS_PROVIDER=jdk bench/secure/run.sh         # force a provider on every service (egress.tls.provider)
#   APP_JAR=/tmp/before/app-service.jar BORDER_JAR=/tmp/before/border-service.jar bench/secure/run.sh
#   PROFILE=/path/libasyncProfiler.so bench/secure/run.sh   # + collapsed stacks of the last plain App row
#   PAD_BYTES=16384 bench/secure/run.sh          # a 16 KiB webhook instead of ~100 B (bench/lib/post.lua)
#
# Two App+Border pairs share one coordination node and one nginx sink: "plain" (insecure-local, h2c, unsigned)
# with tenant acme on 127.0.0.2, and "mtls" (egress.trust.*: https Border, signed announcements, App -> Border
# mutual TLS) with tenant acme on 127.0.0.3. Rows alternate so that load drifts hit every mode. CPU per request
# is (utime + stime) of the process from /proc over the row, divided by the requests the row completed.
# Loopback only; every process is stopped at exit.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
need_tools wrk nginx curl jcmd
make_work secure
CONNS=${CONNS:-8}; DUR=${DUR:-20}; WARMUP=${WARMUP:-20}; ROUNDS=${ROUNDS:-3}
read -r -a APP_JVM_OPTS <<< "${APP_JAVA_OPTS:-}"
PROVIDER=(); [[ -n ${TLS_PROVIDER:-} ]] && PROVIDER=(--egress.tls.provider="$TLS_PROVIDER")
SINK=27280; COORD=27136; PB=27181; TB=27182; PA=27080; TA=27081
export SINK_PORT=$SINK
HZ=$(getconf CLK_TCK)

make_pki border-tls@127.0.0.3 app-mtls
start_sink "$SINK"
start_coord "$COORD"
start_border border-plain "$PB" 127.0.0.2 "$COORD" "${PROVIDER[@]}"; PLAIN_BORDER=$BORDER_PID
start_border_tls border-tls "$TB" 127.0.0.3 "$COORD" "${PROVIDER[@]}"; TLS_BORDER=$BORDER_PID
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.2]\n' > "$WORK/tenants-plain.yaml"
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.3]\n' > "$WORK/tenants-mtls.yaml"
start_app plain "$PA" "$WORK/tenants-plain.yaml" "$COORD" "${PROVIDER[@]}"; PLAIN_APP=$APP_PID
start_app_tls mtls "$TA" "$WORK/tenants-mtls.yaml" "$COORD" "${PROVIDER[@]}"; TLS_APP=$APP_PID
wait_ready "http://127.0.0.1:$PB"
wait_ready "https://127.0.0.1:$TB"
wait_ready "http://127.0.0.1:$PA"
wait_ready "http://127.0.0.1:$TA"
wait_tenant_available "http://127.0.0.1:$PA" acme
wait_tenant_available "http://127.0.0.1:$TA" acme

provider_of() { # log -> the TLS provider line the service logged at start, or what its jar implies
  local line
  line=$(grep -ho 'TLS provider: .*' "$1" | head -1 || true)
  if [[ -n $line ]]; then echo "${line#TLS provider: }"; return; fi
  unzip -l "$2" 2>/dev/null | grep -q netty-tcnative && echo "not logged (netty-tcnative in the jar)" \
    || echo "JDK SSLEngine (not logged; no netty-tcnative in the jar)"
}
echo "== bench/secure/run.sh $(date -u +%FT%TZ), $(nproc) cores, load average $(load_avg)"
echo "JVM: $(java -version 2>&1 | sed -n 2p)"
echo "JVM options: App $(jcmd "$TLS_APP" VM.command_line | awk -F': ' '/^jvm_args/ {print $2}'); Border $(jcmd "$TLS_BORDER" VM.command_line | awk -F': ' '/^jvm_args/ {print $2}')"
echo "JVM flags (App): $(jcmd "$TLS_APP" VM.flags | tail -1 | tr ' ' '\n' | grep -E 'Use.*GC|MaxHeapSize|TieredStopAtLevel|ActiveProcessorCount' | tr '\n' ' ')"
echo "TLS provider: App (mtls) $(provider_of "$WORK/app-mtls.log" "$APP_JAR"); Border (mtls) $(provider_of "$WORK/border-border-tls.log" "$BORDER_JAR")"
echo "conns=$CONNS duration=${DUR}s warm-up=${WARMUP}s rounds=$ROUNDS webhook padding=${PAD_BYTES:-0} B jars: $APP_JAR $BORDER_JAR"

wrk_run() { # mode url seconds
  MODE=$1 SRC_IP=127.0.0.2 wrk -t2 -c"$CONNS" -d"$3s" --latency -s "$ROOT/bench/lib/post.lua" "$2" 2>&1
}
# One row: wrk on a path, CPU of its App (0 for the Border alone) and of its Border over the row.
measure() { # label mode url app-pid border-pid
  local a0 b0 a1 b1 out before
  before=$(load_avg)
  a0=$(ticks "$4"); b0=$(ticks "$5")
  out=$(wrk_run "$2" "$3" "$DUR")
  a1=$(ticks "$4"); b1=$(ticks "$5")
  awk -v m="$1" -v r="$(awk '/requests in/ {print $1}' <<<"$out")" -v s="$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    -v a=$((a1 - a0)) -v b=$((b1 - b0)) -v hz="$HZ" -v bad="$(awk '/^non-2xx:/ {print $2}' <<<"$out")" \
    -v p50="$(awk '/^ +50%/ {print $2}' <<<"$out")" -v p99="$(awk '/^ +99%/ {print $2}' <<<"$out")" \
    -v load="$before -> $(load_avg)" \
    'BEGIN { f = 1e6 / hz / r; printf "%-7s %9s %9s %8s %8s %10.0f %10.0f %6s  %s\n", m, r, s, p50, p99, a * f, b * f, bad, load }' \
    | tee -a "$WORK/rows.txt"
}

# The Border-alone row speaks the form App speaks: the raw one, or JSON for a Border older than it (415).
BORDER_MODE=border-raw
head='{"deliveryId":"probe","sourceIp":"127.0.0.9","url":"http://127.0.0.1:9/","method":"POST","body":false}'
probe=$(printf "\\x00\\x00\\x$(printf %02x $((${#head} / 256)))\\x$(printf %02x $((${#head} % 256)))%s" "$head" | curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $INTERNAL_TOKEN" \
  -H 'Content-Type: application/vnd.egress.forward' --data-binary @- "http://127.0.0.1:$PB/internal/v1/egress")
[[ $probe == 415 ]] && BORDER_MODE=border
echo "Border-alone row: MODE=$BORDER_MODE (the forward call's $([[ $BORDER_MODE == border ]] && echo JSON || echo raw) form)"
echo "warm-up ${WARMUP}s per App, 5 s to the plain Border (load $(load_avg))"
wrk_run app "http://127.0.0.1:$PA" "$WARMUP" > /dev/null
wrk_run app "http://127.0.0.1:$TA" "$WARMUP" > /dev/null
wrk_run "$BORDER_MODE" "http://127.0.0.1:$PB" 5 > /dev/null
printf '%-7s %9s %9s %8s %8s %10s %10s %6s  %s\n' row requests req/s p50 p99 'App µs/rq' 'Bord µs/rq' non2xx load
for round in $(seq 1 "$ROUNDS"); do
  measure border "$BORDER_MODE" "http://127.0.0.1:$PB" 0 "$PLAIN_BORDER"
  [[ $round == "$ROUNDS" ]] && profile_jvm start "$PLAIN_APP"
  measure plain app "http://127.0.0.1:$PA" "$PLAIN_APP" "$PLAIN_BORDER"
  [[ $round == "$ROUNDS" ]] && profile_jvm stop "$PLAIN_APP" "$WORK/app-plain.collapsed"
  measure mtls app "http://127.0.0.1:$TA" "$TLS_APP" "$TLS_BORDER"
done

# The table: means over the rounds; each ratio is taken within a round (same minute), then averaged.
awk '
  $1 == "border" { n++; br[n] = $3; bc[n] = $7 }
  $1 == "plain"  { pr[n] = $3; pa[n] = $6; pb[n] = $7 }
  $1 == "mtls"   { mr[n] = $3; ma[n] = $6; mb[n] = $7 }
  END {
    for (i = 1; i <= n; i++) {
      ratio += mr[i] / pr[i]; share += pr[i] / br[i]; list1 = list1 sprintf(" %.2f", mr[i] / pr[i])
      list2 = list2 sprintf(" %.2f", pr[i] / br[i]); apc += pa[i]; amc += ma[i]; bcs += bc[i]; bmc += mb[i]
    }
    print "== issue 27 table (mean of " n " rounds; per round in brackets)"
    printf "App path req/s mTLS / insecure-local      %.2f [%s ]\n", ratio / n, list1
    printf "App CPU per delivery, insecure-local      %.0f µs   (mTLS: %.0f µs)\n", apc / n, amc / n
    printf "Border CPU per forward, Border alone      %.0f µs   (in the mTLS App path: %.0f µs)\n", bcs / n, bmc / n
    printf "App path / Border alone, req/s            %.2f [%s ]\n", share / n, list2
  }' "$WORK/rows.txt"
# Evidence that the mtls pair really ran on the trust chain.
grep -h "Trust:" "$WORK"/app-mtls.log "$WORK"/border-border-tls.log | cut -c1-160
[[ -n ${PROFILE:-} ]] && echo "profile (collapsed stacks of the last plain App row): $WORK/app-plain.collapsed"
echo "RSS after: App plain $(rss_mb "$PLAIN_APP") MB, mtls $(rss_mb "$TLS_APP") MB; load average after: $(load_avg)"
echo "logs: $WORK"

#!/usr/bin/env bash
# App-path throughput with mutual TLS (trust chain) against plaintext (insecure-local), in one run:
#   bench/app/mtls.sh                 # ROUNDS=2 alternating 20 s measurements per mode after a warm-up
# Two App+Border pairs share one coordination node and one nginx sink: "plain" (insecure-local, http,
# unsigned) with tenant acme on 127.0.0.2, and "mtls" (egress.trust.*: https Border, signed
# announcements, App -> Border mutual TLS) with tenant acme on 127.0.0.3. Each App routes only its own
# IP. Measurements alternate plain/mtls so machine load drifts hit both. Pooled keep-alive connections:
# a TLS handshake is paid once per App -> Border connection.
# Needs the jars (./mvnw -B -ntp -DskipTests package), wrk, nginx, curl. Loopback only; stops by itself.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
need_tools wrk nginx curl
make_work app-mtls
WARMUP=${WARMUP:-30}
ROUNDS=${ROUNDS:-2}
DURATION=${DURATION:-20}
CONNECTIONS=${CONNECTIONS:-8}
make_pki border-tls@127.0.0.3 app-mtls
start_sink 27280
start_coord 27136
start_border border-plain 27181 127.0.0.2 27136
start_border_tls border-tls 27182 127.0.0.3 27136
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.2]\n' > "$WORK/tenants-plain.yaml"
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.3]\n' > "$WORK/tenants-mtls.yaml"
start_app plain 27080 "$WORK/tenants-plain.yaml" 27136
start_app_tls mtls 27081 "$WORK/tenants-mtls.yaml" 27136
wait_ready http://127.0.0.1:27181
wait_ready https://127.0.0.1:27182
wait_ready http://127.0.0.1:27080
wait_ready http://127.0.0.1:27081
wait_tenant_available http://127.0.0.1:27080 acme
wait_tenant_available http://127.0.0.1:27081 acme

run_wrk() { # port seconds
  MODE=app SINK_PORT=27280 wrk -t2 -c"$CONNECTIONS" -d"$2s" --latency -s "$ROOT/bench/lib/post.lua" "http://127.0.0.1:$1"
}
echo "warm-up ${WARMUP}s per App (load $(load_avg))"
run_wrk 27080 "$WARMUP" > /dev/null
run_wrk 27081 "$WARMUP" > /dev/null
for round in $(seq 1 "$ROUNDS"); do
  for mode in plain mtls; do
    port=27080; [[ $mode == mtls ]] && port=27081
    before=$(load_avg)
    out=$(run_wrk "$port" "$DURATION")
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    bad=$(awk -F': ' '/non-2xx/ {print $2}' <<<"$out")
    printf 'round %d %-5s %8s req/s  p50 %8s  p99 %8s  non-2xx %s  load %s -> %s\n' \
      "$round" "$mode" "$rps" "$p50" "$p99" "${bad:-?}" "$before" "$(load_avg)"
  done
done
# Evidence that the mtls pair really ran on the trust chain.
grep -h "Trust:" "$WORK"/app-mtls.log "$WORK"/border-border-tls.log | cut -c1-200

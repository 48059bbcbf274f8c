#!/usr/bin/env bash
# Durable delivery (issue 35), on the trust chain, with the YDB node keeping its tables in a data directory:
#   accept    asynchronous webhooks (Prefer: respond-async) as fast as CONC callers send them: accepted/s,
#             accept p50/p99 (the record is committed before the 202)
#   deliver   at RATE/s (default: half the accepted/s just measured) for DUR s: accept p99 and accept ->
#             delivered p50/p99 (the target's access log time), App CPU per delivered webhook (/proc)
#   backlog   BACKLOG webhooks accepted while the target answers 503 (each first attempt fails, the next is due
#             30 s later), App stopped, the target healed, App started again: the drain rate from the first to
#             the last delivery, duplicates (two deliveries of one webhook-id)
# Every delivery must leave from acme's dedicated 127.0.0.2 (a line says FOREIGN SOURCE IP otherwise).
#
#   ./mvnw -B -ntp -DskipTests package -pl ydb-embedded,border-service,app-service -am
#   bench/delivery/run.sh          # CONC=16 DUR=20 WARMUP=20 BACKLOG=20000 RATE=(half of accepted/s)
# Needs nginx, curl, java (apt-get install -y nginx-light curl). Every process is stopped at exit (by pid).
# PROFILE=/path/libasyncProfiler.so: App's CPU samples during the deliver row, as collapsed stacks in the work dir.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
need_tools nginx curl java
make_work delivery-bench
CONC=${CONC:-16}; DUR=${DUR:-20}; WARMUP=${WARMUP:-20}; BACKLOG=${BACKLOG:-20000}
B=${PORT_BASE:-28000}
SINK=$((B + 280)); COORD=$((B + 136)); BPORT=$((B + 181)); APORT=$((B + 80))
HZ=$(getconf CLK_TCK)
LOAD=(java "$ROOT/bench/delivery/DeliveryLoad.java")
export EXPECT_IP=127.0.0.2 TENANT=acme

# ---- the target: nginx logging "$msec $remote_addr $http_webhook_id", 503 while $WORK/fail exists ----------
mkdir -p "$WORK/nginx-body"
cat > "$WORK/sink.conf" <<NGINX
worker_processes 1;
daemon off;
pid $WORK/sink.pid;
error_log $WORK/sink-error.log warn;
events { worker_connections 4096; }
http {
  log_format hook '\$msec \$remote_addr \$http_webhook_id \$status';
  access_log $WORK/access.log hook buffer=16k flush=100ms;
  client_body_temp_path $WORK/nginx-body;
  keepalive_requests 10000000;
  keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$SINK reuseport backlog=4096;
    location / {
      default_type application/json;
      if (-f $WORK/fail) { return 503 '{"down":true}'; }
      return 200 '{"ok":true}';
    }
  }
}
NGINX
nginx -c "$WORK/sink.conf" -p "$WORK" & PIDS+=($!)
wait_http "http://127.0.0.1:$SINK/"

# ---- the node with its data directory, one Border with acme's IP, one App ------------------------------------
java -jar "$COORD_JAR" --port "$COORD" --data-dir="$WORK/ydb-data" > "$WORK/coord.log" 2>&1 & PIDS+=($!)
for _ in $(seq 1 240); do grep -qs "grpc://127.0.0.1:$COORD/local" "$WORK/coord.log" && break; sleep 0.5; done
printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.2]\n    signing: true\n' > "$WORK/tenants.yaml"
printf 'acme: [whsec_%s]\n' "$(head -c 32 /dev/urandom | base64 -w0)" > "$WORK/signing.yaml"
make_pki border-a@127.0.0.2 app-bench
start_border_tls border-a "$BPORT" 127.0.0.2 "$COORD"
APP_ARGS=(--egress.delivery.store.connection-string="grpc://127.0.0.1:$COORD/local"
  --egress.signing.secrets-file="$WORK/signing.yaml")
start_app_tls bench "$APORT" "$WORK/tenants.yaml" "$COORD" "${APP_ARGS[@]}"
wait_ready "https://127.0.0.1:$BPORT"
wait_ready "http://127.0.0.1:$APORT"
wait_tenant_available "http://127.0.0.1:$APORT" acme
APP=http://127.0.0.1:$APORT; TARGET=http://127.0.0.1:$SINK

echo "load average before: $(load_avg); conc=$CONC duration=${DUR}s warm-up=${WARMUP}s backlog=$BACKLOG"
"${LOAD[@]}" max "$APP" "$TARGET" "$WARMUP" "$CONC" > /dev/null
a0=$(ticks "$APP_PID")
out=$("${LOAD[@]}" max "$APP" "$TARGET" "$DUR" "$CONC"); echo "$out"
RATE=${RATE:-$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^accepted\/s=/) { split($i, v, "="); printf "%d", v[2] / 2 } }' <<<"$out")}
sleep 2
a0=$(ticks "$APP_PID"); b0=$(ticks "$BORDER_PID")
profile_jvm start "$APP_PID"
out=$("${LOAD[@]}" rate "$APP" "$TARGET" "$DUR" "$RATE" "$WORK/access.log"); echo "$out"
profile_jvm stop "$APP_PID" "$WORK/app-deliver.collapsed"
a1=$(ticks "$APP_PID"); b1=$(ticks "$BORDER_PID")
delivered=$(awk '/^deliver/ { for (i = 1; i <= NF; i++) if ($i ~ /^delivered=/) { split($i, v, "="); print v[2] } }' <<<"$out")
awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) -v n="$delivered" -v hz="$HZ" \
  'BEGIN { printf "cpu     App %.0f µs, Border %.0f µs per delivered webhook (accept + attempt + store writes)\n", a * 1e6 / hz / n, b * 1e6 / hz / n }'
echo "RSS: App $(rss_mb "$APP_PID") MB, Border $(rss_mb "$BORDER_PID") MB; load average: $(load_avg)"

# ---- backlog: BACKLOG due webhooks, then drained by a restarted App ------------------------------------------
kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
BACKLOG_ARGS=(--egress.delivery.retry.schedule=0s,30s,5m,30m,2h --egress.delivery.retry.jitter=0)
start_app_tls bench "$APORT" "$WORK/tenants.yaml" "$COORD" "${APP_ARGS[@]}" "${BACKLOG_ARGS[@]}"
wait_ready "http://127.0.0.1:$APORT"; wait_tenant_available "http://127.0.0.1:$APORT" acme
touch "$WORK/fail"
"${LOAD[@]}" fill "$APP" "$TARGET" "$BACKLOG" "$CONC" "$WORK/backlog.ids"
filled=$(date +%s)
kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
rm -f "$WORK/fail"
# Every record's second attempt falls due 30 s after its first: wait until the last one is due.
while (( $(date +%s) < filled + 32 )); do sleep 1; done
start_app_tls bench "$APORT" "$WORK/tenants.yaml" "$COORD" "${APP_ARGS[@]}" "${BACKLOG_ARGS[@]}"
a0=$(ticks "$APP_PID")
"${LOAD[@]}" drain "$WORK/access.log" "$WORK/backlog.ids" 600
a1=$(ticks "$APP_PID")
awk -v a=$((a1 - a0)) -v n="$BACKLOG" -v hz="$HZ" \
  'BEGIN { printf "cpu     App %.0f µs per drained webhook (start-up included)\n", a * 1e6 / hz / n }'
echo "load average after: $(load_avg); logs: $WORK"

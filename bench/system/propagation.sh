#!/usr/bin/env bash
# System benchmark 2: operator status change on a Border (PUT /ops/v1/ips/{ip}) -> every App's snapshot.
# Two Apps, one Border, embedded coordination node; probe.py polls each App's /v1/egress/ips tightly (one
# keep-alive connection per App) from just before the PUT until the new status shows. CHANGES changes
# (default 60, after 5 warm-up ones; POLL_MS=2 between polls so that the pollers do not eat the CPU), ACTIVE <-> DRAINING, 100-300 ms apart. Also prints each App's own
# lag metric (egress.registry.propagation.lag: apply time - publishedAt).
#
#   bench/system/propagation.sh        # CHANGES=60 OUT=bench/system/results
#   TLS=1 bench/system/propagation.sh  # on the trust chain (signed announcements, Border on https), as the platform's default
#   VIA=app ...                        # the change through App 1's PUT /ops/v1/ips/{ip} (answers once App 1 shows it);
#                                      # VIA="border app" runs both on the same processes
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd); HERE="$ROOT/bench/system"
. "$ROOT/bench/lib/common.sh"
OUT=${OUT:-$HERE/results}; COORD=18336; export CHANGES=${CHANGES:-60} BORDER_ID=border-p
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"; need_tools curl python3
make_work system-propagation; mkdir -p "$OUT"
printf 'sharedPool: [127.0.0.2]\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.4]\n' > "$WORK/tenants.yaml"
start_coord "$COORD"
APP_OPS=(--egress.security.operator-token="$OPERATOR_TOKEN")
if [[ ${TLS:-0} == 1 ]]; then
  make_pki "$BORDER_ID@127.0.0.4,127.0.0.5" app-app1 app-app2; export CA_FILE=$WORK/pki/ca.pem; BURL=https://127.0.0.1:18381
  start_border_tls "$BORDER_ID" 18381 127.0.0.4,127.0.0.5 "$COORD"
  start_app_tls app1 18391 "$WORK/tenants.yaml" "$COORD" "${APP_OPS[@]}"
  start_app_tls app2 18392 "$WORK/tenants.yaml" "$COORD" "${APP_OPS[@]}"
else
  BURL=http://127.0.0.1:18381
  start_border "$BORDER_ID" 18381 127.0.0.4,127.0.0.5 "$COORD"
  start_app app1 18391 "$WORK/tenants.yaml" "$COORD" "${APP_OPS[@]}"
  start_app app2 18392 "$WORK/tenants.yaml" "$COORD" "${APP_OPS[@]}"
fi
echo "java: $(java -version 2>&1 | head -1); TLS=${TLS:-0} VIA=${VIA:-border} CHANGES=$CHANGES POLL_MS=${POLL_MS:-2}"
wait_ready "$BURL"; for u in 18391 18392; do wait_ready "http://127.0.0.1:$u"; done
wait_tenant_available http://127.0.0.1:18391 acme; wait_tenant_available http://127.0.0.1:18392 acme
echo "load before: $(load_avg)"
for via in ${VIA:-border}; do # VIA="border app": both, one after the other, on the same processes
  echo "--- changes via $via"
  VIA=$via OUT="$OUT/propagation-$via.json" python3 "$HERE/probe.py" propagation "$BURL" 127.0.0.4 \
    http://127.0.0.1:18391 http://127.0.0.1:18392
  python3 "$HERE/probe.py" breakdown "$WORK" "$OUT/propagation-$via.json"
done
echo "load after: $(load_avg)"
echo "logs: $WORK"

#!/usr/bin/env bash
# System benchmark 2: operator status change on a Border (PUT /ops/v1/ips/{ip}) -> every App's snapshot.
# Two Apps, one Border, embedded coordination node; probe.py polls each App's /v1/egress/ips tightly (one
# keep-alive connection per App) from just before the PUT until the new status shows. CHANGES changes
# (default 60, after 5 warm-up ones; POLL_MS=2 between polls so that the pollers do not eat the CPU), ACTIVE <-> DRAINING, 100-300 ms apart. Also prints each App's own
# lag metric (egress.registry.propagation.lag: apply time - publishedAt).
#
#   bench/system/propagation.sh        # CHANGES=60 OUT=bench/system/results
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd); HERE="$ROOT/bench/system"
. "$ROOT/bench/lib/common.sh"
OUT=${OUT:-$HERE/results}; COORD=18336; export CHANGES=${CHANGES:-60} BORDER_ID=border-p
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"; need_tools curl python3
make_work system-propagation; mkdir -p "$OUT"
printf 'sharedPool: [127.0.0.2]\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.4]\n' > "$WORK/tenants.yaml"
start_coord "$COORD"
start_border "$BORDER_ID" 18381 127.0.0.4,127.0.0.5 "$COORD"
start_app app1 18391 "$WORK/tenants.yaml" "$COORD"
start_app app2 18392 "$WORK/tenants.yaml" "$COORD"
for u in 18381 18391 18392; do wait_ready "http://127.0.0.1:$u"; done
wait_tenant_available http://127.0.0.1:18391 acme; wait_tenant_available http://127.0.0.1:18392 acme
echo "load before: $(load_avg)"
OUT="$OUT/propagation.json" python3 "$HERE/probe.py" propagation http://127.0.0.1:18381 127.0.0.4 \
  http://127.0.0.1:18391 http://127.0.0.1:18392
echo "load after: $(load_avg)"
echo "logs: $WORK"

#!/usr/bin/env bash
# System benchmark 3: kill -9 of a Border -> its removal from every App's snapshot, measured from the
# Border's last delivery attempt (the last line from its source IP in the sink's access log, $msec).
# Two Apps; a client (probe.py) sends a delivery through App 1 every ~5 ms (tenant acme, dedicated
# 127.0.0.6 on the doomed Border); both Apps' /v1/egress/ips are polled every ~2 ms until the Border is
# gone. TRIALS trials per session timeout in TIMEOUTS (a fresh Border each trial).
#
#   bench/system/failover.sh        # TIMEOUTS="5s 2s" TRIALS=3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd); HERE="$ROOT/bench/system"
. "$ROOT/bench/lib/common.sh"
TIMEOUTS=${TIMEOUTS:-"5s 2s"}; TRIALS=${TRIALS:-3}; COORD=18436; export SINK_PORT=18480
need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"; need_tools curl python3 nginx
make_work system-failover
printf 'sharedPool: [127.0.0.2]\ntenants:\n  - id: acme\n    dedicatedIps: [127.0.0.6]\n' > "$WORK/tenants.yaml"
start_sink "$SINK_PORT" 1
start_coord "$COORD"
start_app app1 18491 "$WORK/tenants.yaml" "$COORD"
start_app app2 18492 "$WORK/tenants.yaml" "$COORD"
for u in 18491 18492; do wait_ready "http://127.0.0.1:$u"; done
for t in $TIMEOUTS; do
  for i in $(seq 1 "$TRIALS"); do
    id="border-f-$t-$i"
    start_border "$id" 18481 127.0.0.6 "$COORD" --egress.registry.session-timeout="$t"
    wait_ready http://127.0.0.1:18481
    wait_tenant_available http://127.0.0.1:18491 acme; wait_tenant_available http://127.0.0.1:18492 acme
    la=$(load_avg)
    LABEL="session-timeout $t trial $i" python3 "$HERE/probe.py" failover http://127.0.0.1:18481 "$id" "$BORDER_PID" \
      127.0.0.6 "$WORK/sink-access.log" http://127.0.0.1:18491 http://127.0.0.1:18492 | sed "s/\$/ (load $la)/"
    { wait "$BORDER_PID"; } 2>/dev/null || true
  done
done
echo "load at the end: $(load_avg); logs: $WORK"

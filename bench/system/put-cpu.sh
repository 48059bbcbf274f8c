#!/usr/bin/env bash
# Operator PUT on a Border, alone: latency and the Border's CPU per PUT (utime+stime from /proc), in blocks, so
# that the warm-up shows. One Border and the embedded coordination node; PUT /ops/v1/ips/127.0.0.4 ACTIVE <->
# DRAINING every GAP_MS over one keep-alive connection. CPU per PUT is robust on a shared machine, latency is not.
#
#   bench/system/put-cpu.sh            # PUTS=600 BLOCK=100 GAP_MS=20
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
PUTS=${PUTS:-600} BLOCK=${BLOCK:-100} GAP_MS=${GAP_MS:-20}
need_jars "$BORDER_JAR" "$COORD_JAR"; need_tools curl python3
make_work system-put-cpu
start_coord 18336
start_border border-p 18381 127.0.0.4,127.0.0.5 18336
wait_ready http://127.0.0.1:18381
python3 - "$BORDER_PID" "$PUTS" "$BLOCK" "$GAP_MS" <<'PY'
import http.client, json, os, sys, time
pid, n, block, gap = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]) / 1000.0
hz = os.sysconf("SC_CLK_TCK")
token = os.environ.get("OPERATOR_TOKEN", "bench-operator-token")

def cpu_ms():
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / hz

c = http.client.HTTPConnection("127.0.0.1", 18381, timeout=30)
status = "ACTIVE"
for b in range(n // block):
    start, lat = cpu_ms(), []
    for _ in range(block):
        status = "DRAINING" if status == "ACTIVE" else "ACTIVE"
        t = time.monotonic()
        c.request("PUT", "/ops/v1/ips/127.0.0.4", body=json.dumps({"status": status}),
                  headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        r = c.getresponse(); r.read()
        if r.status != 200:
            raise SystemExit("PUT answered %d" % r.status)
        lat.append((time.monotonic() - t) * 1000)
        time.sleep(gap)
    lat.sort()
    print("block %d: PUT p50 %.1f p90 %.1f max %.1f ms; Border CPU %.1f ms per PUT (incl. idle gaps); load %s"
          % (b + 1, lat[len(lat) // 2], lat[int(len(lat) * 0.9)], lat[-1], (cpu_ms() - start) / block,
             open("/proc/loadavg").read().split()[0]), flush=True)
PY

#!/usr/bin/env python3
"""Clients for the propagation and failover benchmarks (stdlib only; loopback only; every loop is bounded).

propagation BORDER_URL IP APP_URL... : N operator status changes (ACTIVE <-> DRAINING) of IP on the Border;
    each App's /v1/egress/ips is polled tightly (own thread, keep-alive) until it shows the new status of
    that Border's route; prints per-App and overall p50/p90/p99/max and writes the samples (ms) to OUT.
failover  BORDER_URL BORDER_ID BORDER_PID SRC_IP SINK_LOG APP_URL... : sends deliveries through the first App
    (tenant acme) every ~5 ms, kill -9 the Border, polls every App until the Border is gone from its
    snapshot; the last delivery attempt is the last line from SRC_IP in the sink's access log.
"""
import http.client, json, os, random, signal, ssl, sys, threading, time, urllib.parse

APP_TOKEN = os.environ.get("APP_TOKEN", "bench-api-token")
POLL_S = float(os.environ.get("POLL_MS", "2")) / 1000.0
OPERATOR_TOKEN = os.environ.get("OPERATOR_TOKEN", "bench-operator-token")


def conn(url):
    u = urllib.parse.urlparse(url)
    if u.scheme == "https":  # a Border on the trust chain: verified against the run's CA (CA_FILE)
        return http.client.HTTPSConnection(u.hostname, u.port, timeout=30,
                                           context=ssl.create_default_context(cafile=os.environ["CA_FILE"]))
    return http.client.HTTPConnection(u.hostname, u.port, timeout=30)


def get_ips(c):
    c.request("GET", "/v1/egress/ips", headers={"Authorization": "Bearer " + APP_TOKEN})
    r = c.getresponse()
    return json.loads(r.read())


def border_status(doc, ip, border):
    for e in doc["ips"]:
        if e["ip"] == ip:
            for b in e["borders"]:
                if b["id"] == border:
                    return b["status"]
    return None


def pct(xs, p):
    s = sorted(xs)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def summary(xs):
    return "n=%d p50=%.1f p90=%.1f p99=%.1f max=%.1f ms" % (len(xs), pct(xs, 50), pct(xs, 90), pct(xs, 99), max(xs))


def wait_until(app_url, pred, deadline_s, interval=0.0):
    """Polls app_url's /v1/egress/ips until pred(doc); returns time.monotonic() of the first matching answer's
    arrival (None on timeout). Bounded by deadline_s."""
    c = conn(app_url)
    end = time.monotonic() + deadline_s
    try:
        while time.monotonic() < end:
            doc = get_ips(c)
            if pred(doc):
                return time.monotonic()
            if interval:
                time.sleep(interval)
        return None
    finally:
        c.close()


def lag_buckets(app_url):
    """The App's egress_registry_propagation_lag_seconds histogram: {le: cumulative count}."""
    c = conn(app_url)
    c.request("GET", "/actuator/prometheus")
    text = c.getresponse().read().decode()
    c.close()
    b = {}
    for line in text.splitlines():
        if line.startswith("egress_registry_propagation_lag_seconds_bucket{"):
            le = line.split('le="')[1].split('"')[0]
            b[float("inf") if le == "+Inf" else float(le)] = float(line.rsplit(" ", 1)[1])
    return b


def bucket_pct(before, after, p):
    """Upper bound (ms) of the bucket holding the p-th percentile of the observations between two scrapes."""
    les = sorted(after)
    total = after[les[-1]] - before.get(les[-1], 0)
    for le in les:
        if after[le] - before.get(le, 0) >= p / 100.0 * total:
            return le * 1000, total
    return float("nan"), total


def propagation(border_url, ip, apps, n, border_id, out):
    # VIA=app: the change goes through the first App's fleet API (PUT answers once that App's snapshot shows it)
    via_app = os.environ.get("VIA", "border") == "app"
    ops = conn(apps[0] if via_app else border_url)
    before = {a: lag_buckets(a) for a in apps}
    lat = {a: [] for a in apps}
    put_ms, walls = [], []
    status = "ACTIVE"
    for i in range(n + 5):  # the first 5 are warm-up
        status = "DRAINING" if status == "ACTIVE" else "ACTIVE"
        results = {}
        start = threading.Barrier(len(apps) + 1)

        def watch(a, want=status):
            start.wait()
            results[a] = wait_until(a, lambda d: border_status(d, ip, border_id) == want, 30, POLL_S)

        threads = [threading.Thread(target=watch, args=(a,)) for a in apps]
        for t in threads:
            t.start()
        start.wait()
        t0 = time.monotonic()
        t0_wall = time.time()  # to line the change up with the services' log lines (same clock)
        ops.request("PUT", "/ops/v1/ips/" + ip, body=json.dumps({"status": status}),
                    headers={"Authorization": "Bearer " + OPERATOR_TOKEN, "Content-Type": "application/json"})
        r = ops.getresponse(); r.read()
        t_put = time.monotonic()
        if r.status != 200 and i < 5:
            # A cold start's first change may outlast App's change-timeout (the Border's first session to the
            # registry opens with it): a warm-up change that fails is reported, not fatal.
            print("warm-up change %d: PUT answered %d" % (i + 1, r.status))
        elif r.status != 200:
            raise SystemExit("PUT answered %d" % r.status)
        for t in threads:
            t.join()
        if i >= 5:
            put_ms.append((t_put - t0) * 1000)
            walls.append(t0_wall)
            for a in apps:
                if results[a] is None:
                    raise SystemExit("App %s never showed %s" % (a, status))
                lat[a].append((results[a] - t0) * 1000)
        time.sleep(random.uniform(0.1, 0.3))
    allv = [x for a in apps for x in lat[a]]
    worst = [max(lat[a][k] for a in apps) for k in range(n)]
    print(("operator PUT on App 1 round trip (Border publishes, App 1's snapshot shows it): " if via_app else
           "operator PUT round trip (Border publishes, registry confirms): ") + summary(put_ms))
    for a in apps:
        print("App %s: %s" % (a, summary(lat[a])))
    print("every App (per change, the slower App): " + summary(worst))
    print("all samples: " + summary(allv))
    for a in apps:
        after = lag_buckets(a)
        (p50, cnt), (p99, _) = bucket_pct(before[a], after, 50), bucket_pct(before[a], after, 99)
        print("App %s own metric egress.registry.propagation.lag over the run (publishedAt -> applied, bucket"
              " upper bounds): %d observations, p50 <= %.1f ms, p99 <= %.1f ms" % (a, cnt, p50, p99))
    with open(out, "w") as f:
        json.dump({"put_ms": put_ms, "per_app": lat, "every_app": worst, "t0_wall": walls}, f)


def breakdown(work, samples, border_id):
    """Where each change of a propagation run spent its time, from the services' log lines (ms resolution, the
    same wall clock as the probe's t0): decision stored on the Border, applied by each App."""
    import datetime, glob

    def stamps(path, *needles):
        out = []
        for line in open(path):
            if all(n in line for n in needles):
                t = datetime.datetime.fromisoformat(line[:23]).replace(tzinfo=datetime.timezone.utc)
                out.append(t.timestamp())
        return out

    d = json.load(open(samples))
    stored = stamps("%s/border-%s.log" % (work, border_id), "Stored the operator decision")
    applied = [stamps(f, "Routing snapshot", "applied") for f in sorted(glob.glob(work + "/app-*.log"))]

    def first_after(xs, t):
        return next((x for x in xs if x >= t - 0.001), float("nan"))

    cols = {"PUT sent -> decision stored (Border log)": [], "PUT sent -> PUT answered (probe)": [],
            "PUT answered -> applied by the slower App (App logs)": [],
            "applied by the slower App -> seen by the probe": []}
    for t0, put, seen in zip(d["t0_wall"], d["put_ms"], d["every_app"]):
        s = first_after(stored, t0)
        last = max(first_after(a, s) for a in applied)
        cols["PUT sent -> decision stored (Border log)"].append((s - t0) * 1000)
        cols["PUT sent -> PUT answered (probe)"].append(put)
        cols["PUT answered -> applied by the slower App (App logs)"].append((last - t0) * 1000 - put)
        cols["applied by the slower App -> seen by the probe"].append(seen - (last - t0) * 1000)
    print("where the time went (log timestamps have 1 ms resolution):")
    for name, xs in cols.items():
        xs = [x for x in xs if x == x]
        print("  %-54s %s" % (name, summary(xs)))


def failover(border_url, border_id, pid, src_ip, sink_log, apps, out_label):
    stop = threading.Event()
    sent = [0, 0]

    def load():
        c = conn(apps[0])
        body = json.dumps({"tenantId": "acme", "url": "http://127.0.0.1:%s/hook" % os.environ.get("SINK_PORT"),
                           "payload": {"event": "failover"}})
        end = time.monotonic() + 60
        while not stop.is_set() and time.monotonic() < end:
            try:
                c.request("POST", "/v1/deliveries", body=body,
                          headers={"Authorization": "Bearer " + APP_TOKEN, "Content-Type": "application/json"})
                r = c.getresponse(); r.read()
                sent[0 if r.status == 200 else 1] += 1
            except Exception:
                c.close(); c = conn(apps[0]); sent[1] += 1
            time.sleep(0.005)

    t = threading.Thread(target=load); t.start()
    time.sleep(2)
    kill_wall = time.time(); kill_mono = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    gone = {}

    def watch(a):
        gone[a] = wait_until(a, lambda d: all(border_status(d, e["ip"], border_id) is None for e in d["ips"]), 40, 0.002)

    ws = [threading.Thread(target=watch, args=(a,)) for a in apps]
    for w in ws: w.start()
    for w in ws: w.join()
    stop.set(); t.join()
    time.sleep(0.3)  # nginx flushes its log buffer every 100 ms
    last = None
    with open(sink_log) as f:
        for line in f:
            ts, addr = line.split()
            if addr == src_ip:
                last = float(ts)
    if last is None or any(gone[a] is None for a in apps):
        raise SystemExit("trial failed: last=%s gone=%s" % (last, gone))
    last_mono = kill_mono - (kill_wall - last)  # the sink's wall clock mapped onto the monotonic clock
    per_app = {a: (gone[a] - last_mono) * 1000 for a in apps}
    print("%s: last delivery at kill%+.0f ms; removed from every App after %.0f ms (%s); deliveries ok=%d failed=%d"
          % (out_label, (last - kill_wall) * 1000, max(per_app.values()),
             ", ".join("%s %.0f" % (a.rsplit(":", 1)[1], v) for a, v in per_app.items()), sent[0], sent[1]))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "propagation":
        propagation(sys.argv[2], sys.argv[3], sys.argv[4:], int(os.environ.get("CHANGES", "60")),
                    os.environ.get("BORDER_ID", "border-p"), os.environ.get("OUT", "/dev/null"))
    elif cmd == "breakdown":
        breakdown(sys.argv[2], sys.argv[3], os.environ.get("BORDER_ID", "border-p"))
    elif cmd == "failover":
        failover(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7:],
                 os.environ.get("LABEL", "trial"))

#!/usr/bin/python3
"""Plots of the system benchmarks (Debian python3-matplotlib): reads bench/system/results/, writes bench/plots/.

  /usr/bin/python3 bench/system/plot.py   (Debian python3-matplotlib; a pyenv python3 does not see it)
"""
import json, os, re
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = os.path.dirname(os.path.abspath(__file__))
RES = os.path.join(HERE, "results")
PLOTS = os.path.join(HERE, "..", "plots")
os.makedirs(PLOTS, exist_ok=True)


def latency_plot():
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for mode, colour in (("direct", "tab:gray"), ("border", "tab:blue"), ("app", "tab:green"), ("squid", "tab:red")):
        path = os.path.join(RES, "throughput-%s.txt" % mode)
        if not os.path.exists(path):
            continue
        text = open(path).read()
        pts = [(float(p), int(v) / 1000.0) for p, v in re.findall(r"^pct (\S+) (\d+)$", text, re.M)]
        rps = re.search(r"Requests/sec:\s+(\S+)", text)
        load = re.search(r"^load: (\S+)", text, re.M)
        xs = [1.0 / (1.0 - p / 100.0) for p, _ in pts]
        ax.plot(xs, [v for _, v in pts], marker="o", ms=3, color=colour,
                label="%s (%s req/s, load %s)" % (mode, rps.group(1) if rps else "?", load.group(1) if load else "?"))
    ticks = [50, 90, 99, 99.9, 99.99]
    ax.set_xscale("log"); ax.set_yscale("log")
    ax.set_xticks([1.0 / (1.0 - t / 100.0) for t in ticks]); ax.set_xticklabels(["p%g" % t for t in ticks])
    ax.set_xlabel("percentile"); ax.set_ylabel("latency (ms)")
    ax.set_title("Webhook POST latency, wrk -t2 -c16 -d20s (bench/system/throughput.sh)")
    ax.grid(True, which="both", alpha=0.3); ax.legend(fontsize=8)
    fig.tight_layout(); fig.savefig(os.path.join(PLOTS, "system-latency.png"), dpi=90)


def cdf(ax, xs, label, **kw):
    s = sorted(xs)
    ax.plot(s, [(i + 1) / len(s) for i in range(len(s))], label="%s (n=%d)" % (label, len(s)), **kw)


def propagation_plot():
    fig, ax = plt.subplots(figsize=(8, 4.8))
    path = os.path.join(RES, "propagation.json")
    if os.path.exists(path):
        d = json.load(open(path))
        cdf(ax, d["put_ms"], "operator PUT returns (Border published)", color="tab:gray")
        for i, (app, xs) in enumerate(sorted(d["per_app"].items())):
            cdf(ax, xs, "App %d snapshot (port %s)" % (i + 1, app.rsplit(":", 1)[1]), ls="--")
        cdf(ax, d["every_app"], "every App (slower of the two)", color="tab:green", lw=2)
    spath = os.path.join(RES, "scale-watch-samples.txt")
    if os.path.exists(spath):
        xs = json.loads(open(spath).read().split(" ", 1)[1])
        cdf(ax, xs, "1,000 Borders: update() of one -> App", color="tab:purple", lw=2)
    ax.set_xscale("log"); ax.set_xlabel("ms after the change was requested"); ax.set_ylabel("fraction of changes")
    ax.set_title("Propagation to App snapshots (bench/system/propagation.sh, scale.sh)")
    ax.grid(True, which="both", alpha=0.3); ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout(); fig.savefig(os.path.join(PLOTS, "system-propagation.png"), dpi=90)


if __name__ == "__main__":
    latency_plot()
    propagation_plot()
    print("wrote", sorted(f for f in os.listdir(PLOTS) if f.startswith("system-")))

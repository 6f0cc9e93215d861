#!/usr/bin/env python3
"""Puente et al. §5.1 (Figs. 6 and 7) from netwrap's CSVs: the tables of docs/validation.md.

    python3 docs/validation/puente-5-1-tables.py

Reads puente-5-1-latency.csv and puente-5-1-throughput-{16,64,256,high}.csv beside this file
(written by `netwrap run` on the .toml files of the same names) and prints markdown tables:
base latency in cycles and ns with the routes' exact mean distance (Fig. 6), and maximum
throughput — the highest accepted load over each sweep — in flits/node/cycle and bytes/ns
(Fig. 7) — over puente-5-1-throughput-{16,64,256}.csv and puente-5-1-throughput-high.csv
together — beside the accepted load at an offered load of one flit per node per cycle, then
the Midimew's gains over the torus. Conversions: Puente et al.'s 5.65 ns
cycle (Table 3) and 2-byte phits (§4): ns = cycles x 5.65, bytes/ns = flits/node/cycle x N
x 2 / 5.65. Standard library only.
"""
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CYCLE_NS, PHIT_BYTES = 5.65, 2
PATTERNS = ["uniform", "bimodal", "transpose", "bit-reversal", "shuffle"]
SIZES = [16, 64, 256]
FAMILIES = ["mesh", "torus", "midimew"]


def key(row):
    w, t = json.loads(row["workload"]), json.loads(row["topology"])
    pattern = w["pattern"]
    if pattern == "uniform-others":
        pattern = "bimodal" if "long-size" in w else "uniform"
    nodes = t["nodes"] if t["family"] == "midimew" else t["k"] ** 2
    return pattern, t["family"], nodes


def read(name):
    with open(os.path.join(HERE, name), newline="") as f:
        return list(csv.DictReader(f))


def label(family, nodes):
    if family == "midimew":
        b = 1
        while b * b * 2 < nodes:
            b += 1
        return f"Midimew C{nodes}({b - 1},{b})"
    k = round(nodes**0.5)
    return f"{family} {k}x{k}"


def header(first):
    print(f"| {first} | " + " | ".join(PATTERNS) + " |")
    print("|---" * (len(PATTERNS) + 1) + "|")


def latency_table():
    """Fig. 6: mean latency ± 95% interval in cycles, in ns, and the routes' exact mean distance."""
    lat = {key(r): r for r in read("puente-5-1-latency.csv")}
    header("network")
    for n in SIZES:
        for fam in FAMILIES:
            cells = []
            for p in PATTERNS:
                r = lat[(p, fam, n)]
                assert r["verdict"] == "ok", (p, fam, n)
                cyc, ci = float(r["latency"]), float(r["latency_ci95"])
                cells.append(f"{cyc:.2f} ± {ci:.2f} · {cyc * CYCLE_NS:.0f} ns · {float(r['expected_mean_hops']):.3f}")
            print(f"| {label(fam, n)} | " + " | ".join(cells) + " |")
    return lat


def throughput_table():
    """Fig. 7: per network and pattern, (peak accepted, offered at the peak, accepted at offered 1)."""
    curves = {}
    for name in [f"puente-5-1-throughput-{n}.csv" for n in SIZES] + ["puente-5-1-throughput-high.csv"]:
        for r in read(name):
            curves.setdefault(key(r), []).append((float(r["workload.load"]), float(r["accepted_load"])))
    best = {}
    for k, curve in curves.items():
        peak_at, peak = max(curve, key=lambda c: c[1])
        best[k] = (peak, peak_at, max(curve)[1])
    header("network")
    for n in SIZES:
        for fam in FAMILIES:
            cells = []
            for p in PATTERNS:
                peak, at, full = best[(p, fam, n)]
                cells.append(f"{peak:.3f} · {peak * n * PHIT_BYTES / CYCLE_NS:.1f} B/ns ({full:.3f})")
            print(f"| {label(fam, n)} | " + " | ".join(cells) + " |")
    return best


def pct(x):
    """A signed percentage, rounded, with a true minus sign and no "-0%"."""
    r = round(100 * x)
    return "0%" if r == 0 else f"+{r}%" if r > 0 else f"−{-r}%"


def gains(lat, best):
    """The Midimew against the torus: throughput, mean distance and base latency."""
    header("Midimew over torus")
    for n in SIZES:
        row = []
        for p in PATTERNS:
            mi, to = best[(p, "midimew", n)], best[(p, "torus", n)]
            row.append(f"{pct(mi[0] / to[0] - 1)} ({pct(mi[2] / to[2] - 1)})")
        print(f"| {n} nodes: throughput | " + " | ".join(row) + " |")
        row = []
        for p in PATTERNS:
            dt = float(lat[(p, "torus", n)]["expected_mean_hops"])
            dm = float(lat[(p, "midimew", n)]["expected_mean_hops"])
            lt, lm = float(lat[(p, "torus", n)]["latency"]), float(lat[(p, "midimew", n)]["latency"])
            row.append(f"−{100 * (1 - dm / dt):.1f}% · −{100 * (1 - lm / lt):.1f}%")
        print(f"| {n} nodes: distance · base latency | " + " | ".join(row) + " |")


if __name__ == "__main__":
    lat = latency_table()
    print()
    best = throughput_table()
    print()
    gains(lat, best)

"""Latency against load of two 64-node networks of degree 4, a bidirectional 8x8 torus and the
Midimew C_64(5, 6) (Puente et al. compare the Midimew with the square torus), simulated by
netwrap from Python, with Agarwal 1991's model (eq. 10) dashed over the torus.

The same experiment as examples/torus-vs-midimew.toml, over more loads:

    python examples/torus_vs_midimew.py                # torus_vs_midimew.png
    python examples/torus_vs_midimew.py --quick --out /tmp/quick.png

Needs the netwrap Python package (python/, see docs/python.md) and matplotlib.
"""

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import netwrap  # noqa: E402

TORUS = {"family": "torus", "k": 8, "n": 2, "bidirectional": True}
MIDIMEW = {"family": "midimew", "nodes": 64}
SIZE = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few loads and messages (seconds)")
    parser.add_argument("--out", default="torus_vs_midimew.png", help="the picture (PNG)")
    a = parser.parse_args()

    rates = [0.02, 0.08, 0.14] if a.quick else [round(0.01 * i, 2) for i in range(1, 21)]
    spec = {"workload": {"size": SIZE}, "run": {"messages": 300 if a.quick else 4000}}
    # The two networks zipped into one axis, as in the TOML file: one row per (rate, network).
    # Each network is named as the command line names it: "torus k=8 n=2 bidirectional".
    df = netwrap.sweep(spec, {"workload.rate": rates, "zip": [{"topology": [TORUS, MIDIMEW]}]})

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for name, rows in df.groupby("topology", sort=False):
        ok = rows[rows["verdict"] == "ok"]
        ax.errorbar(ok["workload.rate"], ok["latency"], yerr=ok["latency_ci95"], marker="o",
                    capsize=2, label=f"{name}, simulated")

    # Agarwal 1991's contention model of the bidirectional 8-ary 2-cube, up to its saturation.
    grid = [i * 0.002 for i in range(1, 1 + int(max(rates) / 0.002))]
    model = netwrap.model.kary_ncube(k=8, n=2, bidirectional=True, rate=grid, size=SIZE)
    curve = [(m, p["latency"]) for m, p in zip(grid, model) if p["latency"] is not None]
    ax.plot([m for m, _ in curve], [t for _, t in curve], "--", color="C0",
            label="torus, Agarwal 1991 eq. 10")

    ax.set_xlabel("request rate m (messages/node/cycle)")
    ax.set_ylabel("latency T (cycles)")
    ax.set_title(f"64 nodes, B = {SIZE} flits, uniform traffic")
    ax.set_ylim(bottom=0)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    saturated = df[df["verdict"] != "ok"]
    print(f"{a.out}: {len(df)} points ({len(saturated)} saturated, not drawn)")


if __name__ == "__main__":
    main()

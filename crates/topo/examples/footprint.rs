//! Builds a topology and prints what it holds: bytes from capacities (topology + routing) and
//! the process's peak resident memory (VmHWM), per node.
//!
//! `cargo run --release -p netwrap-topo --example footprint -- '{"family":"torus","k":32,"n":4}'`

use netwrap_topo::{RoutingSpec, Topology, TopologySpec};
use std::time::Instant;

fn vm(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.trim().strip_suffix("kB")?.trim().parse().ok())
        .unwrap_or(0)
}

fn heap_bytes(t: &Topology) -> usize {
    match t {
        Topology::Cube(c) => c.heap_bytes(),
        Topology::Circulant(c) => c.heap_bytes(),
        Topology::Multistage(c) => c.heap_bytes(),
        Topology::ModularButterfly(c) => c.heap_bytes(),
        Topology::Table(c, inner) => c.heap_bytes() + heap_bytes(inner),
        Topology::UpDown(c, inner) => c.heap_bytes() + heap_bytes(inner),
        Topology::FatTree(c) => c.heap_bytes(),
        Topology::Xgft(c) => c.heap_bytes(),
        Topology::NHop(c) => c.heap_bytes(),
        Topology::Ccc(c) => c.heap_bytes(),
        Topology::Xbar(c) => c.heap_bytes(),
        Topology::Dragonfly(c) => c.heap_bytes(),
        Topology::SlimFly(c) => c.heap_bytes(),
        Topology::Graph(c) => c.heap_bytes(),
    }
}

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| r#"{"family":"torus","k":32,"n":4}"#.into());
    let spec: TopologySpec = serde_json::from_str(&arg).expect("a topology spec as JSON");
    let before = vm("VmRSS:");
    let start = Instant::now();
    let topo = match spec.shape(&RoutingSpec::default()).and_then(|s| s.build()) {
        Ok(t) => t,
        Err(e) => {
            println!("refused in {:?}: {e}", start.elapsed());
            return;
        }
    };
    let built = start.elapsed();
    let net = topo.network();
    let nodes = net.terminals().max(net.routers()) as f64;
    let bytes = heap_bytes(&topo);
    println!("{}", net.name());
    println!(
        "terminals {} routers {} channels {}; built in {built:?}",
        net.terminals(),
        net.routers(),
        net.channels().len()
    );
    println!("heap bytes (capacities) {bytes} = {:.2} per node", bytes as f64 / nodes);
    println!(
        "resident: before {} kB, after {} kB, peak {} kB = {:.2} bytes per node above the start",
        before,
        vm("VmRSS:"),
        vm("VmHWM:"),
        (vm("VmHWM:") - before) as f64 * 1024.0 / nodes
    );
    if std::env::args().any(|a| a == "--breakdown") {
        breakdown(&topo);
    }
    if std::env::args().any(|a| a == "--metrics") {
        let start = Instant::now();
        match topo.metrics() {
            Ok(m) => println!(
                "metrics in {:?}: diameter {} average {:.4}; bisection {} ({}); load {:?} ({})",
                start.elapsed(),
                m.diameter,
                m.average_distance,
                m.bisection_width,
                m.bisection_how,
                m.channel_load,
                m.load_how
            ),
            Err(e) => println!("metrics failed in {:?}: {e}", start.elapsed()),
        }
        println!("peak {} kB", vm("VmHWM:"));
    }
}
/// Times the bisection and the distances apart.
fn breakdown(topo: &Topology) {
    let t = Instant::now();
    let b = topo.bisection();
    println!("bisection {:?} {}", t.elapsed(), b.width);
    let t = Instant::now();
    let (vt, sym) = topo.symmetry();
    let d = netwrap_topo::metrics::bounded_distances(topo.network(), vt, sym).unwrap();
    println!("distances {:?} {}", t.elapsed(), d.how);
}

//! Collectives as workloads: exact completion times on idle networks (verifications, each
//! expected value derived by hand from the engine's cycle contract: an unloaded message of h
//! hops and B flits takes h + B cycles on the ideal switch), placements, the bound, and the
//! errors a collective's spec can meet.

use netwrap_engine::{Jobs, Record};
use netwrap_sim::report::Verdict;
use netwrap_sim::{Experiment, SimError, SimResult, SimSpec, simulate};

fn spec(toml: &str) -> SimSpec {
    toml::from_str(toml).unwrap()
}

fn run(toml: &str) -> SimResult {
    let r = simulate(&spec(toml)).unwrap();
    assert_eq!(r.report.verdict, Verdict::Ok, "{:?}", r.report.verdict_reason);
    r
}

fn spec_error(toml: &str) -> (String, String) {
    let s = spec(toml);
    let e = s.resolve().and_then(|p| Experiment::build(&p).map(|_| ()));
    match e {
        Err(SimError::Spec(e)) => (e.path.clone(), e.to_string()),
        Err(e) => (String::new(), e.to_string()),
        Ok(()) => panic!("{toml} was accepted"),
    }
}

/// Verification (the numbers): the ring all-reduce of S = 64 flits on a unidirectional
/// ring of 8 nodes, on the ideal switch, takes 2(N − 1) = 14 steps of ⌈S/N⌉ = 8 flits; each
/// step's messages go one hop on channels of their own, 1 + 8 = 9 cycles, and each step
/// starts when the last one's message is delivered: 14 × 9 = 126 cycles, the sum of the
/// unloaded step latencies, with no contention along the critical path.
#[test]
fn ring_allreduce_on_an_idle_ring_takes_the_sum_of_its_unloaded_steps() {
    let r = run(
        "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nsize = 64\n[workload.collective]\nkind = \"allreduce-ring\"\n",
    );
    assert_eq!(r.report.completion, Some(126));
    let c = r.report.collective.as_ref().unwrap();
    assert_eq!((c.messages, c.flits, c.rounds), (8 * 14, 8 * 14 * 8, 14));
    assert_eq!((c.breakdown.messages, c.breakdown.hops, c.breakdown.network), (14, 14, 126));
    assert_eq!(c.breakdown.contention, 0.0);
    assert_eq!(c.bound.critical_path, 126.0);
    assert_eq!(c.ratio, Some(1.0));
    // Every message crosses one channel: 112 messages of 8 flits over 8 channels, 112 flits
    // on each, below the critical path.
    assert_eq!(c.bound.channel, Some(112.0));
    assert_eq!(r.report.hop_histogram, vec![0, 112]);
}

/// Verification: with compute time c per step, each of the 13 steps after the first waits c
/// more: 126 + 13c; the breakdown puts exactly 13c in compute.
#[test]
fn compute_between_steps_adds_to_the_critical_path() {
    let r = run(
        "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nsize = 64\n[workload.collective]\nkind = \"allreduce-ring\"\ncompute = 5\n",
    );
    assert_eq!(r.report.completion, Some(126 + 13 * 5));
    assert_eq!(r.report.collective.as_ref().unwrap().breakdown.compute, 65);
}

/// Verification: recursive doubling on a 16-node hypercube takes log2 16 = 4 steps; in step k
/// every node exchanges all S flits with its neighbour across dimension k, one hop on a
/// channel of its own, so no two messages meet: 4 × (1 + S) cycles (S = 8: 36).
#[test]
fn recursive_doubling_on_a_hypercube_takes_log_n_uncontended_steps() {
    let r = run(
        "[topology]\nfamily = \"hypercube\"\nn = 4\n[workload]\nsize = 8\n[workload.collective]\nkind = \"allreduce-doubling\"\n",
    );
    assert_eq!(r.report.completion, Some(4 * 9));
    let c = r.report.collective.as_ref().unwrap();
    assert_eq!(c.rounds, 4);
    assert_eq!(c.breakdown.contention, 0.0);
    assert_eq!(r.report.hop_histogram, vec![0, 16 * 4]);
}

/// Verification: a halo exchange on a bidirectional torus with the block mapping sends only
/// to neighbours: every message takes one hop (2-D on 8 × 8, 3-D on 4 × 4 × 4).
#[test]
fn halo_exchange_with_a_block_mapping_sends_only_to_neighbours() {
    for (kind, topo, faces) in [("halo2d", "k = 8\nn = 2", 4u64), ("halo3d", "k = 4\nn = 3", 6)] {
        let r = run(&format!(
            "[topology]\nfamily = \"torus\"\n{topo}\nbidirectional = true\n[workload]\nsize = 4\nplacement = \"block\"\n[workload.collective]\nkind = \"{kind}\"\niterations = 3\ncompute = 10\n"
        ));
        let messages = 64 * faces * 3;
        assert_eq!(r.report.hop_histogram, vec![0, messages], "{kind}");
        let c = r.report.collective.as_ref().unwrap();
        assert_eq!(c.iterations.len(), 3);
        // Each iteration computes 10 cycles, then its faces; the first starts at cycle 10.
        assert_eq!(c.breakdown.start, 10);
        assert_eq!(c.breakdown.compute, 20);
        // Every face is one hop on a channel of its own, all sent at once: a rank's faces
        // arrive in the same cycle, so it never waits for one after another.
        assert_eq!(c.breakdown.dependency_wait, 0.0, "{kind}");
        // Unloaded: 10 cycles of compute, then 1 hop + 4 flits, three times.
        assert_eq!(r.report.completion, Some(3 * (10 + 1 + 4)), "{kind}");
    }
}

/// Verification: a random placement is a permutation drawn from the seed: the same seed places
/// alike (the same completion), and it is not the linear one on the ring (where every step then
/// crosses several hops, so the all-reduce takes longer than 126 cycles).
#[test]
fn random_placement_is_seeded() {
    let text = |seed: u64| {
        format!(
            "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nsize = 64\nplacement = \"random\"\n[workload.collective]\nkind = \"allreduce-ring\"\n[run]\nseed = {seed}\n"
        )
    };
    let a = run(&text(3));
    let b = run(&text(3));
    assert_eq!(a.report, b.report);
    assert!(a.report.completion.unwrap() > 126);
}

/// Verification: a placement file places rank r on its line r's node. Two ranks on nodes 0
/// and 3 of a unidirectional 8-ring: 2 rounds of ⌈64/2⌉ = 32 flits; rank 0's messages go 3
/// hops, rank 1's 5, on disjoint channels. Each rank's second message leaves when the other's
/// first arrives (rank 0 at 5 + 32 = 37, rank 1 at 3 + 32 = 35) and arrives 3 + 32 or
/// 5 + 32 cycles later: both at 72.
#[test]
fn a_placement_file_places_each_rank() {
    let dir = std::env::temp_dir().join(format!("netwrap-placement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("reverse.txt");
    std::fs::write(&file, "# rank r's node\n0\n\n3\n").unwrap();
    let r = run(&format!(
        "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nsize = 64\nplacement-file = {:?}\n[workload.collective]\nkind = \"allreduce-ring\"\n",
        file.display().to_string()
    ));
    assert_eq!(r.report.completion, Some(72));
    assert_eq!(r.report.collective.as_ref().unwrap().ranks, 2);
    std::fs::write(&file, "0\n1\nx\n").unwrap();
    let (_, e) = spec_error(&format!(
        "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nplacement-file = {:?}\n[workload.collective]\nkind = \"allreduce-ring\"\n",
        file.display().to_string()
    ));
    assert!(e.contains("line 3") && e.contains("'x'"), "{e}");
    std::fs::write(&file, "0\n1\n1\n").unwrap();
    let (_, e) = spec_error(&format!(
        "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nplacement-file = {:?}\n[workload.collective]\nkind = \"allreduce-ring\"\n",
        file.display().to_string()
    ));
    assert!(e.contains("line 3") && e.contains("already placed on line 2"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every algorithm completes on every router, and the same seed gives the same result on any
/// number of threads (characterisation of completion; verification of determinism).
#[test]
fn every_collective_completes_and_is_reproducible() {
    let kinds = [
        "allreduce-ring",
        "allreduce-doubling",
        "allreduce-rabenseifner",
        "alltoall",
        "allgather",
        "broadcast",
        "halo2d",
        "halo3d",
        "bsp",
    ];
    for router in ["ideal", "vc"] {
        for kind in kinds {
            let text = format!(
                "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\nbidirectional = true\n[router]\nkind = \"{router}\"\n[workload]\nsize = 32\n[workload.collective]\nkind = \"{kind}\"\niterations = 2\n"
            );
            let point = spec(&text).resolve().unwrap();
            let e = Experiment::build(&point).unwrap();
            let one = e.run_with(&point, Record { jobs: Jobs::Exactly(1), ..Record::default() }).unwrap();
            assert_eq!(one.report.verdict, Verdict::Ok, "{kind} {router}: {:?}", one.report.verdict_reason);
            let c = one.report.collective.as_ref().unwrap();
            assert_eq!(c.delivered, c.messages, "{kind} {router}");
            let completion = one.report.completion.unwrap();
            // The critical path accounts for the completion exactly, and never beats the bound.
            let b = &c.breakdown;
            assert_eq!(b.start + b.compute + b.network, completion, "{kind} {router}");
            assert!(completion as f64 >= c.bound.bound, "{kind} {router}: {completion} < {:?}", c.bound);
            let three = e.run_with(&point, Record { jobs: Jobs::Exactly(3), ..Record::default() }).unwrap();
            assert_eq!(one.report, three.report, "{kind} {router}");
        }
    }
}

/// A run that the cycle limit stops before the collective completes says so, and gives no
/// completion.
#[test]
fn the_cycle_limit_is_its_own_verdict() {
    let r = simulate(&spec(
        "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nsize = 64\n[workload.collective]\nkind = \"allreduce-ring\"\n[run]\nmax-cycles = 50\n",
    ))
    .unwrap();
    assert_eq!(r.report.verdict, Verdict::LimitReached);
    assert_eq!(r.report.completion, None);
    let why = r.report.verdict_reason.unwrap();
    assert!(why.contains("before the allreduce-ring completed"), "{why}");
}

/// Every input answered: each bad collective spec is refused, naming its key.
#[test]
fn bad_collective_specs_name_their_key() {
    let cases = [
        // Recursive doubling needs a power of two: 12 nodes.
        (
            "[topology]\nfamily = \"ring\"\nk = 12\n[workload.collective]\nkind = \"allreduce-doubling\"\n",
            "workload.collective.kind",
            "power-of-two",
        ),
        (
            "[topology]\nfamily = \"ring\"\nk = 8\n[workload.collective]\nkind = \"halo2d\"\ngrid = [3, 3]\n",
            "workload.collective.grid",
            "do not match the 8 ranks",
        ),
        (
            "[topology]\nfamily = \"ring\"\nk = 8\n[workload.collective]\nkind = \"allreduce-ring\"\nranks = 9\n",
            "workload.collective.ranks",
            "8 nodes",
        ),
        (
            "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nrate = 0.1\n[workload.collective]\nkind = \"alltoall\"\n",
            "workload.rate",
            "does not apply",
        ),
        (
            "[topology]\nfamily = \"ring\"\nk = 8\n[workload.collective]\nkind = \"alltoall\"\n[run]\nmessages = 5\n",
            "run.messages",
            "runs to completion",
        ),
        (
            "[topology]\nfamily = \"fat-tree\"\n[workload]\nplacement = \"block\"\n[workload.collective]\nkind = \"halo2d\"\n",
            "workload.placement",
            "not a torus",
        ),
        (
            "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[workload]\nplacement = \"block\"\n[workload.collective]\nkind = \"allreduce-ring\"\n",
            "workload.placement",
            "no process grid",
        ),
        (
            "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[workload]\nplacement = \"random\"\n",
            "workload.placement",
            "belongs to a collective",
        ),
        (
            "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[workload.collective]\nkind = \"bsp\"\niterations = 0\n",
            "workload.collective.iterations",
            "at least once",
        ),
    ];
    for (text, path, fragment) in cases {
        let (p, e) = spec_error(text);
        assert_eq!(p, path, "{text}: {e}");
        assert!(e.contains(fragment), "{text}: {e}");
    }
}

/// Verification of the round trip: a collective's written spec resolves to itself.
#[test]
fn a_collectives_written_spec_resolves_to_itself() {
    let point = spec(
        "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[workload]\nsize = 16\nplacement = \"random\"\n[workload.collective]\nkind = \"alltoall\"\nschedule = \"pairwise\"\ncompute = 3\n",
    )
    .resolve()
    .unwrap();
    let again = point.written().resolve().unwrap();
    assert_eq!(again.workload, point.workload);
    assert_eq!(again.run, point.run);
}

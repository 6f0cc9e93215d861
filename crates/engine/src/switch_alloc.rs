//! Switch allocators: which of a router's input VCs, each asking for one output (a channel or
//! an ejection port), move a flit this cycle, at most one per input port and one per output.
//!
//! `greedy` (netwrap's own) is not here: it grants the requests one by one in the router's
//! arbitration order, each if its input port and output are still free, inside the engines.
//! The separable allocators (Dally & Towles 2004 §19.3; BookSim2's `separable_input_first`,
//! `separable_output_first` and `islip` with one iteration, its default) run in two phases with
//! a round-robin arbiter per input port (over its VCs) and per output (over input ports), or,
//! under oldest-first arbitration, arbiters that pick the oldest request:
//! - *input-first*: each input port picks one of its requesting VCs; each output picks one of
//!   the input ports whose pick asks for it. Both arbiters advance past a winner.
//! - *output-first*: each output picks one input port among all that ask for it (and advances
//!   past it); each input port picks, among its VCs whose output picked it, one (and advances).
//! - *iSLIP* (McKeown 1999): output-first, but an output's arbiter advances only when its pick is
//!   accepted, which desynchronises the outputs' pointers under load.
//!
//! Both VC engines call [`allocate`] with the same requests in the same order, so the fast path
//! and the reference agree by construction here and the oracle tests what surrounds it.

use crate::params::Allocator;

/// One input VC's request for the switch.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// Its VC within its input port (0..V): the input arbiter's position.
    pub vc: u32,
    /// Its input port (a global number; the input VC is `input · V + vc`): the output
    /// arbiter's position.
    pub input: u32,
    /// The output it asks for (a global number: channels, then ejection ports).
    pub output: u32,
    /// Oldest-first priority, lower first (creation cycle, salt); 0 for round-robin.
    pub age: (u64, u64),
}

/// An arbiter's preference for a request: its age under oldest-first (else zero), then its
/// distance from the arbiter's pointer; lower first.
type Rank = ((u64, u64), u32);

/// Round-robin pointers: one per input port (a VC, 0..V) and one per output (an input port);
/// and the allocator's working lists, kept here so that a round allocates nothing.
pub struct Pointers {
    /// Each input port's arbiter: the VC it prefers next.
    pub input: Vec<u32>,
    /// Each output's arbiter: the input port it prefers next.
    pub output: Vec<u32>,
    /// VCs per port and input ports in all, the arbiters' moduli.
    v: u32,
    ports: u32,
    /// Each phase's winners: (arbiter, request index, rank).
    first: Vec<(u32, usize, Rank)>,
    second: Vec<(u32, usize, Rank)>,
}

impl Pointers {
    /// Pointers at 0 for `ports` input ports of `v` VCs and `outputs` outputs.
    pub fn new(ports: u32, outputs: u32, v: u32) -> Self {
        Pointers {
            input: vec![0; ports as usize],
            output: vec![0; outputs as usize],
            v,
            ports,
            first: Vec::new(),
            second: Vec::new(),
        }
    }
}

/// Grants among `reqs` (one router's, at most one per input VC) by `kind` (not
/// [`Allocator::Greedy`]); `granted[i]` says whether `reqs[i]` moves. `oldest`: arbiters pick
/// the oldest request instead of rotating.
pub fn allocate(
    kind: Allocator,
    reqs: &[Request],
    oldest: bool,
    ptr: &mut Pointers,
    granted: &mut Vec<bool>,
) {
    granted.clear();
    granted.resize(reqs.len(), false);
    let (v, ports) = (ptr.v, ptr.ports);
    let age = |r: &Request| if oldest { r.age } else { (0, 0) };
    let mut first = std::mem::take(&mut ptr.first);
    let mut second = std::mem::take(&mut ptr.second);
    let (inputs, outputs) = (&ptr.input, &ptr.output);
    // An arbiter's preference: the oldest, or the first at or after its pointer.
    let by_vc = |r: &Request| (age(r), (r.vc + v - inputs[r.input as usize]) % v);
    let by_input = |r: &Request| (age(r), (r.input + ports - outputs[r.output as usize] % ports) % ports);
    match kind {
        Allocator::Greedy => unreachable!("greedy allocation runs in the engines"),
        Allocator::InputFirst => {
            // Each input port's pick (marked in `granted` meanwhile), then each output's among
            // the picks.
            best_per(reqs, |r| r.input, by_vc, |_| true, &mut first);
            for &(_, i, _) in &first {
                granted[i] = true;
            }
            best_per(reqs, |r| r.output, by_input, |i| granted[i], &mut second);
            granted.fill(false);
            for &(_, i, _) in &second {
                let r = reqs[i];
                granted[i] = true;
                ptr.input[r.input as usize] = (r.vc + 1) % v;
                ptr.output[r.output as usize] = (r.input + 1) % ports;
            }
        }
        Allocator::OutputFirst | Allocator::Islip => {
            // Each output's pick (an input port), then each input port's among its VCs whose
            // output picked it.
            best_per(reqs, |r| r.output, by_input, |_| true, &mut first);
            let picked = |i: usize| {
                let r = &reqs[i];
                first.iter().any(|&(out, g, _)| out == r.output && reqs[g].input == r.input)
            };
            best_per(reqs, |r| r.input, by_vc, picked, &mut second);
            if kind == Allocator::OutputFirst {
                for &(_, g, _) in &first {
                    let r = reqs[g];
                    ptr.output[r.output as usize] = (r.input + 1) % ports;
                }
            }
            for &(_, i, _) in &second {
                let r = reqs[i];
                granted[i] = true;
                ptr.input[r.input as usize] = (r.vc + 1) % v;
                ptr.output[r.output as usize] = (r.input + 1) % ports;
            }
        }
    }
    ptr.first = first;
    ptr.second = second;
}

/// Into `best`, for each value of `group` among the requests `eligible` admits, the one that
/// `rank` puts first (ties by position), in the order the groups first appear.
fn best_per(
    reqs: &[Request],
    group: impl Fn(&Request) -> u32,
    rank: impl Fn(&Request) -> Rank,
    eligible: impl Fn(usize) -> bool,
    best: &mut Vec<(u32, usize, Rank)>,
) {
    best.clear();
    for (i, r) in reqs.iter().enumerate() {
        if !eligible(i) {
            continue;
        }
        let (g, k) = (group(r), rank(r));
        match best.iter_mut().find(|b| b.0 == g) {
            Some(b) if k < b.2 => *b = (g, i, k),
            Some(_) => {}
            None => best.push((g, i, k)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The allocator as it was before its working lists moved into [`Pointers`] (a list per
    /// phase allocated every round, and a scan of the picks per request), kept to check that
    /// the rewrite grants the same.
    fn allocate_before(
        kind: Allocator,
        reqs: &[Request],
        oldest: bool,
        ptr: &mut (Vec<u32>, Vec<u32>, u32, u32),
        granted: &mut Vec<bool>,
    ) {
        granted.clear();
        granted.resize(reqs.len(), false);
        let (v, ports) = (ptr.2, ptr.3);
        // An arbiter's preference: the oldest, or the first at or after its pointer.
        let by_vc = |r: &Request, p: u32| (if oldest { r.age } else { (0, 0) }, (r.vc + v - p) % v);
        let by_input = |r: &Request, p: u32| {
            (if oldest { r.age } else { (0, 0) }, (r.input + ports - p % ports) % ports)
        };
        match kind {
            Allocator::Greedy => unreachable!("greedy allocation runs in the engines"),
            Allocator::InputFirst => {
                // Each input port's pick, then each output's among the picks.
                let picks: Vec<usize> =
                    best_per_before(reqs, |r| r.input, |r| by_vc(r, ptr.0[r.input as usize]), |_| true);
                let winners = best_per_before(
                    reqs,
                    |r| r.output,
                    |r| by_input(r, ptr.1[r.output as usize]),
                    |i| picks.contains(&i),
                );
                for i in winners {
                    let r = reqs[i];
                    granted[i] = true;
                    ptr.0[r.input as usize] = (r.vc + 1) % v;
                    ptr.1[r.output as usize] = (r.input + 1) % ports;
                }
            }
            Allocator::OutputFirst | Allocator::Islip => {
                // Each output's pick (an input port), then each input port's among its VCs whose
                // output picked it.
                let grants =
                    best_per_before(reqs, |r| r.output, |r| by_input(r, ptr.1[r.output as usize]), |_| true);
                let picked = |i: usize| {
                    grants.iter().any(|&g| reqs[g].output == reqs[i].output && reqs[g].input == reqs[i].input)
                };
                let accepted =
                    best_per_before(reqs, |r| r.input, |r| by_vc(r, ptr.0[r.input as usize]), picked);
                if kind == Allocator::OutputFirst {
                    for &g in &grants {
                        let r = reqs[g];
                        ptr.1[r.output as usize] = (r.input + 1) % ports;
                    }
                }
                for i in accepted {
                    let r = reqs[i];
                    granted[i] = true;
                    ptr.0[r.input as usize] = (r.vc + 1) % v;
                    ptr.1[r.output as usize] = (r.input + 1) % ports;
                }
            }
        }
    }

    /// For each value of `group` among the requests `eligible` admits, the index of the one that
    /// `rank` puts first (ties by position), in the order the groups first appear.
    fn best_per_before<K: Ord + Copy>(
        reqs: &[Request],
        group: impl Fn(&Request) -> u32,
        rank: impl Fn(&Request) -> K,
        eligible: impl Fn(usize) -> bool,
    ) -> Vec<usize> {
        let mut best: Vec<(u32, usize, K)> = Vec::new();
        for (i, r) in reqs.iter().enumerate() {
            if !eligible(i) {
                continue;
            }
            let (g, k) = (group(r), rank(r));
            match best.iter_mut().find(|b| b.0 == g) {
                Some(b) if k < b.2 => *b = (g, i, k),
                Some(_) => {}
                None => best.push((g, i, k)),
            }
        }
        best.into_iter().map(|b| b.1).collect()
    }

    proptest! {
        /// Verification: on random rounds (up to 40 requests over 6 input ports of 4 VCs and
        /// 5 outputs, round-robin or oldest-first, 1 to 4 rounds in a row so the pointers
        /// move), every allocator grants exactly what it granted before the rewrite and leaves
        /// the same pointers.
        #[test]
        fn the_allocation_free_rewrite_grants_the_same(
            rounds in prop::collection::vec(
                prop::collection::btree_map((0..6u32, 0..4u32), (0..5u32, 0..3u64, 0..3u64), 0..40),
                1..=4,
            ),
            kind in prop_oneof![Just(Allocator::InputFirst), Just(Allocator::OutputFirst), Just(Allocator::Islip)],
            oldest in any::<bool>(),
        ) {
            let mut now = Pointers::new(6, 5, 4);
            let mut before = (vec![0; 6], vec![0; 5], 4, 6);
            for round in rounds {
                // At most one request per input VC, in the input VCs' order.
                let reqs: Vec<Request> = round
                    .into_iter()
                    .map(|((input, vc), (output, a, b))| Request { vc, input, output, age: (a, b) })
                    .collect();
                let (mut g1, mut g2) = (Vec::new(), Vec::new());
                allocate(kind, &reqs, oldest, &mut now, &mut g1);
                allocate_before(kind, &reqs, oldest, &mut before, &mut g2);
                prop_assert_eq!(&g1, &g2);
                prop_assert_eq!((&now.input, &now.output), (&before.0, &before.1));
            }
        }
    }

    fn req(vc: u32, input: u32, output: u32) -> Request {
        Request { vc, input, output, age: (0, 0) }
    }

    fn run(kind: Allocator, reqs: &[Request], ptr: &mut Pointers) -> Vec<bool> {
        let mut granted = Vec::new();
        allocate(kind, reqs, false, ptr, &mut granted);
        granted
    }

    /// Verification by hand: inputs 0 and 1 both ask for output 0 with their VC 0, input 0 also
    /// for output 1 with its VC 1. Input-first from pointers at 0: input 0 picks VC 0 (output
    /// 0), input 1 VC 0 (output 0); output 0 takes input 0; output 1 idles — one flit moves.
    /// Output-first: output 0 grants input 0, output 1 grants input 0; input 0 accepts VC 0
    /// (its pointer is at 0) — again one. With input 0's pointer at VC 1, input-first moves two:
    /// input 0 picks output 1, input 1 wins output 0.
    #[test]
    fn separable_allocators_match_hand_counts() {
        let reqs = [req(0, 0, 0), req(1, 0, 1), req(0, 1, 0)];
        let mut p = Pointers::new(2, 2, 2);
        assert_eq!(run(Allocator::InputFirst, &reqs, &mut p), [true, false, false]);
        assert_eq!((p.input.clone(), p.output.clone()), (vec![1, 0], vec![1, 0]));
        let mut p = Pointers::new(2, 2, 2);
        assert_eq!(run(Allocator::OutputFirst, &reqs, &mut p), [true, false, false]);
        // Output 1 granted input 0, which declined: output-first advances it anyway, iSLIP not.
        assert_eq!(p.output, vec![1, 1]);
        let mut p = Pointers::new(2, 2, 2);
        assert_eq!(run(Allocator::Islip, &reqs, &mut p), [true, false, false]);
        assert_eq!(p.output, vec![1, 0]);
        let mut p = Pointers::new(2, 2, 2);
        p.input[0] = 1;
        assert_eq!(run(Allocator::InputFirst, &reqs, &mut p), [false, true, true]);
    }

    /// Verification: iSLIP's pointers desynchronise. Two inputs each ask for both outputs
    /// (their VC 0 for output 0, VC 1 for output 1), every cycle. In the first cycle both
    /// outputs grant input 0, which accepts output 0 only: one flit. From then on the outputs'
    /// pointers differ and every cycle moves two flits (McKeown 1999's argument).
    #[test]
    fn islip_desynchronises_under_steady_requests() {
        let reqs = [req(0, 0, 0), req(1, 0, 1), req(0, 1, 0), req(1, 1, 1)];
        let mut p = Pointers::new(2, 2, 2);
        let moved: Vec<usize> =
            (0..6).map(|_| run(Allocator::Islip, &reqs, &mut p).iter().filter(|&&g| g).count()).collect();
        assert_eq!(moved, [1, 2, 2, 2, 2, 2]);
    }
}

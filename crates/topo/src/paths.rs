//! Non-minimal paths over any family's minimal routing: Valiant's random intermediate
//! (Valiant & Brebner 1981; on the dragonfly an intermediate group, Kim, Dally, Scott & Abts
//! 2008 §4.1), UGAL's choice at the source between the minimal path and one random
//! non-minimal path by queue length × hops (Singh 2005; local and global variants as Jiang,
//! Kim & Dally 2009 §2), progressive adaptive routing (PAR, Jiang et al. 2009 §3), which
//! may re-decide at the first hop within the source group, and HyperX's dimensionally-adaptive
//! load-balanced routing (DAL, Ahn et al. 2009 §4), which may deroute once within each
//! dimension it has still to align.
//!
//! A message carries one `u32` of routing state besides its destination and salt (its
//! [`Leg`]): not yet decided, minimal, towards an intermediate terminal, or past it; under DAL
//! the dimensions it has derouted in. The
//! engines keep it per message (per packet on the virtual-channel router) and ask [`Legs`]
//! where the message heads next; the family's [`Routing`] routes it there, so every family
//! whose routing reaches every terminal takes these paths unchanged.

use crate::network::{Candidates, ChannelId, Network, RouterId, Routing, TerminalId};
use serde::{Deserialize, Serialize};

/// Which paths messages take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathChoice {
    /// The family's routing alone.
    #[default]
    Minimal,
    /// Always through a random intermediate (oblivious).
    Valiant,
    /// At the source, the minimal path or one random Valiant path, by the queue of each first
    /// hop times the path's hops.
    UgalLocal,
    /// As `UgalLocal`, with the queues of every channel along each path (an idealised bound).
    UgalGlobal,
    /// As `UgalLocal`, and a message sent minimally may turn non-minimal at its first hop if
    /// that hop keeps it in its source group.
    Par,
    /// HyperX: at every hop the least-queued minimal hop, or a deroute within a dimension still
    /// to align (once per dimension) when the minimal hop's queue × hops left exceeds the
    /// deroute's × one hop more.
    Dal,
}

impl PathChoice {
    /// Whether the choice depends on queue state (UGAL, PAR, DAL).
    pub fn adaptive(self) -> bool {
        matches!(self, PathChoice::UgalLocal | PathChoice::UgalGlobal | PathChoice::Par | PathChoice::Dal)
    }

    /// Whether routes go through a drawn intermediate (Valiant, UGAL, PAR).
    pub fn intermediate(self) -> bool {
        !matches!(self, PathChoice::Minimal | PathChoice::Dal)
    }
}

/// Where Valiant's intermediate lies.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Via {
    /// A random group (dragonflies): the first leg ends on arrival in that group (Kim et al.
    /// 2008 §4.1, BookSim's `dragonflynew`).
    Group,
    /// A random router: the first leg ends at that router.
    #[default]
    Router,
}

impl Via {
    /// The value as written in a spec and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The path choice as the engines run it (lowered from the routing spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Paths {
    /// Which paths.
    pub choice: PathChoice,
    /// Where the intermediate lies.
    pub via: Via,
    /// UGAL and PAR: the non-minimal path is taken only when its weighted queue plus this
    /// many flits is still below the minimal path's.
    pub threshold: u32,
}

/// A message's routing state (see the module docs), one `u32`.
pub type Leg = u32;

/// Not yet decided: the message has not been routed at its source.
pub const UNDECIDED: Leg = u32::MAX;
/// Minimal, for good.
pub const MINIMAL: Leg = u32::MAX - 1;
/// Past its intermediate: minimal to the destination from there.
pub const PASSED: Leg = u32::MAX - 2;
/// PAR: minimal so far, may still turn at the first hop (source group `g`: `REVISABLE - g`).
const REVISABLE: Leg = u32::MAX - 3;
/// DAL: `DAL + m`, where bit `i` of `m` says the message has derouted in dimension `i`
/// (above every terminal number, below the states above).
const DAL: Leg = 1 << 30;
/// Most dimensions DAL tracks (bits of its mask).
pub const DAL_MAX_DIMENSIONS: u32 = 16;

/// Whether a delivered message in state `leg` left its minimal paths: it went through an
/// intermediate, or derouted under DAL.
#[inline]
pub fn went_nonminimal(leg: Leg) -> bool {
    leg == PASSED || (leg > DAL && leg < DAL + (1 << DAL_MAX_DIMENSIONS))
}

/// SplitMix64's finaliser (Steele, Lea & Flood 2014): the salt's bits spread over 64.
#[inline]
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a route decision needs of the network, built once per run.
#[derive(Clone, Debug)]
pub struct Legs {
    paths: Paths,
    terminals: u32,
    routers: u32,
    /// Each router's group, on families of groups (empty without: every router is in group
    /// 0, and a network of 2^20 nodes spares 4 MiB).
    group_of_router: Vec<u32>,
    /// Terminals per group.
    group_size: u32,
    /// Each terminal's ejection router, where a decision needs it: for non-minimal paths, or
    /// groups (empty for minimal paths without groups).
    router_of: Vec<RouterId>,
    /// The class of the network's global channels (named `global`), if it has one.
    global_class: Option<u16>,
    /// DAL: each router's first terminal (a deroute heads there), and the channel classes
    /// (HyperX dimensions) in which a router has more than one neighbour (a deroute exists).
    first_terminal: Vec<TerminalId>,
    deroutable: u32,
    /// DAL: the most hops a route takes, one per dimension and one more per dimension with a
    /// deroute (the classes `phases` gives it).
    dal_hops: u32,
}

impl Legs {
    /// The paths on `net`; `groups` is [`crate::Topology::groups`] (terminals per group,
    /// groups), needed by `Via::Group` and PAR.
    pub fn new(paths: Paths, net: &Network, groups: Option<(u32, u32)>) -> Self {
        let needed = paths.choice != PathChoice::Minimal || groups.is_some();
        let router_of: Vec<RouterId> =
            if needed { (0..net.terminals()).map(|t| net.eject_router(t)).collect() } else { Vec::new() };
        let group_size = groups.map_or(net.terminals().max(1), |g| g.0.max(1));
        let mut group_of_router = vec![0; if groups.is_some() { net.routers() as usize } else { 0 }];
        if groups.is_some() {
            for (t, &r) in router_of.iter().enumerate() {
                group_of_router[r as usize] = t as u32 / group_size;
            }
        }
        let global_class = net.classes().iter().position(|c| c == "global").map(|i| i as u16);
        let (mut first_terminal, mut deroutable, mut dal_hops) = (Vec::new(), 0u32, 0);
        if paths.choice == PathChoice::Dal {
            debug_assert!(net.terminals() < DAL && net.classes().len() as u32 <= DAL_MAX_DIMENSIONS);
            first_terminal = vec![u32::MAX; net.routers() as usize];
            for (t, &r) in router_of.iter().enumerate().rev() {
                first_terminal[r as usize] = t as u32;
            }
            let mut per_class = vec![0u32; net.classes().len()];
            for c in net.out_channels(0) {
                per_class[net.channel(c).class as usize] += 1;
            }
            deroutable = (0..per_class.len()).filter(|&i| per_class[i] > 1).fold(0, |m, i| m | 1 << i);
            dal_hops = per_class.len() as u32 + deroutable.count_ones();
        }
        Legs {
            paths,
            terminals: net.terminals(),
            routers: net.routers(),
            group_of_router,
            group_size,
            router_of,
            global_class,
            first_terminal,
            deroutable,
            dal_hops,
        }
    }

    /// The paths.
    pub fn paths(&self) -> Paths {
        self.paths
    }

    /// Whether messages may leave their minimal paths (anything but [`PathChoice::Minimal`]).
    #[inline]
    pub fn active(&self) -> bool {
        self.paths.choice != PathChoice::Minimal
    }

    /// Router `r`'s group (0 on families without groups).
    #[inline]
    pub fn group_of_router(&self, r: RouterId) -> u32 {
        self.group_of(r)
    }

    #[inline]
    fn group_of(&self, r: RouterId) -> u32 {
        if self.group_of_router.is_empty() { 0 } else { self.group_of_router[r as usize] }
    }

    /// Whether a message at router `at` has reached intermediate terminal `via`.
    #[inline]
    pub fn arrived(&self, at: RouterId, via: TerminalId) -> bool {
        match self.paths.via {
            Via::Router => at == self.router_of[via as usize],
            Via::Group => self.group_of(at) == via / self.group_size,
        }
    }

    /// The intermediate terminal a message of `salt` draws: uniform over the terminals, from
    /// the salt's bits mixed (the salt itself is drawn from the run's seeded stream).
    #[inline]
    fn draw(&self, salt: u32) -> TerminalId {
        let x = mix64(0x5641_4c49_414e_5431 ^ salt as u64);
        (((x >> 32) * self.terminals as u64) >> 32) as u32
    }

    /// Whether a message from router `at` to `dst` goes minimally whatever the choice: the
    /// destination's router (or, with `Via::Group`, its group) is the source's.
    #[inline]
    pub fn local(&self, at: RouterId, dst: TerminalId) -> bool {
        match self.paths.via {
            Via::Router => at == self.router_of[dst as usize],
            Via::Group => self.group_of(at) == self.group_of(self.router_of[dst as usize]),
        }
    }

    /// The terminal a message at `at` in state `leg` heads for: its intermediate until it
    /// arrives there — then the leg becomes [`PASSED`] and `switched` is set — and its
    /// destination otherwise. Calling it again at the same router changes nothing more.
    #[inline]
    pub fn target(&self, at: RouterId, dst: TerminalId, leg: &mut Leg, switched: &mut bool) -> TerminalId {
        if *leg < self.terminals {
            if self.arrived(at, *leg) {
                *leg = PASSED;
                *switched = true;
            } else {
                return *leg;
            }
        }
        dst
    }

    /// The terminal the message heads for, without changing its state.
    #[inline]
    pub fn peek(&self, at: RouterId, dst: TerminalId, leg: Leg) -> TerminalId {
        if leg < self.terminals && !self.arrived(at, leg) { leg } else { dst }
    }

    /// Where a message at router `at` heads next: its path decided ([`Legs::decide`]) and its
    /// leg advanced ([`Legs::target`]); the terminal to route towards, and whether its leg
    /// switched here (the phase classes rise there). Every engine routes through this.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn next_target<R: Routing>(
        &self,
        net: &Network,
        routing: &R,
        at: RouterId,
        dst: TerminalId,
        salt: u32,
        hops: u32,
        leg: &mut Leg,
        queue: impl Fn(ChannelId) -> u64,
        cands: &mut Candidates,
    ) -> (TerminalId, bool) {
        if !self.active() {
            return (dst, false);
        }
        if self.paths.choice == PathChoice::Dal {
            return (self.dal_hop(net, routing, at, dst, salt, hops, leg, &queue, cands), false);
        }
        let mut switched = false;
        self.decide(net, routing, at, dst, salt, hops, leg, &mut switched, queue, cands);
        let target = self.target(at, dst, leg, &mut switched);
        (target, switched)
    }

    /// A lower bound on the frontier entries ([`crate::metrics::walk_leg`]'s routing decisions)
    /// that walking `flows` — (source router, destination terminal), each walked through every
    /// one of `vias` ([`Legs::intermediates`]) unless [`Legs::local`], each leg with `salts`
    /// salts — takes, or `None` when computing it would cost more than `budget` steps.
    ///
    /// A leg walked level by level routes at least one entry a level, and it takes at least as
    /// many levels as the shortest path it follows has hops, plus one: the first leg from r to
    /// the routers where the intermediate v counts as reached (its router, or with `Via::Group`
    /// its group), A_v, at least d(r, A_v) + 1; the second from the router of A_v it landed
    /// on to the destination's router, at least d(A_v, r_d) + 1 (breadth-first distances,
    /// forwards and backwards from A_v). A walk that must take more than its limit is refused
    /// before it starts with the same verdict it would reach at the limit.
    pub fn least_work(
        &self,
        net: &Network,
        vias: &[(TerminalId, f64)],
        salts: u64,
        flows: &[(RouterId, TerminalId)],
        budget: u64,
    ) -> Option<f64> {
        let r = net.routers() as usize;
        // The arrival sets, each with the number of intermediates that share it.
        let mut sets: Vec<(Vec<RouterId>, u64)> = Vec::new();
        let steps = (vias.len() as u64).saturating_mul(r as u64 + net.channels().len() as u64);
        if steps > budget || self.router_of.is_empty() {
            return None;
        }
        for &(v, _) in vias {
            let set: Vec<RouterId> = (0..net.routers()).filter(|&a| self.arrived(a, v)).collect();
            match sets.iter_mut().find(|(s, _)| *s == set) {
                Some(e) => e.1 += 1,
                None => sets.push((set, 1)),
            }
        }
        // The flows that leave their minimal path, counted by source router and by the
        // destination's router; a local one takes at least one entry.
        let (mut from, mut to) = (vec![0u64; r], vec![0u64; r]);
        let (mut walked, mut local) = (0u64, 0u64);
        for &(src, d) in flows {
            if self.local(src, d) {
                local += 1;
            } else {
                walked += 1;
                from[src as usize] += 1;
                to[self.router_of[d as usize] as usize] += 1;
            }
        }
        let (start, srcs) = crate::graph::in_lists(net);
        let mut dist = vec![crate::graph::UNREACHED; r];
        let mut queue: Vec<RouterId> = Vec::with_capacity(r);
        let mut bfs = |set: &[RouterId], backwards: bool, dist: &mut Vec<u32>| {
            let against = backwards.then_some((&start[..], &srcs[..]));
            crate::graph::bfs_into(net, set, against, dist, &mut queue)
        };
        let weighted = |count: &[u64], dist: &[u32]| -> f64 {
            count
                .iter()
                .zip(dist)
                .filter(|&(_, &d)| d != crate::graph::UNREACHED)
                .map(|(&n, &d)| n as f64 * d as f64)
                .sum()
        };
        let mut least = local as f64 * salts as f64;
        for (set, shared) in &sets {
            bfs(set, true, &mut dist);
            let first = weighted(&from, &dist);
            bfs(set, false, &mut dist);
            let second = weighted(&to, &dist);
            least += (*shared * salts) as f64 * (2.0 * walked as f64 + first + second);
        }
        Some(least)
    }

    /// The intermediates a message may draw (non-minimal paths), as one terminal per router
    /// with the chance of drawing that router's terminals (the first leg's route and its end depend only on the
    /// intermediate's router): what exact loads and the static check walk.
    pub fn intermediates(&self) -> Vec<(TerminalId, f64)> {
        let mut first: Vec<Option<(TerminalId, u32)>> = vec![None; self.routers as usize];
        for (t, &r) in self.router_of.iter().enumerate() {
            let e = first[r as usize].get_or_insert((t as u32, 0));
            e.1 += 1;
        }
        let n = self.terminals.max(1) as f64;
        first.into_iter().flatten().map(|(t, k)| (t, k as f64 / n)).collect()
    }

    /// The decisions: at the source (state [`UNDECIDED`]) the path is chosen; under PAR a
    /// message still minimal re-decides once at its first hop (`hops == 1`: it has crossed
    /// one channel) if that hop left it in its source group (then `switched` is set when it turns). `queue(c)` is channel c's
    /// queue in flits as the deciding router sees it. Messages to their own router (group,
    /// with `Via::Group`) always go minimally.
    #[allow(clippy::too_many_arguments)]
    pub fn decide<R: Routing>(
        &self,
        net: &Network,
        routing: &R,
        at: RouterId,
        dst: TerminalId,
        salt: u32,
        hops: u32,
        leg: &mut Leg,
        switched: &mut bool,
        queue: impl Fn(ChannelId) -> u64,
        cands: &mut Candidates,
    ) {
        if *leg == UNDECIDED {
            if self.local(at, dst) {
                *leg = MINIMAL;
                return;
            }
            let via = self.draw(salt);
            *leg = match self.paths.choice {
                PathChoice::Minimal => MINIMAL,
                PathChoice::Valiant => via,
                _ => {
                    if self.prefer_minimal(net, routing, at, dst, salt, via, &queue, cands) {
                        if self.paths.choice == PathChoice::Par {
                            REVISABLE - self.group_of(at)
                        } else {
                            MINIMAL
                        }
                    } else {
                        via
                    }
                }
            };
        } else if hops == 1 && *leg <= REVISABLE && *leg >= REVISABLE - self.terminals {
            let source_group = REVISABLE - *leg;
            *leg = MINIMAL;
            if self.group_of(at) == source_group && !self.local(at, dst) {
                // PAR's second chance, with a fresh intermediate (the salt's other half).
                let via = self.draw(salt.rotate_left(16) ^ 0x9e37);
                if !self.prefer_minimal(net, routing, at, dst, salt, via, &queue, cands) {
                    *leg = via;
                    *switched = true;
                }
            }
        }
    }

    /// UGAL's test: q_min · H_min ≤ q_nonmin · H_nonmin + threshold (Singh 2005; BookSim's
    /// `ugal` dragonfly routing), with q a first hop's queue (`UgalLocal`, `Par`: the least
    /// among the routing's candidates) or the sum of the queues along the path
    /// (`UgalGlobal`), and H the hops.
    #[allow(clippy::too_many_arguments)]
    fn prefer_minimal<R: Routing>(
        &self,
        net: &Network,
        routing: &R,
        at: RouterId,
        dst: TerminalId,
        salt: u32,
        via: TerminalId,
        queue: &impl Fn(ChannelId) -> u64,
        cands: &mut Candidates,
    ) -> bool {
        let global = self.paths.choice == PathChoice::UgalGlobal;
        let (h_min, q_min, _) = self.walk(net, routing, at, dst, salt, None, global, queue, cands);
        let (h1, q1, mid) = self.walk(net, routing, at, via, salt, Some(via), global, queue, cands);
        // (UGAL-local weighs only the first hop's queue: the second leg's walk reads none, so
        // that the deciding router reads only its own channels.)
        let (h2, q2, _) = if global {
            self.walk(net, routing, mid, dst, salt, None, true, queue, cands)
        } else {
            self.walk(net, routing, mid, dst, salt, None, false, &|_| 0, cands)
        };
        let (h_non, q_non) = (h1 + h2, if global { q1.saturating_add(q2) } else { q1 });
        q_min.saturating_mul(h_min) <= q_non.saturating_mul(h_non).saturating_add(self.paths.threshold as u64)
    }

    /// Walks the routing's first candidates from `from` towards `to` (until arrival at `via`
    /// when given): (hops, queue, router reached). The queue is the least over the first
    /// hop's candidates, or with `all` the sum along the walk.
    #[allow(clippy::too_many_arguments)]
    fn walk<R: Routing>(
        &self,
        net: &Network,
        routing: &R,
        from: RouterId,
        to: TerminalId,
        salt: u32,
        via: Option<TerminalId>,
        all: bool,
        queue: &impl Fn(ChannelId) -> u64,
        cands: &mut Candidates,
    ) -> (u64, u64, RouterId) {
        let (mut at, mut hops, mut q) = (from, 0u64, 0u64);
        // Routes are at most as long as there are routers (a walk that is not has no end).
        let limit = self.routers as u64 + 1;
        while hops <= limit {
            if via.is_some_and(|v| self.arrived(at, v)) {
                break;
            }
            routing.route(at, to, salt, cands);
            let Some(&first) = cands.as_slice().first() else { break };
            if hops == 0 && !all {
                q = cands.as_slice().iter().map(|&c| queue(c)).min().unwrap_or(0);
            } else if all {
                q = q.saturating_add(queue(first));
            }
            at = net.channel(first).dst;
            hops += 1;
        }
        (hops, q, at)
    }
}

/// DAL (Ahn et al. 2009 §4) on a HyperX: a network whose channel classes are its dimensions
/// and whose routing offers the direct hop of every dimension still to align.
///
/// A DAL message may take, at every router, any minimal hop, or a deroute: a hop to another
/// coordinate within a dimension still to align that it has not derouted in yet. It takes a
/// deroute only when UGAL's test (Singh 2005), applied per hop as Ahn et al. weigh queue depth
/// by hops, prefers it: q_min · h > q_der · (h + 1) + threshold, with q_min the least queue
/// among the minimal hops, q_der the deroute's and h the dimensions left. The ideal switch
/// decides once per hop ([`Legs::next_target`]); the virtual-channel router every cycle its
/// header waits, and only when no minimal hop has a free VC ([`Legs::dal_candidates`]).
impl Legs {
    /// DAL: into `cands`, the hops a message at router `at` in state `leg` may take towards
    /// `dst`: every minimal hop, then — after the separator [`DEROUTES`], when there are any —
    /// the deroutes its leg still allows. Empty at the destination's router.
    #[allow(clippy::too_many_arguments)]
    pub fn dal_candidates<R: Routing>(
        &self,
        net: &Network,
        routing: &R,
        at: RouterId,
        dst: TerminalId,
        salt: u32,
        leg: Leg,
        cands: &mut Candidates,
    ) {
        routing.route(at, dst, salt, cands);
        let mut unaligned = 0u32;
        for &c in cands.as_slice() {
            unaligned |= 1 << net.channel(c).class;
        }
        let open = unaligned & !Self::derouted(leg) & self.deroutable;
        if open == 0 {
            return;
        }
        let minimal = cands.as_slice().len();
        cands.push(DEROUTES);
        for c in net.out_channels(at) {
            if open & (1 << net.channel(c).class) != 0 && !cands.as_slice()[..minimal].contains(&c) {
                cands.push(c);
            }
        }
    }

    /// DAL: whether a deroute with queue `q_der` beats the least minimal queue `q_min` with
    /// `h` dimensions left (the test in the notes above).
    #[inline]
    pub fn dal_prefers_deroute(&self, q_min: u64, h: usize, q_der: u64) -> bool {
        let h = h as u64;
        q_min.saturating_mul(h) > q_der.saturating_mul(h + 1).saturating_add(self.paths.threshold as u64)
    }

    /// DAL: the leg of a message that takes channel `c` from state `leg`, `c` one of its
    /// deroutes: its dimension marked.
    #[inline]
    pub fn dal_derouted(net: &Network, leg: Leg, c: ChannelId) -> Leg {
        DAL + (Self::derouted(leg) | 1 << net.channel(c).class)
    }

    /// DAL: the dimensions a message in state `leg` has derouted in.
    #[inline]
    pub fn derouted(leg: Leg) -> u32 {
        if leg == UNDECIDED { 0 } else { leg - DAL }
    }

    /// DAL: the channel classes (dimensions) in which a deroute exists.
    pub fn deroutable(&self) -> u32 {
        self.deroutable
    }

    /// DAL on the ideal switch: where a message at router `at` heads next: its destination,
    /// or the first terminal of the router its least-queued deroute leads to (scanned from a
    /// point the salt and hop count fix) when the test prefers it.
    #[allow(clippy::too_many_arguments)]
    fn dal_hop<R: Routing>(
        &self,
        net: &Network,
        routing: &R,
        at: RouterId,
        dst: TerminalId,
        salt: u32,
        hops: u32,
        leg: &mut Leg,
        queue: &impl Fn(ChannelId) -> u64,
        cands: &mut Candidates,
    ) -> TerminalId {
        self.dal_candidates(net, routing, at, dst, salt, *leg, cands);
        let (minimal, deroutes) = split_deroutes(cands.as_slice());
        if *leg == UNDECIDED {
            *leg = DAL;
        }
        if deroutes.is_empty() {
            return dst;
        }
        let q_min = minimal.iter().map(|&c| queue(c)).min().unwrap_or(0);
        let start = (mix64(((salt as u64) << 16) | (hops as u64 & 0xFFFF)) % deroutes.len() as u64) as usize;
        let mut best = (u64::MAX, 0);
        for i in 0..deroutes.len() {
            let c = deroutes[(start + i) % deroutes.len()];
            let q = queue(c);
            if q < best.0 {
                best = (q, c);
            }
        }
        if !self.dal_prefers_deroute(q_min, minimal.len(), best.0) {
            return dst;
        }
        *leg = Self::dal_derouted(net, *leg, best.1);
        self.first_terminal[net.channel(best.1).dst as usize]
    }

    /// DAL: the state of a message that has derouted in the dimensions of `mask`.
    pub fn dal_leg(mask: u32) -> Leg {
        DAL + mask
    }
}

/// The separator between DAL's minimal hops and its deroutes in a candidate list
/// ([`Legs::dal_candidates`]).
pub const DEROUTES: ChannelId = u32::MAX;

/// A DAL candidate list's minimal hops and deroutes.
#[inline]
pub fn split_deroutes(cands: &[ChannelId]) -> (&[ChannelId], &[ChannelId]) {
    match cands.iter().position(|&c| c == DEROUTES) {
        Some(i) => (&cands[..i], &cands[i + 1..]),
        None => (cands, &[]),
    }
}

/// VC classes by route phase (`--deadlock phases`) and the destination-group classes
/// (`--deadlock dest-group`), computed the same way by the engines and the static check.
impl Legs {
    /// Whether channel `c` is one of the network's global channels (a dragonfly's class
    /// `global`): a route's class rises after each one under `phases`.
    #[inline]
    pub fn is_global(&self, net: &Network, c: ChannelId) -> bool {
        self.global_class == Some(net.channel(c).class)
    }

    /// `phases`: the class of the hop a message takes next, given the hop it arrived by (its
    /// channel and class; `None` at its source) and whether its leg switched at this router
    /// (it reached its intermediate, or PAR turned it): one above the arriving hop's after a
    /// global channel or a switch, the arriving hop's otherwise, 0 at the source. Every
    /// route's classes never fall, and within a class a route takes local channels and then
    /// at most one global channel, so no cycle of the channel dependency graph stays in one
    /// class (the static check proves it per network).
    ///
    /// Under DAL the class rises at every hop (distance classes: Dally & Towles 2004, ch. 14):
    /// its routes take at most two hops per dimension, so they end below that many classes.
    #[inline]
    pub fn phase_class(&self, net: &Network, arrived_by: Option<(ChannelId, u32)>, switched: bool) -> u32 {
        match arrived_by {
            None => 0,
            Some((_, k)) if self.paths.choice == PathChoice::Dal => k + 1,
            Some((c, k)) => k + u32::from(switched || self.is_global(net, c)),
        }
    }

    /// `dest-group`: class 1 on channels leaving a router of the destination's group, 0
    /// elsewhere — the two classes that make minimal dragonfly routing deadlock-free (Kim et
    /// al. 2008 §4.2), which a non-minimal route reuses across its intermediate group (global
    /// class 0, local class 0, global class 0): the static check flags that.
    #[inline]
    pub fn dest_group_class(&self, at: RouterId, dst: TerminalId) -> u32 {
        // (Without groups every router is in group 0.)
        u32::from(
            self.router_of.is_empty() || self.group_of(at) == self.group_of(self.router_of[dst as usize]),
        )
    }

    /// The classes `phases` needs for these paths on this network ([`phase_classes`]).
    pub fn phase_classes(&self) -> u32 {
        if self.paths.choice == PathChoice::Dal {
            return self.dal_hops.max(1);
        }
        phase_classes(self.paths, self.global_class.is_some())
    }
}

/// The classes `phases` needs for `paths`, on a network with global channels (the dragonfly)
/// or without: with them 2 for minimal routes (local, global, local), 3 for Valiant or UGAL
/// through a group and 4 through a router (two local hops in the intermediate group), one more
/// under PAR (its turn at the first hop); without, 1, and 2 with an intermediate. The static
/// check computes the classes routes reach and tests this count. (DAL's depend on the
/// HyperX's dimensions: [`Legs::phase_classes`].)
pub fn phase_classes(paths: Paths, global: bool) -> u32 {
    let legs = u32::from(paths.choice != PathChoice::Minimal);
    let turn = u32::from(paths.choice == PathChoice::Par);
    if global {
        let intermediate = match (legs, paths.via) {
            (0, _) => 0,
            (_, Via::Group) => 1,
            (_, Via::Router) => 2,
        };
        2 + intermediate + turn
    } else {
        1 + legs + turn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hamming::Hamming;

    /// Verification on the 4 x 4 HyperX (router r at (r mod 4, r div 4)), counted by hand:
    /// from router 0 to router 5 at (1, 1) DAL offers the two direct hops, then the deroutes
    /// to coordinates 2 and 3 of both dimensions (4); once it has derouted in dimension 0 only
    /// dimension 1's two; from router 1 at (1, 0), dimension 0 aligned, one direct hop and
    /// dimension 1's two deroutes; at the destination nothing. The test weighs queues × hops.
    #[test]
    fn dal_offers_the_deroutes_of_the_dimensions_still_to_align() {
        let hx = Hamming::hyperx(&[4, 4], 1, 1).unwrap();
        let net = hx.network();
        let legs = Legs::new(Paths { choice: PathChoice::Dal, ..Paths::default() }, net, None);
        assert_eq!(legs.phase_classes(), 4);
        let mut cands = Candidates::for_network(net);
        let ends = |cands: &Candidates| -> (Vec<u32>, Vec<u32>) {
            let (m, d) = split_deroutes(cands.as_slice());
            let to = |cs: &[u32]| cs.iter().map(|&c| net.channel(c).dst).collect::<Vec<_>>();
            (to(m), to(d))
        };
        legs.dal_candidates(net, &hx, 0, 5, 0, UNDECIDED, &mut cands);
        assert_eq!(ends(&cands), (vec![1, 4], vec![2, 3, 8, 12]));
        legs.dal_candidates(net, &hx, 0, 5, 0, Legs::dal_leg(1), &mut cands);
        assert_eq!(ends(&cands), (vec![1, 4], vec![8, 12]));
        legs.dal_candidates(net, &hx, 1, 5, 0, UNDECIDED, &mut cands);
        assert_eq!(ends(&cands), (vec![5], vec![9, 13]));
        legs.dal_candidates(net, &hx, 5, 5, 0, UNDECIDED, &mut cands);
        assert!(cands.is_empty());
        let leg = Legs::dal_derouted(net, UNDECIDED, channel_to(net, 0, 8));
        assert_eq!(Legs::derouted(leg), 2);
        assert!(went_nonminimal(leg) && !went_nonminimal(UNDECIDED) && !went_nonminimal(Legs::dal_leg(0)));
        // q_min · h > q_der · (h + 1) + threshold.
        assert!(legs.dal_prefers_deroute(5, 2, 3) && !legs.dal_prefers_deroute(4, 2, 3));
    }

    fn channel_to(net: &Network, from: RouterId, to: RouterId) -> ChannelId {
        net.out_channels(from).find(|&c| net.channel(c).dst == to).unwrap()
    }
}

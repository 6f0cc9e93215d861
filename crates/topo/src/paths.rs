//! Non-minimal paths over any family's minimal routing: Valiant's random intermediate
//! (Valiant & Brebner 1981; on the dragonfly an intermediate group, Kim, Dally, Scott & Abts
//! 2008 §4.1), UGAL's choice at the source between the minimal path and one random
//! non-minimal path by queue length × hops (Singh 2005; local and global variants as Jiang,
//! Kim & Dally 2009 §2), and progressive adaptive routing (PAR, Jiang et al. 2009 §3), which
//! may re-decide at the first hop within the source group.
//!
//! A message carries one `u32` of routing state besides its destination and salt (its
//! [`Leg`]): not yet decided, minimal, towards an intermediate terminal, or past it. The
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
}

impl PathChoice {
    /// Whether the choice depends on queue state (UGAL, PAR).
    pub fn adaptive(self) -> bool {
        matches!(self, PathChoice::UgalLocal | PathChoice::UgalGlobal | PathChoice::Par)
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

/// Whether a delivered message in state `leg` went through an intermediate.
#[inline]
pub fn went_nonminimal(leg: Leg) -> bool {
    leg == PASSED
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
    /// Each router's group (`Via::Group`: the dragonfly's; otherwise unused).
    group_of_router: Vec<u32>,
    /// Terminals per group.
    group_size: u32,
    /// Each terminal's ejection router.
    router_of: Vec<RouterId>,
    /// The class of the network's global channels (named `global`), if it has one.
    global_class: Option<u16>,
}

impl Legs {
    /// The paths on `net`; `groups` is [`crate::Topology::groups`] (terminals per group,
    /// groups), needed by `Via::Group` and PAR.
    pub fn new(paths: Paths, net: &Network, groups: Option<(u32, u32)>) -> Self {
        let router_of: Vec<RouterId> = (0..net.terminals()).map(|t| net.eject_router(t)).collect();
        let mut group_of_router = vec![0; net.routers() as usize];
        let group_size = groups.map_or(net.terminals().max(1), |g| g.0.max(1));
        for (t, &r) in router_of.iter().enumerate() {
            group_of_router[r as usize] = t as u32 / group_size;
        }
        let global_class = net.classes().iter().position(|c| c == "global").map(|i| i as u16);
        Legs { paths, terminals: net.terminals(), group_of_router, group_size, router_of, global_class }
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
        self.group_of_router[r as usize]
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
        let mut switched = false;
        self.decide(net, routing, at, dst, salt, hops, leg, &mut switched, queue, cands);
        let target = self.target(at, dst, leg, &mut switched);
        (target, switched)
    }

    /// The intermediates a message may draw, as one terminal per router with the chance of
    /// drawing that router's terminals (the first leg's route and its end depend only on the
    /// intermediate's router): what exact loads and the static check walk.
    pub fn intermediates(&self) -> Vec<(TerminalId, f64)> {
        let mut first: Vec<Option<(TerminalId, u32)>> = vec![None; self.group_of_router.len()];
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
        let (h2, q2, _) = self.walk(net, routing, mid, dst, salt, None, global, queue, cands);
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
        let limit = self.group_of_router.len() as u64 + 1;
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
    #[inline]
    pub fn phase_class(&self, net: &Network, arrived_by: Option<(ChannelId, u32)>, switched: bool) -> u32 {
        match arrived_by {
            None => 0,
            Some((c, k)) => k + u32::from(switched || self.is_global(net, c)),
        }
    }

    /// `dest-group`: class 1 on channels leaving a router of the destination's group, 0
    /// elsewhere — the two classes that make minimal dragonfly routing deadlock-free (Kim et
    /// al. 2008 §4.2), which a non-minimal route reuses across its intermediate group (global
    /// class 0, local class 0, global class 0): the static check flags that.
    #[inline]
    pub fn dest_group_class(&self, at: RouterId, dst: TerminalId) -> u32 {
        u32::from(self.group_of(at) == self.group_of(self.router_of[dst as usize]))
    }

    /// The classes `phases` needs for these paths on this network ([`phase_classes`]).
    pub fn phase_classes(&self) -> u32 {
        phase_classes(self.paths, self.global_class.is_some())
    }
}

/// The classes `phases` needs for `paths`, on a network with global channels (the dragonfly)
/// or without: with them 2 for minimal routes (local, global, local), 3 for Valiant or UGAL
/// through a group and 4 through a router (two local hops in the intermediate group), one more
/// under PAR (its turn at the first hop); without, 1, and 2 with an intermediate. The static
/// check computes the classes routes reach and tests this count.
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

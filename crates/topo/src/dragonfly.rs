//! The dragonfly (Kim, Dally, Scott & Abts 2008, "Technology-Driven, Highly-Scalable Dragonfly
//! Topology", ISCA 2008): g groups of a routers; the routers of a group fully connected by
//! local channels; every router with h global channels to other groups and p terminals.
//!
//! # Numbering
//! Router `r = i·a + j` is router j of group i; terminal `t` sits at router `t / p` (p
//! consecutive terminals per router, so group i holds terminals `i·a·p .. (i + 1)·a·p`). A
//! router's channels are, in order, its a − 1 local channels (to routers j' ≠ j of its group,
//! in increasing j', class `local`) and then its h global channels (port k = 0..h, class
//! `global`). Group i's global ports are numbered `t = j·h + k` (router j, port k), so a group
//! has a·h of them.
//!
//! # Global arrangements
//! Port t of group i is wired to a group given by the arrangement (below, x = t mod (g − 1),
//! which is t itself when g = a·h + 1):
//! * `absolute`: to group x when x < i, else x + 1. This is BookSim2's `dragonflynew`
//!   (`src/networks/dragonfly.cpp`): `DragonFlyNew::_BuildNet` gives router `_dim_ID` of group
//!   `grp_ID` the inbound global links of ports `grp_output = _dim_ID·p + cnt`, from group
//!   `grp_output` when `grp_ID > grp_output`, else from group `grp_output + 1`, and
//!   `dragonfly_port` routes to group D through group port `D` when `grp_ID > D`, else `D − 1`
//!   (BookSim2 has h = p, a = 2p and g = a·h + 1 only).
//! * `relative`: to group i + 1 + x mod g: the usual consecutive arrangement, each group's
//!   ports reaching the following groups in turn. This exact formula is netwrap's definition
//!   (relative to the group, unlike `absolute`); it has not been checked against a paper's
//!   wording.
//! * `palmtree`: to group i − x − 1 mod g: Camarero, Vallejo & Beivide 2014's palm-tree
//!   arrangement (router j port k of group i to group i − (j·h + k) − 1 mod g).
//!
//! Every global link is a cable with a channel each way: the m-th port of group i toward group
//! x is joined to the m-th port of group x toward group i. An arrangement fits g only when, for
//! every pair of groups, each has as many ports toward the other (with these definitions, when
//! g − 1 divides a·h) and at least one: otherwise [`Dragonfly::new`] refuses it. When
//! g = a·h + 1 (the default) every pair of groups is joined by exactly one global link, in all
//! three arrangements.
//!
//! # Routing
//! Minimal routing (Kim et al.'s MIN): within the source group to a router holding a global
//! link to the destination group, that link, then within the destination group to the
//! destination's router: at most a local, a global and a local hop. With several global links
//! to the destination group (g < a·h + 1), every link whose route local–global–local is
//! shortest is offered (one candidate per first channel). These are the shortest routes with
//! one global hop, not necessarily the graph's shortest paths: a route through a third group
//! (two global hops) can be shorter, and minimal routing does not take it.

use crate::TopoError;
use crate::network::{
    Attach, Candidates, ChannelId, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId,
};
use serde::{Deserialize, Serialize};

/// How a dragonfly's global ports are wired to the other groups.
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
pub enum GlobalArrangement {
    /// Group port t of group i to group t when t < i, else t + 1: BookSim2's dragonflynew.
    #[default]
    Absolute,
    /// Group port t of group i to group i + 1 + t mod g: the consecutive arrangement.
    Relative,
    /// Group port t of group i to group i − t − 1 mod g (Camarero, Vallejo & Beivide 2014).
    Palmtree,
}

impl GlobalArrangement {
    /// The value as written in a spec and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The group that port `t` of group `i` reaches, of `g` groups.
    pub fn target(self, i: u32, t: u32, g: u32) -> u32 {
        let (i, x, g) = (i as u64, (t % (g - 1)) as u64, g as u64);
        (match self {
            GlobalArrangement::Absolute => {
                if x < i {
                    x
                } else {
                    x + 1
                }
            }
            GlobalArrangement::Relative => (i + 1 + x) % g,
            GlobalArrangement::Palmtree => (i + g - 1 - x) % g,
        }) as u32
    }
}

/// One global channel: from group `from` toward group `to`, leaving router `router` as
/// channel `channel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Link {
    from: u32,
    to: u32,
    port: u32,
    router: RouterId,
    channel: ChannelId,
}

/// A built dragonfly with minimal routing.
#[derive(Clone, Debug)]
pub struct Dragonfly {
    p: u32,
    a: u32,
    h: u32,
    g: u32,
    arrangement: GlobalArrangement,
    /// Every global channel, sorted by (from group, to group, port).
    links: Vec<Link>,
    network: Network,
}

fn invalid(msg: String) -> TopoError {
    TopoError::Invalid(msg)
}

impl Dragonfly {
    /// Builds the dragonfly of `p` terminals and `h` global channels per router, `a` routers
    /// per group and `g` groups, its global ports wired by `arrangement`. Valid: p, a, h ≥ 1,
    /// 2 ≤ g ≤ a·h + 1, an arrangement that joins every pair of groups with as many ports on
    /// each side, and sizes within netwrap's limits.
    pub fn new(p: u32, a: u32, h: u32, g: u32, arrangement: GlobalArrangement) -> Result<Self, TopoError> {
        for (name, v) in [("p", p), ("a", a), ("h", h)] {
            if v == 0 {
                return Err(invalid(format!(
                    "{name} = 0 is invalid: a dragonfly needs p, a and h of at least 1 (terminals, routers per group, global channels per router)"
                )));
            }
        }
        let ports = a as u64 * h as u64;
        if g < 2 {
            return Err(invalid(format!("groups = {g} is invalid: a dragonfly needs at least 2 groups")));
        }
        if g as u64 > ports + 1 {
            return Err(invalid(format!(
                "groups = {g} is too many: a group has a·h = {a}·{h} = {ports} global ports, so at most a·h + 1 = {} groups can all be joined",
                ports + 1
            )));
        }
        let routers = a as u64 * g as u64;
        let degree = a as u64 - 1 + h as u64;
        let name = format!(
            "dragonfly p = {p}, a = {a}, h = {h}, g = {g} ({} global arrangement)",
            arrangement.name()
        );
        Planned {
            terminals: routers.checked_mul(p as u64),
            routers: Some(routers),
            channels: routers.checked_mul(degree),
        }
        .check(|| format!("the {name}"))?;
        let (routers, degree) = (routers as u32, degree as u32);
        // Every port's target group, then the ports sorted by (from, to, port): the m-th port of
        // i toward x pairs with the m-th port of x toward i.
        let mut links: Vec<Link> = Vec::with_capacity((ports * g as u64) as usize);
        for i in 0..g {
            for t in 0..a * h {
                let (j, k) = (t / h, t % h);
                let router = i * a + j;
                links.push(Link {
                    from: i,
                    to: arrangement.target(i, t, g),
                    port: t,
                    router,
                    channel: router * degree + (a - 1) + k,
                });
            }
        }
        links.sort_unstable();
        let range = |links: &[Link], i: u32, x: u32| {
            let lo = links.partition_point(|l| (l.from, l.to) < (i, x));
            let hi = links.partition_point(|l| (l.from, l.to) <= (i, x));
            lo..hi
        };
        // The router each global port's channel enters.
        let mut enters = vec![0 as RouterId; links.len()];
        for i in 0..g {
            for x in 0..g {
                if x == i {
                    continue;
                }
                let (there, back) = (range(&links, i, x), range(&links, x, i));
                if there.len() != back.len() || there.is_empty() {
                    return Err(invalid(format!(
                        "the {} arrangement cannot wire a = {a}, h = {h} into g = {g} groups: group {i} has {} global ports toward group {x} and group {x} has {} toward group {i}, but every global link joins one port of each, and every pair of groups needs one (with g < a·h + 1 = {}, choose g with g − 1 dividing a·h = {ports})",
                        arrangement.name(),
                        there.len(),
                        back.len(),
                        ports + 1
                    )));
                }
                for (u, v) in there.zip(back) {
                    enters[u] = links[v].router;
                }
            }
        }
        // `enters` is indexed like `links`; map each global channel to its destination router.
        let mut global_dst = vec![0 as RouterId; (routers as usize) * h as usize];
        for (l, &dst) in links.iter().zip(&enters) {
            let k = (l.channel - l.router * degree - (a - 1)) as usize;
            global_dst[l.router as usize * h as usize + k] = dst;
        }
        let classes = vec!["local".to_string(), "global".to_string()];
        let mut b = NetworkBuilder::new(routers, routers as usize * degree as usize, classes);
        for r in 0..routers {
            let (i, j) = (r / a, r % a);
            for v in (0..a).filter(|&v| v != j) {
                b.push(r, i * a + v, 1, 0);
            }
            for k in 0..h {
                b.push(r, global_dst[r as usize * h as usize + k as usize], 1, 1);
            }
        }
        let attach = Attach::Blocks { first: 0, per_router: p, cycle: u32::MAX };
        let network = b.finish(name, routers * p, attach.clone(), attach);
        Ok(Dragonfly { p, a, h, g, arrangement, links, network })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// Terminals per router p.
    pub fn p(&self) -> u32 {
        self.p
    }
    /// Routers per group a.
    pub fn a(&self) -> u32 {
        self.a
    }
    /// Global channels per router h.
    pub fn h(&self) -> u32 {
        self.h
    }
    /// Groups g.
    pub fn groups(&self) -> u32 {
        self.g
    }
    /// The global arrangement.
    pub fn arrangement(&self) -> GlobalArrangement {
        self.arrangement
    }
    /// Terminals per group, a·p.
    pub fn group_terminals(&self) -> u32 {
        self.a * self.p
    }
    /// The group of router `r`.
    #[inline]
    pub fn group_of(&self, r: RouterId) -> u32 {
        r / self.a
    }
    /// The global channels from group `from` to group `to` (empty when `from == to`), in port
    /// order.
    pub fn global_channels(&self, from: u32, to: u32) -> Vec<ChannelId> {
        self.links_between(from, to).iter().map(|l| l.channel).collect()
    }
    /// Bytes held on the heap: the network and the global link list.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes() + self.links.capacity() * size_of::<Link>()
    }

    #[inline]
    fn links_between(&self, from: u32, to: u32) -> &[Link] {
        let lo = self.links.partition_point(|l| (l.from, l.to) < (from, to));
        let hi = lo + self.links[lo..].partition_point(|l| (l.from, l.to) <= (from, to));
        &self.links[lo..hi]
    }

    /// The local channel from router `r` to router `s` of the same group.
    #[inline]
    fn local(&self, r: RouterId, s: RouterId) -> ChannelId {
        let (j, v) = (r % self.a, s % self.a);
        r * (self.a - 1 + self.h) + if v < j { v } else { v - 1 }
    }
}

impl Routing for Dragonfly {
    /// Minimal routing (Kim et al.'s MIN): local, global, local; with several global links to
    /// the destination group, the first hop of every shortest such route (see the module
    /// docs), in port order.
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        let to = dest / self.p;
        if at == to {
            return;
        }
        let (i, d) = (self.group_of(at), self.group_of(to));
        if i == d {
            out.push(self.local(at, to));
            return;
        }
        let links = self.links_between(i, d);
        let cost =
            |l: &Link| (l.router != at) as u32 + 1 + (self.network.channel(l.channel).dst != to) as u32;
        let best = links.iter().map(cost).min().unwrap_or(0);
        for l in links.iter().filter(|l| cost(l) == best) {
            let c = if l.router == at { l.channel } else { self.local(at, l.router) };
            if !out.as_slice().contains(&c) {
                out.push(c);
            }
        }
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification against BookSim2's `dragonfly_port` for p = 2 (a = 4, h = 2, g = 9): the
    /// output port it computes at a router holding the global link to D is
    /// `p + (a − 1) + grp_output % p` with `grp_output = D` when the group is above D, else
    /// D − 1, at router `grp_output / p` of the group; ours is the same port.
    #[test]
    fn absolute_matches_booksim_dragonfly_port() {
        let (p, a) = (2u32, 4u32);
        let d = Dragonfly::new(p, a, p, a * p + 1, GlobalArrangement::Absolute).unwrap();
        for i in 0..9 {
            for dg in (0..9).filter(|&x| x != i) {
                let grp_output = if i > dg { dg } else { dg - 1 };
                let router = i * a + grp_output / p;
                let booksim_port = p + (a - 1) + grp_output % p;
                let ch = d.global_channels(i, dg);
                assert_eq!(ch.len(), 1);
                // Our channel index within the router, plus the p terminal ports BookSim counts first.
                let ours = ch[0] - d.network().out_channels(router).start + p;
                assert!(d.network().out_channels(router).contains(&ch[0]));
                assert_eq!(ours, booksim_port, "group {i} to {dg}");
                assert_eq!(d.group_of(d.network().channel(ch[0]).dst), dg);
            }
        }
    }
}

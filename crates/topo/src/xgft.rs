//! Full fat-trees: the extended generalized fat-tree XGFT(h; m1, …, mh; w1, …, wh) of Öhring,
//! Ibel, Das & Kumar (1995, "On generalized fat trees"), and the k-ary n-tree of Petrini &
//! Vanneschi (1997, "k-ary n-trees: High performance networks for massively parallel
//! architectures"), which is XGFT(n; k, …, k; 1, k, …, k). One builder and one routing serve
//! both. (The butterfly fat-tree of Greenberg & Guan, [`crate::FatTree`], is a different
//! network.)
//!
//! # The graph (Öhring et al. 1995, Definition 1)
//! An XGFT of height h has h + 1 levels. Level 0 holds the M_h = m1·…·mh terminals; level
//! l ≥ 1 holds (m_{l+1}·…·m_h)·(w1·…·w_l) switches. A level-l switch has m_l children (at
//! level l − 1) and, below the top, w_{l+1} parents (at level l + 1). A node at level l is
//! labelled (x_h, …, x_{l+1}, y_l, …, y_1) with 0 ≤ x_j < m_j and 0 ≤ y_j < w_j, and
//! (x_h, …, x_{l+1}, y_l, …, y_1) at level l is joined to (x_h, …, x_{l+2}, y', y_l, …, y_1)
//! at level l + 1 for every y' < w_{l+1}: the child replaces its digit x_{l+1} by the
//! parent's y'. So a level-l switch is the parent, through its child port x_l, of every
//! switch that agrees with it except in digit l.
//!
//! Numbering: terminal t has the digits x_1 (lowest), x_2, … of t in mixed radix m1, m2, …;
//! the level-l switch of label (x_h, …, x_{l+1}, y_l, …, y_1) is router
//! `offset(l) + Y + W_l·X` with Y = Σ y_j·W_{j−1} (radix w1, …, w_l, y_1 lowest), W_l =
//! w1·…·w_l and X the number with digits x_{l+1}, x_{l+2}, … (radix m_{l+1}, …): the
//! switches of level 1 come first, then level 2, and so on. A switch covers the terminals
//! whose digits above l are its x digits: the M_l = m1·…·m_l consecutive terminals from
//! X·M_l. Each switch's channels are its w_{l+1} up channels first (by y'), then, above level
//! 1, its m_l down channels (by x_l). Every link is a pair of directed channels of width 1;
//! classes `up l-(l+1)` (class 2(l − 1)) and `down (l+1)-l` (class 2(l − 1) + 1).
//!
//! Terminals: netwrap attaches every terminal to one router (one injection and one ejection
//! link), so w1 must be 1: terminal t is child x_1 = t mod m1 of level-1 switch ⌊t / m1⌋.
//! An XGFT with w1 > 1 (each terminal linked to w1 level-1 switches, "multi-rail") is refused
//! with that reason.
//!
//! # Routing
//! Nearest-common-ancestor routing: up until the switch covers the destination, then down the
//! unique path (child port x_l = digit l of the destination at level l). Every route is
//! minimal. The up port at a level-l switch ([`UpPort`]):
//! * `dmodk`: y_{l+1} = ⌊d / (w1·…·w_l)⌋ mod w_{l+1} for destination d — Zahavi's D-mod-k
//!   (Zahavi 2010, "D-Mod-K routing providing non-blocking traffic for shift permutations on
//!   real life fat trees"); on a k-ary n-tree ⌊d / k^(l−1)⌋ mod k, destination digit l, the
//!   deterministic routing of Gómez et al. (2007). All traffic to d meets at one top switch
//!   and shares one down path.
//! * `random`: one up port per level, fixed for the message and drawn from its salt: the
//!   salt picks one of the W = w2·…·wh up-port combinations (⌊salt·W / 2^32⌋, so each within
//!   W / 2^32 of 1/W), whose mixed-radix digits are the per-level choices — independent and
//!   uniform, so messages spread evenly over the up ports ([`Routing::spread`] offers every
//!   one, so exact loads split each message evenly and the deadlock check follows each).
//! * `adaptive`: every up port is a candidate; the router takes a free one (the ideal switch
//!   and the VC router start from a salt-chosen rotation and take the first free channel).
//!
//! Every route climbs and then descends, so the channel dependency graph has no cycle: up
//! channels only wait for higher up channels or down channels, down channels for lower down
//! channels (deadlock-free with one virtual channel, whatever the up port).

use crate::TopoError;
use crate::network::{
    Attach, Candidates, ChannelId, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId, product,
};
use serde::{Deserialize, Serialize};

/// How nearest-common-ancestor routing picks a switch's up port on XGFTs and k-ary n-trees.
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
pub enum UpPort {
    /// One up port per level, drawn from the message's salt: each message's route is fixed,
    /// messages spread evenly (oblivious random routing).
    #[default]
    Random,
    /// Every up port is a candidate: the router takes a free one (adaptive up, unique down).
    Adaptive,
    /// Destination mod k: up port ⌊d / (w1·…·w_l)⌋ mod w_{l+1} at level l (Zahavi 2010's
    /// D-mod-k; on a k-ary n-tree Gómez et al. 2007's deterministic routing).
    Dmodk,
}

impl UpPort {
    /// The value as written in a spec and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A built XGFT (or k-ary n-tree) with its nearest-common-ancestor routing.
#[derive(Clone, Debug)]
pub struct Xgft {
    /// m1..mh.
    children: Vec<u32>,
    /// w1..wh.
    parents: Vec<u32>,
    /// M_l = m1·…·m_l, l = 0..=h.
    m_prod: Vec<u32>,
    /// W_l = w1·…·w_l, l = 0..=h.
    w_prod: Vec<u32>,
    /// U_l = w2·…·w_l (radix of the random combination below level l), l = 1..=h (index l − 1).
    u_prod: Vec<u32>,
    /// First router of level l (index l − 1), and one past the last router (index h).
    offset: Vec<u32>,
    up_port: UpPort,
    network: Network,
}

fn invalid(msg: impl Into<String>) -> TopoError {
    TopoError::Invalid(msg.into())
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

impl Xgft {
    /// Builds XGFT(h; m1, …, mh; w1, …, wh) from `children` = [m1, …, mh] and `parents` =
    /// [w1, …, wh], routed with `up_port`. Both lists must have h ≥ 1 values, each at least 1,
    /// w1 = 1, and the network must lie within netwrap's size limits.
    pub fn new(children: &[u32], parents: &[u32], up_port: UpPort) -> Result<Self, TopoError> {
        let h = children.len();
        if h == 0 {
            return Err(invalid("an XGFT needs a height h >= 1: give m1,...,mh as children"));
        }
        if parents.len() != h {
            return Err(invalid(format!(
                "children has {h} values but parents has {}: an XGFT of height h takes h of each (m1,...,mh and w1,...,wh)",
                parents.len()
            )));
        }
        if let Some(i) = children.iter().position(|&m| m == 0) {
            return Err(invalid(format!("m{} = 0 is invalid: every switch needs at least one child", i + 1)));
        }
        if let Some(i) = parents.iter().position(|&w| w == 0) {
            return Err(invalid(format!(
                "w{} = 0 is invalid: every node below the top needs at least one parent",
                i + 1
            )));
        }
        if parents[0] != 1 {
            return Err(invalid(format!(
                "w1 = {} is not supported: netwrap attaches every terminal to one router (one injection and one ejection link), so w1 must be 1; w1 > 1 links each terminal to w1 level-1 switches (multi-rail)",
                parents[0]
            )));
        }
        let what = || format!("XGFT({h}; {}; {})", list(children), list(parents));
        let prefix = |v: &[u32], l: usize| product(v[..l].iter().copied());
        let suffix = |v: &[u32], l: usize| product(v[l..].iter().copied());
        // Switches at level l: (m_{l+1}·…·m_h)·(w1·…·w_l); up channels from level l: that times
        // w_{l+1}; every up channel has its down channel.
        let mut routers = Some(0u64);
        let mut up = Some(0u64);
        for l in 1..=h {
            let count = suffix(children, l).zip(prefix(parents, l)).and_then(|(a, b)| a.checked_mul(b));
            routers = routers.zip(count).and_then(|(r, c)| r.checked_add(c));
            if l < h {
                let ups = count.and_then(|c| c.checked_mul(parents[l] as u64));
                up = up.zip(ups).and_then(|(u, x)| u.checked_add(x));
            }
        }
        let terminals = prefix(children, h);
        let channels = up.and_then(|u| u.checked_mul(2));
        Planned { terminals, routers, channels }.check(what)?;
        // Within the limits (2^24 terminals and routers), every product below fits a u32.
        let m_prod: Vec<u32> = (0..=h).map(|l| prefix(children, l).unwrap_or(0) as u32).collect();
        let w_prod: Vec<u32> = (0..=h).map(|l| prefix(parents, l).unwrap_or(0) as u32).collect();
        let u_prod: Vec<u32> = (1..=h).map(|l| w_prod[l] / parents[0]).collect();
        let mut offset = vec![0u32];
        for l in 1..=h {
            let count = (terminals.unwrap_or(0) as u32 / m_prod[l]) * w_prod[l];
            offset.push(offset[l - 1] + count);
        }
        let mut classes = Vec::new();
        for l in 1..h {
            classes.push(format!("up {l}-{}", l + 1));
            classes.push(format!("down {}-{l}", l + 1));
        }
        if classes.is_empty() {
            classes.push("none".into());
        }
        let routers = routers.unwrap_or(0) as u32;
        let mut b = NetworkBuilder::new(routers, channels.unwrap_or(0) as usize, classes);
        for l in 1..=h {
            for idx in 0..offset[l] - offset[l - 1] {
                let me = offset[l - 1] + idx;
                if l < h {
                    // Parent y' replaces digit x_{l+1} (the lowest x digit) by y'.
                    let (low, x) = (idx % w_prod[l], idx / w_prod[l]);
                    let above = x / children[l];
                    for y in 0..parents[l] {
                        let p = low + w_prod[l] * y + w_prod[l + 1] * above;
                        b.push(me, offset[l] + p, 1, 2 * (l as u16 - 1));
                    }
                }
                if l > 1 {
                    // Child x_l: digit y_l of this switch becomes the child's x_l.
                    let (low, x) = (idx % w_prod[l - 1], idx / w_prod[l]);
                    for xl in 0..children[l - 1] {
                        let c = low + w_prod[l - 1] * (xl + children[l - 1] * x);
                        b.push(me, offset[l - 2] + c, 1, 2 * (l as u16 - 2) + 1);
                    }
                }
            }
        }
        let k = children[0];
        let kary = children.iter().all(|&m| m == k) && parents[1..].iter().all(|&w| w == k);
        let name = if kary {
            format!(
                "{k}-ary {h}-tree (Petrini & Vanneschi 1997; XGFT({h}; {}; {}))",
                list(children),
                list(parents)
            )
        } else {
            format!("XGFT({h}; {}; {}) (Öhring et al. 1995)", list(children), list(parents))
        };
        let attach = Attach::Blocks { first: 0, per_router: children[0], cycle: u32::MAX };
        let network = b.finish(name, terminals.unwrap_or(0) as u32, attach.clone(), attach);
        Ok(Xgft {
            children: children.to_vec(),
            parents: parents.to_vec(),
            m_prod,
            w_prod,
            u_prod,
            offset,
            up_port,
            network,
        })
    }

    /// The k-ary n-tree of Petrini & Vanneschi (1997): XGFT(n; k, …, k; 1, k, …, k), k^n
    /// terminals and n·k^(n−1) switches.
    pub fn kary_ntree(k: u32, n: u32, up_port: UpPort) -> Result<Self, TopoError> {
        if k < 2 {
            return Err(invalid(format!(
                "k = {k} is invalid: the radix of a k-ary n-tree must be at least 2"
            )));
        }
        if n < 1 {
            return Err(invalid("n = 0 is invalid: a k-ary n-tree needs at least one level of switches"));
        }
        // log2 of the terminals, k^n, is at least n: more than 64 levels is more than 2^64.
        if n > 64 {
            Planned { terminals: None, routers: None, channels: None }
                .check(|| format!("the {k}-ary {n}-tree"))?;
        }
        let mut parents = vec![k; n as usize];
        parents[0] = 1;
        Self::new(&vec![k; n as usize], &parents, up_port)
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// Bytes held on the heap: the network and the per-level tables.
    pub fn heap_bytes(&self) -> usize {
        let tables = [&self.children, &self.parents, &self.m_prod, &self.w_prod, &self.u_prod, &self.offset];
        self.network.heap_bytes() + tables.iter().map(|v| v.capacity() * size_of::<u32>()).sum::<usize>()
    }
    /// Height h (levels of switches).
    pub fn height(&self) -> u32 {
        self.children.len() as u32
    }
    /// m1..mh.
    pub fn children(&self) -> &[u32] {
        &self.children
    }
    /// w1..wh.
    pub fn parents(&self) -> &[u32] {
        &self.parents
    }
    /// The up-port choice of the routing.
    pub fn up_port(&self) -> UpPort {
        self.up_port
    }
    /// Switches at level l (1..=h).
    pub fn switches_at(&self, l: u32) -> u32 {
        self.offset[l as usize] - self.offset[l as usize - 1]
    }
    /// Level (1..=h) of router `r`.
    #[inline]
    pub fn level(&self, r: RouterId) -> u32 {
        self.offset.partition_point(|&o| o <= r) as u32
    }
    /// First terminal of router `r`'s subtree (it covers m1·…·m_l consecutive terminals).
    pub fn subtree_first(&self, r: RouterId) -> u32 {
        let l = self.level(r) as usize;
        (r - self.offset[l - 1]) / self.w_prod[l] * self.m_prod[l]
    }
    /// Terminals under a level-l switch: m1·…·m_l.
    pub fn subtree_size(&self, l: u32) -> u32 {
        self.m_prod[l as usize]
    }

    /// The up port (0..w_{l+1}) a message to `dest` takes at a level-l switch under D-mod-k.
    #[inline]
    fn dmodk(&self, l: usize, dest: TerminalId) -> u32 {
        (dest / self.w_prod[l]) % self.parents[l]
    }

    /// The up port a message of salt `salt` takes at a level-l switch under `random`.
    #[inline]
    fn random(&self, l: usize, salt: u32) -> u32 {
        let total = self.u_prod[self.children.len() - 1] as u64;
        let combination = ((salt as u64 * total) >> 32) as u32;
        (combination / self.u_prod[l - 1]) % self.parents[l]
    }

    /// Where a message at `at` bound for `dest` goes: `Ok(channel)` down (or `Ok(None)`:
    /// deliver), `Err((first up channel, level, up ports))` up.
    #[inline]
    fn step(&self, at: RouterId, dest: TerminalId) -> Result<Option<ChannelId>, (ChannelId, usize, u32)> {
        let l = self.level(at) as usize;
        let idx = at - self.offset[l - 1];
        let first = self.network.out_channels(at).start;
        let h = self.children.len();
        let ups = if l < h { self.parents[l] } else { 0 };
        if dest / self.m_prod[l] == idx / self.w_prod[l] {
            if l == 1 {
                return Ok(None);
            }
            return Ok(Some(first + ups + (dest / self.m_prod[l - 1]) % self.children[l - 1]));
        }
        Err((first, l, ups))
    }
}

impl Routing for Xgft {
    /// Nearest-common-ancestor routing: up by the [`UpPort`] choice, then the unique path
    /// down.
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        out.clear();
        match self.step(at, dest) {
            Ok(down) => out.extend_from(down),
            Err((first, l, ups)) => match self.up_port {
                UpPort::Dmodk => out.push(first + self.dmodk(l, dest)),
                UpPort::Random => out.push(first + self.random(l, salt)),
                UpPort::Adaptive => (first..first + ups).for_each(|c| out.push(c)),
            },
        }
    }

    /// `random` draws the up port from the salt; `dmodk` and `adaptive` do not use it.
    fn salt_changes_candidates(&self) -> bool {
        self.up_port == UpPort::Random
    }

    /// Every up port (all are minimal), then the unique down channel.
    fn minimal(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        match self.step(at, dest) {
            Ok(down) => out.extend_from(down),
            Err((first, _, ups)) => (first..first + ups).for_each(|c| out.push(c)),
        }
    }

    /// `random` spreads messages evenly over every up port: all of them; otherwise `route`.
    fn spread(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        if self.up_port == UpPort::Random {
            self.minimal(at, dest, salt, out);
        } else {
            self.route(at, dest, salt, out);
        }
    }

    /// D-mod-k, whatever the up-port choice: deterministic (the salt plays no part), and
    /// allocating nothing.
    fn escape(&self, at: RouterId, dest: TerminalId, _salt: u32) -> Option<ChannelId> {
        match self.step(at, dest) {
            Ok(down) => down,
            Err((first, l, _)) => Some(first + self.dmodk(l, dest)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verifies the counts of Petrini & Vanneschi's 4-ary 3-tree: k^n terminals, n·k^(n−1)
    /// switches, and 2·(n−1)·k^n directed channels (each level below the top sends k^n up).
    #[test]
    fn a_4_ary_3_tree_has_the_papers_counts() {
        let t = Xgft::kary_ntree(4, 3, UpPort::Dmodk).unwrap();
        let net = t.network();
        assert_eq!((net.terminals(), net.routers()), (64, 48));
        assert_eq!(net.channels().len(), 2 * 2 * 64);
        assert_eq!((t.switches_at(1), t.switches_at(2), t.switches_at(3)), (16, 16, 16));
        assert_eq!(net.degree_range(), (4, 8));
        assert_eq!(t.level(15), 1);
        assert_eq!(t.level(16), 2);
        assert_eq!(t.level(47), 3);
        assert_eq!(t.subtree_first(t.offset[1] + 5), 16);
    }

    /// Verifies the parent rule against the definition: each up channel's far end agrees with
    /// the child in every digit but l + 1, where it has y', and the reverse channel exists.
    #[test]
    fn links_follow_oehring_et_al_definition() {
        let t = Xgft::new(&[2, 3, 2], &[1, 2, 3], UpPort::Dmodk).unwrap();
        let net = t.network();
        assert_eq!((net.terminals(), t.switches_at(1), t.switches_at(2), t.switches_at(3)), (12, 6, 4, 6));
        for (src, ch) in net.edges() {
            let back = net.out_channels(ch.dst).any(|c| net.channel(c).dst == src);
            assert!(back, "{src} -> {}", ch.dst);
            let (ls, ld) = (t.level(src), t.level(ch.dst));
            assert_eq!(ls.abs_diff(ld), 1);
            let (child, parent) = if ls < ld { (src, ch.dst) } else { (ch.dst, src) };
            // The parent covers the child's terminals.
            let lo = t.subtree_first(parent);
            let c = t.subtree_first(child);
            assert!(c >= lo && c < lo + t.subtree_size(t.level(parent)));
        }
        for (w1, e) in [(2, "w1 = 2 is not supported"), (1, "")] {
            let r = Xgft::new(&[2, 2], &[w1, 2], UpPort::Random);
            assert_eq!(r.is_err(), !e.is_empty());
            if let Err(err) = r {
                assert!(err.to_string().contains(e), "{err}");
            }
        }
        assert!(Xgft::new(&[2, 2], &[1], UpPort::Random).unwrap_err().to_string().contains("2 values"));
        assert!(Xgft::new(&[2, 0], &[1, 1], UpPort::Random).unwrap_err().to_string().contains("m2 = 0"));
    }

    /// Verifies `random`'s draw: over evenly spaced salts, every up-port combination is taken
    /// equally often (within one).
    #[test]
    fn random_up_ports_cover_every_combination_evenly() {
        let t = Xgft::kary_ntree(4, 3, UpPort::Random).unwrap();
        let mut seen = [[0u32; 4]; 4];
        for i in 0..1600u64 {
            let salt = (i * (1u64 << 32) / 1600) as u32;
            seen[t.random(1, salt) as usize][t.random(2, salt) as usize] += 1;
        }
        assert!(seen.iter().flatten().all(|&n| n == 100), "{seen:?}");
    }
}

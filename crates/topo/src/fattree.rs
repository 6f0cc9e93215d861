//! The butterfly fat-tree of Greenberg & Guan §3.1, wired exactly as the seed gives it.
//!
//! N = 4^n processors P(0, a) are the terminals. Switch S(l, a), for levels l = 1..n, has
//! addresses a = 0..N/2^(l+1); it is router `level_offset(l) + a`. Processor `a` injects at
//! and is delivered from S(1, ⌊a/4⌋) (it is that switch's child ⌊a mod 4⌋). parent_0 of
//! S(l, a) is child_i of S(l+1, ⌊a/2^(l+1)⌋·2^l + a mod 2^l) and parent_1 is child_i of
//! S(l+1, ⌊a/2^(l+1)⌋·2^l + (a + 2^(l−1)) mod 2^l), with i = ⌊(a mod 2^(l+1)) / 2^(l−1)⌋.
//! Every such link is a pair of directed channels. Channel classes: `up l` (level l to
//! l+1, class 2(l−1)) and `down l` (level l+1 to l, class 2(l−1)+1), for l = 1..n−1.

use crate::TopoError;
use crate::network::{Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId};

/// A built butterfly fat-tree.
///
/// Channels are numbered router by router; a switch below the top has its two up channels
/// first (to parent_0, then parent_1), and a switch above level 1 then has its four down
/// channels ordered by the quarter of its subtree they lead to. Routing finds every channel
/// from the router's first channel id, so no per-router tables are kept.
#[derive(Clone, Debug)]
pub struct FatTree {
    levels: u32,
    /// First router id of level l (index l − 1).
    level_offset: Vec<u32>,
    network: Network,
}

const NONE: RouterId = RouterId::MAX;

impl FatTree {
    /// Builds the fat-tree for N processors; N must be a power of 4 (4, 16, 64, 256, 1024,
    /// …), at least 4, and within netwrap's size limits ([`crate::MAX_TERMINALS`]).
    pub fn new(processors: u32) -> Result<Self, TopoError> {
        let mut n = 0u32;
        let mut size = 1u64;
        while size < processors as u64 {
            size *= 4;
            n += 1;
        }
        if processors < 4 || size != processors as u64 {
            return Err(TopoError::Invalid(format!(
                "a butterfly fat-tree needs N = 4^n processors (4, 16, 64, 256, 1024, 4096, ...); got N = {processors}"
            )));
        }
        let np = processors as u64;
        let mut level_offset = Vec::new();
        let mut routers = 0u64;
        for l in 1..=n {
            level_offset.push(routers as u32);
            routers += np >> (l + 1);
        }
        // Below the top level every switch has two parents, each link a pair of channels.
        let channels: u64 = (1..n).map(|l| 4 * (np >> (l + 1))).sum();
        Planned { terminals: Some(np), routers: Some(routers), channels: Some(channels) }
            .check(|| format!("a butterfly fat-tree of {processors} processors"))?;
        let id = |l: u32, a: u64| level_offset[l as usize - 1] + a as u32;
        let parents = |l: u32, a: u64| {
            let group = (a >> (l + 1)) << l;
            [group + a % (1 << l), group + (a + (1 << (l - 1))) % (1 << l)]
        };
        // children[r][i]: the switch on child port i of r (levels 2..n; level 1's children
        // are processors). Built from the parent rule, to check that it uses every port once.
        let mut children = vec![[NONE; 4]; routers as usize];
        for l in 1..n {
            for a in 0..(np >> (l + 1)) {
                let i = ((a % (1 << (l + 1))) >> (l - 1)) as usize;
                for pa in parents(l, a) {
                    let parent = id(l + 1, pa) as usize;
                    if children[parent][i] != NONE {
                        return Err(TopoError::Invalid(format!(
                            "fat-tree wiring error: child port {i} of S({}, {pa}) used twice",
                            l + 1
                        )));
                    }
                    children[parent][i] = id(l, a);
                }
            }
        }
        // Subtrees: level-1 switch a holds processors 4a..4a+4; higher switches the union of
        // their children's, which the wiring makes the contiguous block of 4^l processors
        // starting at (a / 2^(l−1))·4^l (the closed form routing uses; checked here). Order
        // each switch's children by the quarter of its block they cover.
        let mut subtree_lo: Vec<u64> = (0..routers).map(|r| if r < np >> 2 { 4 * r } else { 0 }).collect();
        for l in 2..=n {
            let quarter = 4u64.pow(l - 1);
            for a in 0..(np >> (l + 1)) {
                let r = id(l, a) as usize;
                let lo = (a >> (l - 1)) * 4u64.pow(l);
                let mut by_quarter = [NONE; 4];
                for &c in &children[r] {
                    let clo = if c == NONE { u64::MAX } else { subtree_lo[c as usize] };
                    let q = clo.wrapping_sub(lo) / quarter;
                    if c == NONE
                        || clo < lo
                        || !(clo - lo).is_multiple_of(quarter)
                        || q >= 4
                        || by_quarter[q as usize] != NONE
                    {
                        return Err(TopoError::Invalid(format!(
                            "fat-tree wiring error: S({l}, {a}) does not cover the contiguous block of 4^{l} processors from {lo}"
                        )));
                    }
                    by_quarter[q as usize] = c;
                }
                subtree_lo[r] = lo;
                children[r] = by_quarter;
            }
        }
        drop(subtree_lo);
        let mut classes = Vec::new();
        for l in 1..n {
            classes.push(format!("up {l}-{}", l + 1));
            classes.push(format!("down {}-{l}", l + 1));
        }
        if classes.is_empty() {
            classes.push("none".into());
        }
        let mut b = NetworkBuilder::new(routers as u32, channels as usize, classes);
        for l in 1..=n {
            for a in 0..(np >> (l + 1)) {
                let me = id(l, a);
                if l < n {
                    for pa in parents(l, a) {
                        b.push(me, id(l + 1, pa), 1, 2 * (l - 1) as u16);
                    }
                }
                if l > 1 {
                    for c in children[me as usize] {
                        b.push(me, c, 1, 2 * (l - 2) as u16 + 1);
                    }
                }
            }
        }
        drop(children);
        // Processor p is child p mod 4 of level-1 switch p / 4, for injection and delivery.
        let attach = Attach::Blocks { first: 0, per_router: 4, cycle: u32::MAX };
        let network =
            b.finish(format!("butterfly fat-tree of {n} levels"), processors, attach.clone(), attach);
        Ok(FatTree { levels: n, level_offset, network })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// Number of switch levels n = log4 N.
    pub fn levels(&self) -> u32 {
        self.levels
    }
    /// Level (1..=n) of router `r`.
    #[inline]
    pub fn level(&self, r: RouterId) -> u32 {
        self.level_offset.iter().rposition(|&o| o <= r).map_or(1, |i| i as u32 + 1)
    }
    /// First processor of router `r`'s subtree: S(l, a) covers the 4^l consecutive
    /// processors from (a / 2^(l−1))·4^l (checked against the wiring when the tree is built).
    #[inline]
    pub fn subtree_first(&self, r: RouterId) -> u32 {
        self.subtree_at(r, self.level(r))
    }
    #[inline]
    fn subtree_at(&self, r: RouterId, l: u32) -> u32 {
        let a = r - self.level_offset[l as usize - 1];
        (a >> (l - 1)) << (2 * l)
    }
    /// Bytes held on the heap: the network and the level offsets.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes() + self.level_offset.capacity() * size_of::<u32>()
    }
    /// Router id of switch S(l, a).
    pub fn switch(&self, l: u32, a: u32) -> RouterId {
        self.level_offset[l as usize - 1] + a
    }
    /// Hops between the routers of two processors: twice the levels up to their lowest common
    /// ancestor, less two (the processor links are not router-to-router channels).
    pub fn distance(&self, s: TerminalId, d: TerminalId) -> u32 {
        let mut l = 1;
        while s / 4u32.pow(l) != d / 4u32.pow(l) {
            l += 1;
        }
        2 * (l - 1)
    }
}

impl Routing for FatTree {
    /// Up to the lowest common ancestor, offering both parents (first choice by the salt's
    /// low bit: Greenberg & Guan §3.1 picks an up-link at random and falls back to the other when it is
    /// blocked), then the unique path down.
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        out.clear();
        let l = self.level(at);
        let span = 4u32.pow(l);
        let lo = self.subtree_at(at, l);
        let first = self.network.out_channels(at).start;
        if dest >= lo && dest - lo < span {
            if l > 1 {
                // Down channels follow the two up channels (none at the top level).
                let ups = if l < self.levels { 2 } else { 0 };
                out.push(first + ups + (dest - lo) / (span / 4));
            }
            return;
        }
        let (p0, p1) = (first, first + 1);
        if salt & 1 == 0 {
            out.push(p0);
            out.push(p1);
        } else {
            out.push(p1);
            out.push(p0);
        }
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_the_seed() {
        // N/2^(l+1) switches at level l; 2 parents each below the top.
        let t = FatTree::new(64).unwrap();
        assert_eq!(t.network().routers(), 16 + 8 + 4);
        assert_eq!(t.network().channels().len(), 2 * 2 * (16 + 8));
        assert_eq!(t.level(t.switch(3, 0)), 3);
        assert!(FatTree::new(32).is_err());
        assert!(FatTree::new(1).is_err());
    }
}

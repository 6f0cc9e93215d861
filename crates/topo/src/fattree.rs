//! The butterfly fat-tree of seed 002 §3.1, wired exactly as the seed gives it.
//!
//! N = 4^n processors P(0, a) are the terminals. Switch S(l, a), for levels l = 1..n, has
//! addresses a = 0..N/2^(l+1); it is router `level_offset(l) + a`. Processor `a` injects at
//! and is delivered from S(1, ⌊a/4⌋) (it is that switch's child ⌊a mod 4⌋). parent_0 of
//! S(l, a) is child_i of S(l+1, ⌊a/2^(l+1)⌋·2^l + a mod 2^l) and parent_1 is child_i of
//! S(l+1, ⌊a/2^(l+1)⌋·2^l + (a + 2^(l−1)) mod 2^l), with i = ⌊(a mod 2^(l+1)) / 2^(l−1)⌋.
//! Every such link is a pair of directed channels. Channel classes: `up l` (level l to
//! l+1, class 2(l−1)) and `down l` (level l+1 to l, class 2(l−1)+1), for l = 1..n−1.

use crate::TopoError;
use crate::network::{Candidates, Channel, ChannelId, Network, RouterId, Routing, TerminalId};

/// A built butterfly fat-tree.
#[derive(Clone, Debug)]
pub struct FatTree {
    levels: u32,
    /// First router id of level l (index l − 1).
    level_offset: Vec<u32>,
    /// Per router: first processor of its subtree.
    subtree_lo: Vec<u32>,
    /// Per router: its up channels (parent_0, parent_1), absent at the top level.
    up: Vec<[ChannelId; 2]>,
    /// Per router: its down channel to the child whose subtree holds the j-th quarter of its
    /// own subtree.
    down: Vec<[ChannelId; 4]>,
    network: Network,
}

const NONE: ChannelId = ChannelId::MAX;

impl FatTree {
    /// Builds the fat-tree for N processors; N must be a power of 4 (4, 16, 64, 256, 1024,
    /// …), at least 4.
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
        if routers * 6 >= u32::MAX as u64 {
            return Err(TopoError::TooLarge(format!("a fat-tree of {processors} processors")));
        }
        let id = |l: u32, a: u64| level_offset[l as usize - 1] + a as u32;
        let mut channels = Vec::new();
        let mut up = vec![[NONE; 2]; routers as usize];
        // child_ports[router][i] = (channel down to that child, child router)
        let mut child_ports = vec![[(NONE, 0u32); 4]; routers as usize];
        for l in 1..n {
            let class_up = 2 * (l - 1) as u16;
            for a in 0..(np >> (l + 1)) {
                let group = (a >> (l + 1)) << l;
                let i = ((a % (1 << (l + 1))) >> (l - 1)) as usize;
                let parents = [group + a % (1 << l), group + (a + (1 << (l - 1))) % (1 << l)];
                for (p, &pa) in parents.iter().enumerate() {
                    let (me, parent) = (id(l, a), id(l + 1, pa));
                    up[me as usize][p] = channels.len() as u32;
                    channels.push(Channel { src: me, dst: parent, width: 1, class: class_up });
                    if child_ports[parent as usize][i].0 != NONE {
                        return Err(TopoError::Invalid(format!(
                            "fat-tree wiring error: child port {i} of S({}, {pa}) used twice",
                            l + 1
                        )));
                    }
                    child_ports[parent as usize][i] = (channels.len() as u32, me);
                    channels.push(Channel { src: parent, dst: me, width: 1, class: class_up + 1 });
                }
            }
        }
        // Subtrees: level-1 switch a holds processors 4a..4a+4; higher switches the union of
        // their children's, which the wiring makes a contiguous block of 4^l processors.
        let mut subtree_lo = vec![0u32; routers as usize];
        let mut down = vec![[NONE; 4]; routers as usize];
        for a in 0..(np >> 2) {
            subtree_lo[a as usize] = 4 * a as u32;
        }
        for l in 2..=n {
            let quarter = 4u64.pow(l - 1);
            for a in 0..(np >> (l + 1)) {
                let r = id(l, a) as usize;
                let los: Vec<u64> =
                    child_ports[r].iter().map(|&(_, c)| subtree_lo[c as usize] as u64).collect();
                let lo = *los.iter().min().unwrap_or(&0);
                subtree_lo[r] = lo as u32;
                for (j, &(ch, _)) in child_ports[r].iter().enumerate() {
                    let q = ((los[j] - lo) / quarter) as usize;
                    if ch == NONE || !(los[j] - lo).is_multiple_of(quarter) || q >= 4 || down[r][q] != NONE {
                        return Err(TopoError::Invalid(format!(
                            "fat-tree wiring error: S({l}, {a}) does not cover a contiguous block of 4^{l} processors"
                        )));
                    }
                    down[r][q] = ch;
                }
            }
        }
        let mut classes = Vec::new();
        for l in 1..n {
            classes.push(format!("up {l}-{}", l + 1));
            classes.push(format!("down {}-{l}", l + 1));
        }
        if classes.is_empty() {
            classes.push("none".into());
        }
        let terminals: Vec<u32> = (0..processors).map(|p| p / 4).collect();
        let network = Network::new(
            format!("butterfly fat-tree, {processors} processors, {n} levels"),
            routers as u32,
            channels,
            terminals.clone(),
            terminals,
            classes,
        );
        Ok(FatTree { levels: n, level_offset, subtree_lo, up, down, network })
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
    pub fn level(&self, r: RouterId) -> u32 {
        self.level_offset.iter().rposition(|&o| o <= r).map_or(1, |i| i as u32 + 1)
    }
    /// First processor of router `r`'s subtree (its subtree is 4^level consecutive processors).
    pub fn subtree_first(&self, r: RouterId) -> u32 {
        self.subtree_lo[r as usize]
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
    /// low bit: seed 002 §3.1 picks an up-link at random and falls back to the other when it is
    /// blocked), then the unique path down.
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        out.clear();
        let l = self.level(at);
        let span = 4u32.pow(l);
        let lo = self.subtree_lo[at as usize];
        if dest >= lo && dest - lo < span {
            if l > 1 {
                out.push(self.down[at as usize][((dest - lo) / (span / 4)) as usize]);
            }
            return;
        }
        let [p0, p1] = self.up[at as usize];
        if salt & 1 == 0 {
            out.push(p0);
            out.push(p1);
        } else {
            out.push(p1);
            out.push(p0);
        }
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

//! The graph every family builds, and the routing interface the simulator drives.

use serde::Serialize;

/// Index of a router (switch) in a [`Network`].
pub type RouterId = u32;
/// Index of a directed channel in a [`Network`].
pub type ChannelId = u32;
/// Index of a terminal (processor or memory port) in a [`Network`].
pub type TerminalId = u32;

/// A directed channel between two routers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Channel {
    /// Router the channel leaves.
    pub src: RouterId,
    /// Router the channel enters.
    pub dst: RouterId,
    /// Flits the channel carries per cycle (1 for the seeds' unit-width channels).
    pub width: u32,
    /// Index into [`Network::classes`]: dimension and direction, tree level, intra/inter-module.
    pub class: u16,
}

/// Routers, directed channels and terminals.
#[derive(Clone, Debug)]
pub struct Network {
    name: String,
    routers: u32,
    channels: Vec<Channel>,
    inject: Vec<RouterId>,
    eject: Vec<RouterId>,
    classes: Vec<String>,
    out_start: Vec<u32>,
    out_list: Vec<ChannelId>,
    terminal_width: u32,
}

impl Network {
    /// Assembles a network; `inject[t]` and `eject[t]` are the routers terminal `t` enters and
    /// leaves the network at (the same router in a direct network).
    ///
    /// # Panics
    /// If a channel names a router or class that does not exist (a builder bug, not user input).
    pub fn new(
        name: impl Into<String>,
        routers: u32,
        channels: Vec<Channel>,
        inject: Vec<RouterId>,
        eject: Vec<RouterId>,
        classes: Vec<String>,
    ) -> Self {
        assert_eq!(inject.len(), eject.len(), "every terminal needs both routers");
        let mut out_start = vec![0u32; routers as usize + 1];
        for c in &channels {
            assert!(c.src < routers && c.dst < routers, "channel endpoint out of range");
            assert!((c.class as usize) < classes.len(), "channel class out of range");
            out_start[c.src as usize + 1] += 1;
        }
        for r in 0..routers as usize {
            out_start[r + 1] += out_start[r];
        }
        let mut fill = out_start.clone();
        let mut out_list = vec![0; channels.len()];
        for (i, c) in channels.iter().enumerate() {
            out_list[fill[c.src as usize] as usize] = i as ChannelId;
            fill[c.src as usize] += 1;
        }
        Network {
            name: name.into(),
            routers,
            channels,
            inject,
            eject,
            classes,
            out_start,
            out_list,
            terminal_width: 1,
        }
    }

    /// The family's name for this instance, e.g. `8-ary 2-cube (torus, unidirectional)`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Number of routers.
    pub fn routers(&self) -> u32 {
        self.routers
    }
    /// Number of terminals.
    pub fn terminals(&self) -> u32 {
        self.inject.len() as u32
    }
    /// All channels, indexed by [`ChannelId`].
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }
    /// One channel.
    pub fn channel(&self, c: ChannelId) -> &Channel {
        &self.channels[c as usize]
    }
    /// Channels leaving router `r`.
    pub fn out_channels(&self, r: RouterId) -> &[ChannelId] {
        let r = r as usize;
        &self.out_list[self.out_start[r] as usize..self.out_start[r + 1] as usize]
    }
    /// Router at which terminal `t` injects.
    pub fn inject_router(&self, t: TerminalId) -> RouterId {
        self.inject[t as usize]
    }
    /// Router from which terminal `t` receives.
    pub fn eject_router(&self, t: TerminalId) -> RouterId {
        self.eject[t as usize]
    }
    /// Names of the channel classes, indexed by [`Channel::class`].
    pub fn classes(&self) -> &[String] {
        &self.classes
    }
    /// Width, in flits per cycle, of each terminal's injection and ejection link (1 unless a
    /// family says otherwise, e.g. seed 003's Xbar.32.8 with 32-bit processor links).
    pub fn terminal_width(&self) -> u32 {
        self.terminal_width
    }
    /// Sets the terminals' link width (at least 1).
    pub fn set_terminal_width(&mut self, width: u32) {
        self.terminal_width = width.max(1);
    }
    /// The same routers with every channel turned round and each terminal's injection and
    /// ejection routers swapped: the response network of a processor–memory ("dance-hall")
    /// network (seed 003 §5.1 builds one network for requests and an identical one for the
    /// replies). Route it with [`crate::TableRouted`]. Channel `i` of the result is channel `i`
    /// reversed, with the same width and class.
    pub fn reversed(&self) -> Network {
        let channels = self.channels.iter().map(|c| Channel { src: c.dst, dst: c.src, ..*c }).collect();
        let mut net = Network::new(
            format!("{} (reversed)", self.name),
            self.routers,
            channels,
            self.eject.clone(),
            self.inject.clone(),
            self.classes.clone(),
        );
        net.terminal_width = self.terminal_width;
        net
    }
    /// Out-degree of every router, as (minimum, maximum).
    pub fn degree_range(&self) -> (u32, u32) {
        (0..self.routers as usize)
            .map(|r| self.out_start[r + 1] - self.out_start[r])
            .fold((u32::MAX, 0), |(lo, hi), d| (lo.min(d), hi.max(d)))
    }
}

/// Up to eight channels a message may take next; empty means "deliver here".
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidates {
    buf: [ChannelId; 8],
    len: u8,
}

impl Candidates {
    /// Forgets all candidates.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Adds a candidate; candidates past the eighth are ignored (no family needs more).
    #[inline]
    pub fn push(&mut self, c: ChannelId) {
        if (self.len as usize) < self.buf.len() {
            self.buf[self.len as usize] = c;
            self.len += 1;
        }
    }
    /// The candidates, in the routing function's order of preference.
    #[inline]
    pub fn as_slice(&self) -> &[ChannelId] {
        &self.buf[..self.len as usize]
    }
    /// True when the message has reached the router that delivers it.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A routing function: which channels a message may take next.
///
/// `salt` is a per-message random value, so routing functions that break ties (such as the
/// direction of a half-way hop on a bidirectional ring) do so reproducibly and evenly.
pub trait Routing: Sync {
    /// Fills `out` with the channels a message at router `at`, bound for terminal `dest`, may
    /// take next, most preferred first; leaves it empty when `at` delivers to `dest`.
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates);
}

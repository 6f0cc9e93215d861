//! The wires between routers: what crosses them one way (flits, or credits back).

/// What crosses the wires one way (flits, or credits back): an entry sent at cycle s over a
/// channel of latency d ≤ l arrives at s + d — a ring of l + 1 buckets indexed by arrival
/// cycle, each emptied in the cycle it arrives (the engine never skips a cycle in which
/// something arrives), in the order it was filled.
pub(super) struct Wires<T> {
    buckets: Vec<Vec<T>>,
    /// The current cycle's bucket.
    cursor: usize,
    pending: usize,
}

impl<T: Copy> Wires<T> {
    pub fn new(l: u64) -> Self {
        Wires { buckets: (0..=l).map(|_| Vec::new()).collect(), cursor: 0, pending: 0 }
    }

    /// Sends `x` in the current cycle: it arrives `d` cycles later (1 ≤ d ≤ l).
    #[inline]
    pub fn send(&mut self, x: T, d: u32) {
        let n = self.buckets.len();
        let at = self.cursor + d as usize;
        self.buckets[if at >= n { at - n } else { at }].push(x);
        self.pending += 1;
    }

    /// Files `x`, sent from another shard, to arrive at cycle `at` (within l of the current
    /// cycle: the run files it after the cycle it was sent in).
    pub fn send_at(&mut self, x: T, at: u64) {
        let n = self.buckets.len() as u64;
        self.buckets[(at % n) as usize].push(x);
        self.pending += 1;
    }

    /// Moves to cycle `now` and hands over what arrives then (`out` must be empty).
    #[inline]
    pub fn arrive(&mut self, now: u64, out: &mut Vec<T>) {
        self.cursor = (now % self.buckets.len() as u64) as usize;
        std::mem::swap(out, &mut self.buckets[self.cursor]);
        self.pending -= out.len();
    }

    /// The first cycle after `now` at which something arrives.
    pub fn next_arrival(&self, now: u64) -> Option<u64> {
        let n = self.buckets.len();
        (self.pending > 0)
            .then(|| (1..n).find(|d| !self.buckets[(self.cursor + d) % n].is_empty()).map(|d| now + d as u64))
            .flatten()
    }
}

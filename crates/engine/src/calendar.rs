//! A calendar queue keyed by integer cycle: a ring of buckets for the near future and a heap
//! for events beyond it. Popping a cycle's bucket is O(1); events far ahead (long queues
//! under heavy load, long gaps between arrivals at light load) wait in the heap until the
//! ring reaches them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

const RING: usize = 1 << 9;
/// Buckets keep their allocation between uses only up to this many events, so a burst does
/// not leave every slot of the ring holding a large buffer.
const KEEP: usize = 256;

/// Events of type `T` (plain data) filed by the cycle at which they happen.
pub struct Calendar<T> {
    ring: Vec<Vec<T>>,
    far: BinaryHeap<Reverse<(u64, T)>>,
    now: u64,
    /// Events filed and not yet taken (engines ask every cycle).
    count: usize,
}

impl<T: Copy + Ord> Calendar<T> {
    /// An empty calendar whose current cycle is 0.
    pub fn new() -> Self {
        Calendar { ring: (0..RING).map(|_| Vec::new()).collect(), far: BinaryHeap::new(), now: 0, count: 0 }
    }

    /// Files `event` at cycle `at`, which must not be before the current cycle.
    #[inline(always)]
    pub fn push(&mut self, at: u64, event: T) {
        debug_assert!(at >= self.now, "event filed in the past: {at} < {}", self.now);
        self.count += 1;
        if at - self.now < RING as u64 {
            self.ring[at as usize & (RING - 1)].push(event);
        } else {
            self.far.push(Reverse((at, event)));
        }
    }

    /// Moves to cycle `t` (not before the current one) and hands back that cycle's events,
    /// swapping them into `out` (which must be empty); `out`'s old buffer is reused by the
    /// emptied slot when it is small, and otherwise by the next cycle's slot, which most
    /// events are filed in when many are (a buffer of a cycle's events is then not freed and
    /// grown again every cycle, which left the heap fragmented: megabytes at a million nodes).
    pub fn take(&mut self, t: u64, out: &mut Vec<T>) {
        debug_assert!(t >= self.now && out.is_empty());
        if out.capacity() > KEEP {
            let next = &mut self.ring[(t + 1) as usize & (RING - 1)];
            let mut large = std::mem::take(out);
            if next.capacity() < large.capacity() {
                large.extend_from_slice(next);
                std::mem::swap(next, &mut large);
            }
        }
        self.now = t;
        while let Some(&Reverse((at, ev))) = self.far.peek() {
            if at >= t + RING as u64 {
                break;
            }
            self.far.pop();
            self.ring[at as usize & (RING - 1)].push(ev);
        }
        std::mem::swap(out, &mut self.ring[t as usize & (RING - 1)]);
        self.count -= out.len();
    }
}

impl<T: Copy + Ord> Calendar<T> {
    /// The earliest cycle after the current one at which an event is filed, if any: lets an
    /// engine jump over cycles in which nothing happens.
    pub fn next_after_now(&self) -> Option<u64> {
        for d in 1..RING as u64 {
            if !self.ring[(self.now + d) as usize & (RING - 1)].is_empty() {
                return Some(self.now + d);
            }
        }
        self.far.peek().map(|Reverse((at, _))| *at)
    }

    /// True when no event is filed at all.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Events filed and not yet taken.
    pub fn len(&self) -> usize {
        self.count
    }
}

impl<T: Copy + Ord> Default for Calendar<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_and_far_events_come_back_at_their_cycle() {
        let mut c = Calendar::new();
        c.push(3, 1u32);
        c.push(5000, 2);
        c.push(3, 3);
        c.push(2047, 4);
        assert_eq!(c.len(), 4);
        let mut out = Vec::new();
        let mut seen = Vec::new();
        for t in 0..6000 {
            c.take(t, &mut out);
            for e in out.drain(..) {
                seen.push((t, e));
            }
            // Every event not yet taken is counted, near or far.
            assert_eq!(c.len(), 4 - seen.len(), "t = {t}");
            assert_eq!(c.is_empty(), seen.len() == 4);
        }
        assert_eq!(seen, vec![(3, 1), (3, 3), (2047, 4), (5000, 2)]);
    }

    #[test]
    fn next_event_skips_empty_cycles() {
        let mut c = Calendar::new();
        c.push(40, 1u32);
        c.push(100_000, 2);
        assert_eq!(c.next_after_now(), Some(40));
        let mut out = Vec::new();
        c.take(40, &mut out);
        assert_eq!(c.next_after_now(), Some(100_000));
        out.clear();
        c.take(100_000, &mut out);
        assert_eq!(c.next_after_now(), None);
        assert!(c.is_empty());
    }
}

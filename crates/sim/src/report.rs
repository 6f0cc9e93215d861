//! Statistics of a run and its verdict: latency with a batch-means confidence interval,
//! percentiles, hop counts, utilisation by channel class, accepted throughput — and whether
//! the run measured a steady state (`ok`), found the network saturated, or stopped at a limit
//! below saturation.

use crate::num;
use netwrap_engine::stats::Percentiles;
use netwrap_engine::{Outcome, StopReason};
use netwrap_topo::Network;
use serde::{Deserialize, Serialize};

/// What a run concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every measured message was delivered below saturation: the latency is a steady-state
    /// figure.
    Ok,
    /// The offered load exceeds what the network carries: queues grow without bound, there
    /// is no steady-state latency; the accepted throughput is reported.
    Saturated,
    /// The cycle limit (or the in-flight message limit) ended the run before its measured
    /// messages were delivered, below saturation: the reason says what to raise.
    LimitReached,
    /// No flit moved for a while with packets in the network (virtual-channel router): the
    /// report's `deadlock` holds the cycle of waits.
    Deadlock,
    /// The run ended before its initial transient did (the steady-state test, [`SteadyState`],
    /// found it reaching into the measurement window however long the warm-up was made, within
    /// the cycle limit): no steady-state figure.
    NotSteady,
}

/// Utilisation of one channel class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassUtilization {
    /// Class name, e.g. `dim 1`.
    pub class: String,
    /// Measured busy fraction, averaged over the class's channels.
    pub utilization: f64,
    /// Expected from the traffic and routing (offered load), when known.
    pub expected: Option<f64>,
    /// Virtual-channel router: mean flits held in each input VC (index = VC) of the class's
    /// channels, over the window and the class's channels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupancy: Option<Vec<f64>>,
}

/// One channel's measurements (asked for with `--channels`): Puente et al. Fig. 8's map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelStats {
    /// The channel's id.
    pub channel: u32,
    /// Its source router.
    pub from: u32,
    /// Its destination router.
    pub to: u32,
    /// Its class.
    pub class: String,
    /// Busy fraction over the window.
    pub utilization: f64,
    /// Virtual-channel router: mean flits in each of its input VCs (at `to`) over the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupancy: Option<Vec<f64>>,
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// `ok`, `saturated` or `limit-reached`.
    pub verdict: Verdict,
    /// Why the verdict is not `ok`, in words, with what to change.
    pub verdict_reason: Option<String>,
    /// True when the network is saturated (the verdict `saturated`; the models' key).
    pub saturated: bool,
    /// Measured channel utilisation ρ: busy channel-cycles over channel-cycles in the window.
    pub utilization: f64,
    /// Mean latency T of the measured messages; only with the verdict `ok`.
    pub latency: Option<f64>,
    /// 95% confidence half-width of `latency`: batch means, their size chosen from the data
    /// ([`netwrap_engine::stats::BatchMeans`]); absent when the run is too short for an honest
    /// one (`latency_ci_note` says why).
    pub latency_ci95: Option<f64>,
    /// Why an `ok` run has no `latency_ci95`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ci_note: Option<String>,
    /// The batches `latency_ci95` rests on (or that were too correlated for one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_batches: Option<BatchBasis>,
    /// Mean latency of the measured messages that were delivered, whatever the verdict (when
    /// it is not `ok` this depends on how long the run lasted and is no steady-state figure).
    pub latency_observed: f64,
    /// Mean cycles from creation to the first hop's start (queueing at the source).
    pub source_queueing: f64,
    /// Mean of latency minus source queueing.
    pub network_latency: f64,
    /// Percentiles of the delivered measured messages' latencies.
    pub latency_percentiles: Option<Percentiles>,
    /// Accepted throughput: messages delivered per terminal per cycle in the window.
    pub throughput: f64,
    /// Offered load: messages created per terminal per cycle in the window.
    pub offered: f64,
    /// Offered load in flits per node per cycle: the flits of the messages created in the
    /// window that cross the network (not self-addressed), per terminal per cycle.
    #[serde(default)]
    pub offered_load: f64,
    /// Accepted load in flits per node per cycle: the flits of the messages delivered in the
    /// window that crossed the network, per terminal per cycle (self-addressed messages cross
    /// no channel: `self_load`).
    #[serde(default)]
    pub accepted_load: f64,
    /// Flits per node per cycle of the self-addressed messages delivered in the window: what
    /// a pattern's fixed points (or uniform's draws of the source) hand to themselves, kept
    /// apart from `accepted_load`.
    #[serde(default)]
    pub self_load: f64,
    /// Measured messages delivered.
    pub messages_delivered: u64,
    /// Measured messages created (at most the `messages` asked for).
    pub messages_measured: u64,
    /// Messages created in the measurement window (measured or not).
    pub messages_generated: u64,
    /// Messages delivered in the measurement window (measured or not).
    pub messages_delivered_window: u64,
    /// Messages in flight (created, not delivered) when the run ended.
    pub in_flight: u64,
    /// Cycles simulated, warm-up included.
    pub cycles: u64,
    /// Warm-up cycles discarded.
    pub warmup: u64,
    /// What the steady-state test found over the run's deliveries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady_state: Option<SteadyState>,
    /// The warm-up planned, when the steady-state test made it longer (`warmup` is the one
    /// run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup_extended_from: Option<u64>,
    /// With the verdict `saturated`: the accepted load (flits/node/cycle) in each tenth of the
    /// measurement window (fewer when it is short), and whether it drifts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_by_window: Option<AcceptedSeries>,
    /// Mean hops of the delivered measured messages.
    pub mean_hops: f64,
    /// 95% confidence half-width of `mean_hops`.
    pub mean_hops_ci95: Option<f64>,
    /// Utilisation per channel class.
    pub utilization_by_class: Vec<ClassUtilization>,
    /// Hop counts of the delivered measured messages (index = hops).
    pub hop_histogram: Vec<u64>,
    /// Mean latency of the measured messages' packets delivered, from their message's creation
    /// (virtual-channel router).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet_latency: Option<f64>,
    /// Mean network part of `packet_latency`: from the cycle the packet's header left its source
    /// router.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet_network_latency: Option<f64>,
    /// Packets of the measured messages delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packets_delivered: Option<u64>,
    /// Each source's accepted throughput (messages it sent that were delivered in the window,
    /// per cycle): its least and greatest, and Jain's fairness index (1: every source alike).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<Fairness>,
    /// Under non-minimal paths (Valiant, UGAL, PAR): the fraction of the measured packets
    /// delivered (messages, on the ideal switch) that went through an intermediate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonminimal: Option<f64>,
    /// With the verdict `deadlock`: the cycle of waits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadlock: Option<netwrap_engine::Deadlock>,
    /// Per channel, when asked for (`--channels`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<ChannelStats>>,
    /// Processors that wait and memories that reply: their accesses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accesses: Option<AccessReport>,
    /// A collective's completion time in cycles: the cycle its last message was delivered
    /// (absent when it did not complete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion: Option<u64>,
    /// A collective: what it sent, its iterations, its critical path and the bound the network
    /// allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collective: Option<CollectiveReport>,
}

/// What a collective's run measured ([`crate::collective`], `netwrap_engine::collective`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CollectiveReport {
    /// Which collective.
    pub kind: String,
    /// Ranks.
    pub ranks: u32,
    /// Its messages and their flits, over every iteration.
    pub messages: u64,
    /// Their flits.
    pub flits: u64,
    /// Rounds per iteration.
    pub rounds: u32,
    /// Messages delivered.
    pub delivered: u64,
    /// The cycle each iteration's last message was delivered (iterations may overlap: a rank
    /// starts the next as soon as it has finished the last).
    pub iterations: Vec<u64>,
    /// The mean iteration: completion over iterations.
    pub iteration_time: f64,
    /// Along the critical path: completion = start + compute + network.
    pub breakdown: Breakdown,
    /// The lower bound the network allows ([`crate::collective::Bound`]).
    pub bound: crate::collective::Bound,
    /// Completion over the bound (at least 1).
    pub ratio: Option<f64>,
}

/// Where a collective's time went, along its critical path (the chain of messages, each
/// created by the last delivery it waited for, ending at the completion).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    /// The cycle its first message was created.
    pub start: u64,
    /// Cycles of compute.
    pub compute: u64,
    /// Cycles its messages spent from creation to delivery.
    pub network: u64,
    /// Of `network`, cycles at their sources before their first hop.
    pub source_queueing: u64,
    /// Of `network`, what an idle network takes (the critical-path bound's part).
    pub unloaded: f64,
    /// Of `network`, the rest: waiting for channels other messages held.
    pub contention: f64,
    /// Messages on the critical path.
    pub messages: u64,
    /// Their hops.
    pub hops: u64,
    /// Waiting on dependencies, over the whole run (not only the critical path): the mean,
    /// over the sends and joins that wait for several messages, of the cycles from the first
    /// of them arriving to the last (0 when each waits for one, or they arrive together).
    pub dependency_wait: f64,
}

impl Report {
    /// Fills in what collective `c` measured, `done`, against `bound`.
    pub fn set_collective(
        &mut self,
        c: &netwrap_engine::collective::Collective,
        summary: &netwrap_engine::collective::Summary,
        done: &netwrap_engine::deps::Completion,
        bound: crate::collective::Bound,
    ) {
        let completed = done.unfinished == 0 && self.verdict == Verdict::Ok;
        let p = &done.critical;
        let unloaded = (bound.critical_path - (p.start + p.compute) as f64).max(0.0);
        self.completion = completed.then_some(done.completion);
        self.collective = Some(CollectiveReport {
            kind: c.kind.name().to_string(),
            ranks: c.ranks(),
            messages: summary.messages,
            flits: summary.flits,
            rounds: summary.rounds,
            delivered: done.messages,
            iterations: done.phases.clone(),
            iteration_time: done.completion as f64 / c.iterations.max(1) as f64,
            breakdown: Breakdown {
                start: p.start,
                compute: p.compute,
                network: p.network,
                source_queueing: p.queueing,
                unloaded,
                contention: p.network as f64 - unloaded,
                messages: p.messages,
                hops: p.hops,
                dependency_wait: done.dependency_wait as f64 / done.joined.max(1) as f64,
            },
            bound,
            ratio: (completed && bound.bound > 0.0).then(|| done.completion as f64 / bound.bound),
        });
    }
}

/// The steady-state test over a run's deliveries (warm-up included) in buckets of
/// `resolution` cycles: MSER (White 1997, *An effective truncation heuristic for bias reduction
/// in simulation output*; White, Cobb & Spratt 2000) applied to the accepted flits and to the
/// mean latency of each bucket. The transient ends where the truncation point d minimising
/// MSER(d) = Σ_{i≥d} (Y_i − Ȳ_d)² / (n − d)² over d ≤ n/2 falls (the later of the two
/// series'); when the minimum is at n/2, no steady part was found (White's rule: a truncation
/// point in the second half means the run is too short).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SteadyState {
    /// The cycle at which the initial transient ends; `None`: not within the run.
    pub transient_end: Option<u64>,
    /// Cycles per bucket of the series tested.
    pub resolution: u64,
}

/// The batch means an interval rests on ([`netwrap_engine::stats::BatchMeans`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchBasis {
    /// Batches.
    pub batches: u32,
    /// Measured messages per batch.
    pub per_batch: u64,
    /// Lag-1 autocorrelation of their means.
    pub lag1: f64,
}

/// Buckets a series needs before the steady-state test judges it.
const STEADY_MIN_BUCKETS: usize = 8;

/// The truncation point d in 0..=n/2 minimising MSER(d) (see [`SteadyState`]): the search
/// stops at half the series, since MSER over a short tail is small by chance (two equal values
/// give 0); a minimum at n/2 itself means the series still changes there. 0 for fewer than
/// three values.
pub fn mser(y: &[f64]) -> usize {
    let n = y.len();
    if n < 3 {
        return 0;
    }
    // Centred on the whole series' mean, so the suffix sums lose no precision.
    let centre = y.iter().sum::<f64>() / n as f64;
    let (mut sum, mut squares) = (0.0, 0.0);
    let mut best = (f64::INFINITY, 0);
    for d in (0..n).rev() {
        let v = y[d] - centre;
        sum += v;
        squares += v * v;
        let k = (n - d) as f64;
        if d <= n / 2 {
            let statistic = (squares - sum * sum / k).max(0.0) / (k * k);
            if statistic <= best.0 {
                best = (statistic, d);
            }
        }
    }
    best.1
}

/// The steady-state test on `o`'s deliveries up to its end.
pub fn steady_state(o: &Outcome) -> SteadyState {
    let buckets = o.series.buckets_before(o.end);
    let resolution = o.series.width();
    let n = buckets.len();
    if n < STEADY_MIN_BUCKETS {
        // Too few to judge (a run of a few cycles): nothing says it is not steady.
        return SteadyState { transient_end: Some(0), resolution };
    }
    let flits: Vec<f64> = buckets.iter().map(|b| b.flits as f64).collect();
    let with_latency: Vec<(usize, f64)> = buckets
        .iter()
        .enumerate()
        .filter(|(_, b)| b.messages > 0)
        .map(|(i, b)| (i, b.latency_sum as f64 / b.messages as f64))
        .collect();
    let d_flits = mser(&flits);
    let latencies: Vec<f64> = with_latency.iter().map(|x| x.1).collect();
    let d_latency = mser(&latencies);
    let settled =
        d_flits < n / 2 && latencies.len() >= STEADY_MIN_BUCKETS.min(n) && d_latency < latencies.len() / 2;
    let end = d_flits.max(with_latency.get(d_latency).map_or(0, |x| x.0));
    SteadyState { transient_end: settled.then_some(end as u64 * resolution), resolution }
}

/// A saturated run's accepted load over its measurement window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcceptedSeries {
    /// Cycles per window.
    pub window: u64,
    /// Accepted load (flits/node/cycle, network only) per window, oldest first.
    pub loads: Vec<f64>,
    /// The least-squares trend across the windows, as a fraction of their mean: the change
    /// from the first window to the last.
    pub trend: f64,
    /// Whether the trend is a drift: over 5% of the mean and beyond three standard errors of
    /// the slope.
    pub drifts: bool,
}

/// The accepted load per window of `o`'s measurement window, on `nodes` nodes, in up to ten
/// windows of whole buckets; `None` with fewer than four.
fn accepted_series(o: &Outcome, nodes: f64) -> Option<AcceptedSeries> {
    let width = o.series.width();
    let buckets = o.series.buckets_before(o.end);
    let first = o.warmup.div_ceil(width) as usize;
    let inside = buckets.get(first..)?;
    let per = inside.len().div_ceil(10).max(1);
    let k = inside.len() / per;
    if k < 4 {
        return None;
    }
    let window = per as u64 * width;
    let loads: Vec<f64> = inside
        .chunks_exact(per)
        .map(|c| c.iter().map(|b| b.flits).sum::<u64>() as f64 / (nodes * window as f64))
        .collect();
    let kf = k as f64;
    let mean = loads.iter().sum::<f64>() / kf;
    let xm = (kf - 1.0) / 2.0;
    let sxx: f64 = (0..k).map(|i| (i as f64 - xm).powi(2)).sum();
    let slope = (0..k).map(|i| (i as f64 - xm) * (loads[i] - mean)).sum::<f64>() / sxx;
    let residual: f64 =
        (0..k).map(|i| (loads[i] - mean - slope * (i as f64 - xm)).powi(2)).sum::<f64>() / (kf - 2.0);
    let se = (residual / sxx).sqrt();
    let trend = if mean > 0.0 { slope * (kf - 1.0) / mean } else { 0.0 };
    Some(AcceptedSeries { window, loads, trend, drifts: trend.abs() > 0.05 && slope.abs() > 3.0 * se })
}

/// How evenly the sources' messages were accepted (over the sources that sent any in the
/// window).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fairness {
    /// The least accepted throughput of a source, messages per cycle.
    pub min: f64,
    /// The greatest.
    pub max: f64,
    /// Jain's index (Σx)² / (n·Σx²) over the n sources (Jain, Chiu & Hawe 1984): 1 when all
    /// are equal, 1/n when one source gets everything.
    pub jain: f64,
}

impl Fairness {
    /// Over the sources that generated or delivered a message in a window of `window` cycles.
    pub fn of(generated: &[u32], accepted: &[u32], window: f64) -> Option<Fairness> {
        let x: Vec<f64> = generated
            .iter()
            .zip(accepted)
            .filter(|(g, a)| **g > 0 || **a > 0)
            .map(|(_, &a)| a as f64 / window)
            .collect();
        if x.is_empty() {
            return None;
        }
        let (sum, squares) = x.iter().fold((0.0, 0.0), |(s, q), &v| (s + v, q + v * v));
        Some(Fairness {
            min: x.iter().copied().fold(f64::INFINITY, f64::min),
            max: x.iter().copied().fold(0.0, f64::max),
            jain: if squares > 0.0 { sum * sum / (x.len() as f64 * squares) } else { 1.0 },
        })
    }
}

/// What the processors' accesses measured (threads, or memories that reply).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccessReport {
    /// Threads per processor (absent: open loop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    /// Processor utilisation U: busy (computing) cycles over all cycles of the window, per
    /// processor (threads only; the feedback model's key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processor_utilization: Option<f64>,
    /// Accesses completed per processor per cycle in the window.
    pub access_rate: f64,
    /// Mean round-trip latency of the measured accesses: issue to completion (the reply's
    /// delivery; without replies, the request's delivery plus the memory's time).
    pub round_trip: f64,
    /// 95% confidence half-width of `round_trip` (batch means).
    pub round_trip_ci95: Option<f64>,
    /// Percentiles of the round trips.
    pub round_trip_percentiles: Option<Percentiles>,
    /// Mean request leg: issue to delivery at the memory.
    pub request_latency: f64,
    /// Mean time at the memory: queueing behind other accesses plus the access time M.
    pub memory_time: f64,
    /// Mean queueing at the memory.
    pub memory_queueing: f64,
    /// Mean reply leg: end of the memory's service to delivery at the processor.
    pub reply_latency: f64,
    /// Mean hops of request and reply together.
    pub hops: f64,
    /// Measured accesses completed.
    pub accesses_measured: u64,
    /// Accesses issued in the window.
    pub accesses_issued: u64,
}

/// What the verdict needs to know besides the outcome.
pub struct Context {
    /// Offered busy fraction of the busiest channel, when the loads are known.
    pub offered_max: Option<f64>,
    /// When they are not: the mean offered busy fraction over every channel, a lower bound on
    /// the busiest channel's.
    pub offered_mean: Option<f64>,
    /// Terminals.
    pub terminals: u32,
    /// Request rate.
    pub rate: f64,
    /// Unloaded worst-case latency: longest route plus message length.
    pub unloaded_worst: u64,
    /// The cycle limit.
    pub max_cycles: u64,
    /// The in-flight limit.
    pub in_flight_limit: u64,
    /// A saturated run's measurement window, when its budgets made it shorter than twenty
    /// unloaded latencies (at least 2,000 cycles).
    pub short_window: Option<u64>,
    /// Routers with finite buffers (the virtual-channel router), which may saturate below an
    /// offered load of one flit per cycle on the busiest channel.
    pub finite_buffers: bool,
    /// Processors that wait for their accesses: they never offer more than the network
    /// accepts, so the network cannot saturate.
    pub closed_loop: bool,
    /// Messages may take non-minimal paths (their fraction is reported).
    pub nonminimal_paths: bool,
    /// Whether the steady-state test applies (not to a replayed trace, whose load is whatever
    /// the trace holds).
    pub steady_test: bool,
    /// A replayed trace's last record's cycle: when it creates its last message.
    pub trace_last_cycle: Option<u64>,
    /// A collective's name and messages.
    pub collective: Option<(&'static str, u64)>,
    /// The busiest channel's queue's relaxation time in cycles, when its load ρ is known
    /// exactly: x̄/(1 − √ρ)² for a message holding it x̄ cycles (Morse 1955, the M/M/1
    /// queue's relaxation time), the span over which its length, and latencies, stay
    /// correlated.
    pub relaxation: Option<f64>,
}

/// Relaxation times an interval's fewest batches must each span at least: an interval rests
/// on windows of at least [`netwrap_engine::stats::MIN_BATCHES`] times this many relaxation
/// times. Correlations that outlast a run cannot show in its batch means (each run samples one
/// queue level), which only a window long against them rules out.
pub const RELAXATIONS_PER_BATCH: f64 = 2.0;

/// A round number at least `x`: two significant figures, rounded up.
fn round_up(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return x;
    }
    let scale = 10f64.powf(x.log10().floor() - 1.0);
    (x / scale).ceil() * scale
}

/// The verdict and its reason.
fn judge(
    o: &Outcome,
    throughput: f64,
    offered: f64,
    steady: Option<SteadyState>,
    ctx: &Context,
) -> (Verdict, Option<String>) {
    let m = &o.measured;
    if let Some(d) = &o.deadlock {
        return (
            Verdict::Deadlock,
            Some(format!(
                "no flit moved for {} cycles with {} flits in the network (cycle {}): a cycle of {} virtual channels each waits for the next; choose deadlock-free routing or more virtual channels",
                d.quiet_cycles,
                d.flits_in_network,
                d.detected_at,
                d.cycle.len()
            )),
        );
    }
    // The network falls behind when it accepts less than 95% of what is offered and either
    // latency grows through the run or the shortfall is beyond the population's noise: in a
    // steady state the messages in flight (created minus delivered) stay level, fluctuating by
    // about the square root of their number, so a window that ends with more than five times
    // that above where it started is no fluctuation. (A saturated finite-buffer network fills
    // during the warm-up; its measured messages, created over a short span behind that
    // backlog, may all wait about as long, so their latency need not grow.)
    let window = o.end.saturating_sub(o.warmup) as f64;
    let shortfall = (offered - throughput) * o.generated.len() as f64 * window;
    let beyond_noise = shortfall > 5.0 * (o.in_flight.max(1) as f64).sqrt();
    let grows = m.latency_grows(o.stop == StopReason::Drained);
    let behind = !ctx.closed_loop && throughput < 0.95 * offered && (grows || beyond_noise);
    // Open-loop accesses: the memories (one access at a time) or the replies may fall behind
    // although requests are delivered; round trips then grow, or the accesses waiting pile up.
    let memories_behind = o.accesses.as_ref().filter(|a| a.threads.is_none()).and_then(|a| {
        let per = (a.processors.max(1) as f64) * window.max(1.0);
        let (issued, completed) = (a.issued as f64 / per, a.completed as f64 / per);
        let waiting = a.issued.saturating_sub(a.completed) as f64;
        let piling = waiting > 5.0 * waiting.sqrt().max(1.0) + 0.05 * a.issued as f64;
        let grows = a.round_trip.latency_grows(o.stop == StopReason::Drained);
        (!ctx.closed_loop && completed < 0.95 * issued && (grows || piling)).then(|| {
            format!(
                "the accesses fall behind: {completed:.5} completed against {issued:.5} issued per processor per cycle, as the memories (one access at a time each) or the replies cannot keep up"
            )
        })
    });
    if let Some(why) = memories_behind {
        return (Verdict::Saturated, Some(why));
    }
    // Without the exact loads, or with finite buffers (which saturate below a busiest-channel
    // load of one), the run's own measurements decide whether the network fell behind.
    let dynamic_verdict = ctx.offered_max.is_none() || ctx.finite_buffers;
    let overloaded = ctx
        .offered_max
        .filter(|&l| crate::routes::saturates(l))
        .map(|load| format!("offered load on the busiest channel is {load:.4} flits/cycle (>= 1)"))
        .or_else(|| {
            ctx.offered_mean.filter(|&l| crate::routes::saturates(l)).map(|mean| {
                format!(
                    "the mean offered load over every channel is {mean:.4} flits/cycle (>= 1), so the busiest channel's is at least that"
                )
            })
        });
    if let Some(overload) = overloaded {
        let unmeasured = if o.end <= o.warmup {
            format!(
                "; the run stopped during its {}-cycle warm-up ({}), so its loads are over the cycles it ran, warm-up included: shorten --warmup for a measured window",
                o.warmup,
                o.stop.describe()
            )
        } else if ctx.short_window.is_some()
            || o.measured.target.min(10_000) > o.delivered.iter().map(|&d| d as u64).sum()
        {
            format!(
                "; the accepted throughput was measured over only {} cycles (the run's work or in-flight budget), a rough figure",
                o.end - o.warmup
            )
        } else {
            String::new()
        };
        return (Verdict::Saturated, Some(format!("{overload}: queues grow without bound{unmeasured}")));
    }
    let dynamic = |what: &str| {
        let evidence = if grows {
            "latency grows through the run".to_string()
        } else {
            format!("{shortfall:.0} more messages were in flight at the end of the window than at its start")
        };
        format!(
            "{what}: accepted throughput {throughput:.5} is below the offered {offered:.5} messages/terminal/cycle and {evidence}"
        )
    };
    // A transient the run never leaves, or one that reaches into the measurement window: by
    // more than a tenth of it for the latency (MSER's truncation point falls that far in on a
    // stationary series well under once in a thousand runs), or at all for a verdict resting
    // on the window's own growth (a network still filling falls behind as a saturated one does).
    let window_cycles = o.end.saturating_sub(o.warmup);
    let transient = |slack: u64| {
        steady.and_then(|s| match s.transient_end {
            None => Some(format!(
                "no steady state within the run's {} cycles: its deliveries and latencies still change in its second half (MSER, White 1997)",
                o.end
            )),
            Some(t) if t > o.warmup + slack => Some(format!(
                "the initial transient lasts until about cycle {t}, past the {}-cycle warm-up and into the measurement window (MSER, White 1997)",
                o.warmup
            )),
            Some(_) => None,
        })
    };
    let not_steady = |why: String, extra: &str| {
        (
            Verdict::NotSteady,
            Some(format!("{why}{extra}; raise --max-cycles so the warm-up can grow, or --warmup")),
        )
    };
    let filling = transient(0).filter(|_| dynamic_verdict && behind);
    let unsteady = transient(window_cycles / 10);
    match o.stop {
        StopReason::Drained if filling.is_some() => not_steady(
            filling.unwrap_or_default(),
            &format!(
                " (it also accepted {throughput:.5} of the {offered:.5} messages/terminal/cycle offered, which a network filling up and a saturated one both do)"
            ),
        ),
        StopReason::Drained if unsteady.is_some() => not_steady(unsteady.unwrap_or_default(), ""),
        StopReason::Deadlock => (Verdict::Deadlock, Some("no flit moved with packets in the network".into())),
        // A cancelled run is not reported ([`crate::Experiment::run_with`] refuses it).
        StopReason::Cancelled => (Verdict::LimitReached, Some("the run was cancelled".into())),
        StopReason::Drained if dynamic_verdict && behind => {
            (Verdict::Saturated, Some(dynamic("the network falls behind")))
        }
        // The engine applied the test above to two windows running ([`StopRule::watch`]).
        StopReason::FellBehind => (Verdict::Saturated, Some(dynamic("the network falls behind"))),
        StopReason::Drained | StopReason::SaturationMeasured => (Verdict::Ok, None),
        StopReason::InFlightLimit if dynamic_verdict && throughput < 0.95 * offered => (
            Verdict::Saturated,
            Some(format!(
                "more than {} messages in flight and accepted throughput {throughput:.5} below the offered {offered:.5}",
                ctx.in_flight_limit
            )),
        ),
        StopReason::InFlightLimit => (
            Verdict::LimitReached,
            Some(format!(
                "more than {} messages were in flight (the most a run keeps in memory) after {} cycles, {} of {} measured messages delivered: the network is close to saturation, or its messages are very long; lower --rate (or --size)",
                ctx.in_flight_limit, o.end, m.delivered, m.target
            )),
        ),
        StopReason::CycleLimit if dynamic_verdict && behind => {
            (Verdict::Saturated, Some(dynamic("the cycle limit was reached")))
        }
        StopReason::CycleLimit if ctx.collective.is_some() => {
            let (kind, messages) = ctx.collective.unwrap_or_default();
            (
                Verdict::LimitReached,
                Some(format!(
                    "the cycle limit ({} cycles) was reached before the {kind} completed: {} of its {messages} messages delivered, {} in flight; raise --max-cycles",
                    ctx.max_cycles, m.delivered, o.in_flight
                )),
            )
        }
        StopReason::CycleLimit => {
            let drain = (4.0 * m.mean_latency()).max(10.0 * ctx.unloaded_worst as f64);
            // A trace creates its messages when its records say, not at a rate.
            let need = match ctx.trace_last_cycle {
                Some(last) => round_up(1.2 * (last as f64 + drain)),
                None => {
                    let creating = m.target as f64 / (ctx.rate * ctx.terminals as f64);
                    round_up(1.2 * (o.warmup as f64 + creating + drain))
                }
            };
            let not_created = m.target - m.created;
            // No cycle limit reaches 2^64 cycles (nor infinity, at a rate of 5e-324): only a
            // higher rate can help then.
            let advice = if let Some(last) = ctx.trace_last_cycle {
                if need < u64::MAX as f64 {
                    format!(
                        "the trace creates its last message at cycle {last}, so the run needs about {} cycles: raise --max-cycles",
                        num(need)
                    )
                } else {
                    format!(
                        "the trace creates its last message at cycle {last}, beyond any cycle limit with its drain (at most {}): shift the trace's cycles down",
                        u64::MAX
                    )
                }
            } else if need < u64::MAX as f64 {
                format!(
                    "the run needs about {} cycles: raise --max-cycles (the homework's steps) or lower --messages (pkts)",
                    num(need)
                )
            } else {
                format!(
                    "the run needs {} cycles, more than any cycle limit (at most {}): raise --rate (the homework's req-rt)",
                    if need.is_finite() { format!("about {}", num(need)) } else { "more than 1e308".into() },
                    u64::MAX
                )
            };
            (
                Verdict::LimitReached,
                Some(format!(
                    "the cycle limit ({} cycle{}) was reached with {} of {} measured messages delivered{} and {} message{} in flight; below saturation, {advice}",
                    ctx.max_cycles,
                    if ctx.max_cycles == 1 { "" } else { "s" },
                    m.delivered,
                    m.target,
                    if not_created > 0 { format!(" ({not_created} not yet created)") } else { String::new() },
                    o.in_flight,
                    if o.in_flight == 1 { "" } else { "s" },
                )),
            )
        }
    }
}

/// Summarises `o` on `net`, with `expected` the classes' offered busy fractions when known.
pub fn summarize(o: &Outcome, net: &Network, expected: Option<&[f64]>, ctx: &Context) -> Report {
    let class_names = net.classes();
    let window = (o.end.saturating_sub(o.warmup)).max(1) as f64;
    // Mean flits per VC of each channel, and summed per class.
    let vcs = o.vc_occupancy.as_ref().map(|occ| occ.len() / net.channels().len().max(1));
    let channel_occupancy = |c: usize| -> Option<Vec<f64>> {
        let (occ, v) = (o.vc_occupancy.as_ref()?, vcs?);
        Some(occ[c * v..(c + 1) * v].iter().map(|&x| x as f64 / window).collect())
    };
    let mut class_occupancy: Option<Vec<Vec<f64>>> = vcs.map(|v| vec![vec![0.0; v]; class_names.len()]);
    if let Some(sums) = &mut class_occupancy {
        for (c, ch) in net.channels().iter().enumerate() {
            for (k, x) in channel_occupancy(c).unwrap_or_default().into_iter().enumerate() {
                sums[ch.class as usize][k] += x;
            }
        }
    }
    let nodes = o.generated.len().max(1) as f64;
    let m = &o.measured;
    let (latency_ci95, mean_hops_ci95) = m.ci95();
    let busy_total: u64 = o.class_busy.iter().sum();
    let channels_total: u64 = o.class_channels.iter().sum();
    let utilization = busy_total as f64 / (channels_total.max(1) as f64 * window);
    // A class without channels (a crossbar's) has nothing to report.
    let utilization_by_class = class_names
        .iter()
        .enumerate()
        .filter(|&(i, _)| o.class_channels[i] > 0)
        .map(|(i, name)| ClassUtilization {
            class: name.clone(),
            utilization: o.class_busy[i] as f64 / (o.class_channels[i].max(1) as f64 * window),
            expected: expected.map(|e| e[i]),
            occupancy: class_occupancy
                .as_ref()
                .map(|sums| sums[i].iter().map(|x| x / o.class_channels[i] as f64).collect()),
        })
        .collect();
    let channels = o.channel_busy.as_ref().map(|busy| {
        busy.iter()
            .enumerate()
            .map(|(c, &b)| {
                let ch = net.channel(c as u32);
                ChannelStats {
                    channel: c as u32,
                    from: net.source(c as u32),
                    to: ch.dst,
                    class: class_names[ch.class as usize].clone(),
                    utilization: b as f64 / window,
                    occupancy: channel_occupancy(c),
                }
            })
            .collect()
    });
    let generated: u64 = o.generated.iter().map(|&x| x as u64).sum();
    let delivered_window: u64 = o.delivered.iter().map(|&x| x as u64).sum();
    // A run that stopped in its warm-up (an overload at the in-flight limit, a deadlock) has
    // no window: its loads are over the cycles it ran.
    let early = (o.end <= o.warmup).then_some(&o.warmup_counts);
    let (offered, throughput) = match early {
        Some(c) => {
            let span = nodes * o.end.max(1) as f64;
            (c.messages_generated as f64 / span, c.messages_delivered as f64 / span)
        }
        None => (generated as f64 / (nodes * window), delivered_window as f64 / (nodes * window)),
    };
    let steady = (ctx.steady_test && o.end > o.warmup).then(|| steady_state(o));
    let (verdict, verdict_reason) = judge(o, throughput, offered, steady, ctx);
    // Offered, accepted and self loads in flits per node per cycle, over the same span.
    let flit_loads = if let Some(f) = early {
        let span = nodes * o.end.max(1) as f64;
        (
            (f.generated - f.self_generated) as f64 / span,
            (f.delivered - f.self_delivered) as f64 / span,
            f.self_delivered as f64 / span,
        )
    } else {
        (
            (o.flits_generated - o.self_flits_generated) as f64 / (nodes * window),
            (o.flits_delivered - o.self_flits_delivered) as f64 / (nodes * window),
            o.self_flits_delivered as f64 / (nodes * window),
        )
    };
    let ok = verdict == Verdict::Ok;
    let mut hop_histogram = Vec::new();
    for (h, n) in m.hops.iter() {
        if h as usize >= hop_histogram.len() {
            hop_histogram.resize(h as usize + 1, 0);
        }
        hop_histogram[h as usize] = n;
    }
    let latency_observed = m.mean_latency();
    let source_queueing = m.mean_source_wait();
    // A window too short against the busiest queue's relaxation time gives no interval, however
    // uncorrelated its batch means look.
    let needed =
        ctx.relaxation.map(|t| t * RELAXATIONS_PER_BATCH * netwrap_engine::stats::MIN_BATCHES as f64);
    let too_short = needed.filter(|&n| window < n && latency_ci95.is_some());
    let latency_ci95 = latency_ci95.filter(|_| too_short.is_none());
    let latency_ci_note = (ok && latency_ci95.is_none() && m.delivered > 0).then(|| match (too_short, m.latency_batches()) {
        (Some(n), _) => format!(
            "no honest interval: its {} measured cycles are under {} relaxation times of the busiest channel's queue ({:.0} cycles at a load of {:.3}: x̄/(1 − √ρ)², Morse 1955), {} cycles, and latencies stay correlated that long; raise --messages",
            window as u64,
            RELAXATIONS_PER_BATCH as u64 * netwrap_engine::stats::MIN_BATCHES as u64,
            ctx.relaxation.unwrap_or_default(),
            ctx.offered_max.unwrap_or_default(),
            n.ceil() as u64
        ),
        (None, Some(b)) => format!(
            "no honest interval: the run is too short for its latencies' correlation ({} batch means of {} messages still have a lag-1 autocorrelation of {:.2}, {:.2} corrected for bias, above {}); raise --messages",
            b.means.len(),
            b.per_batch,
            b.lag1,
            b.correlation(),
            netwrap_engine::stats::MAX_LAG1
        ),
        (None, None) => format!(
            "no interval: fewer than {} measured messages",
            netwrap_engine::stats::MIN_BATCHES
        ),
    });
    Report {
        verdict,
        verdict_reason,
        saturated: verdict == Verdict::Saturated,
        utilization,
        latency: (ok && m.delivered > 0).then_some(latency_observed),
        latency_ci95: if ok { latency_ci95 } else { None },
        latency_ci_note,
        latency_batches: m.latency_batches().map(|b| BatchBasis {
            batches: b.means.len() as u32,
            per_batch: b.per_batch,
            lag1: b.lag1,
        }),
        latency_observed,
        source_queueing,
        network_latency: latency_observed - source_queueing,
        latency_percentiles: Percentiles::of(&m.latency),
        throughput,
        offered,
        offered_load: flit_loads.0,
        accepted_load: flit_loads.1,
        self_load: flit_loads.2,
        messages_delivered: m.delivered,
        messages_measured: m.created,
        messages_generated: generated,
        messages_delivered_window: delivered_window,
        in_flight: o.in_flight,
        cycles: o.end,
        warmup: o.warmup,
        steady_state: steady,
        warmup_extended_from: None,
        accepted_by_window: (verdict == Verdict::Saturated).then(|| accepted_series(o, nodes)).flatten(),
        mean_hops: m.mean_hops(),
        mean_hops_ci95,
        utilization_by_class,
        hop_histogram,
        deadlock: o.deadlock.clone(),
        packet_latency: o.packets.map(|p| p.latency_sum as f64 / p.delivered.max(1) as f64),
        packet_network_latency: o.packets.map(|p| p.network_sum as f64 / p.delivered.max(1) as f64),
        packets_delivered: o.packets.map(|p| p.delivered),
        fairness: Fairness::of(&o.generated, &o.accepted, window),
        nonminimal: ctx.nonminimal_paths.then(|| match o.packets {
            Some(p) => p.nonminimal as f64 / p.delivered.max(1) as f64,
            None => m.nonminimal as f64 / m.delivered.max(1) as f64,
        }),
        channels,
        accesses: o.accesses.as_ref().map(|a| {
            let done = a.round_trip.delivered.max(1) as f64;
            let processors = a.processors.max(1) as f64;
            AccessReport {
                threads: a.threads,
                processor_utilization: a.threads.map(|_| a.busy as f64 / (processors * window)),
                access_rate: a.completed as f64 / (processors * window),
                round_trip: a.round_trip.mean_latency(),
                round_trip_ci95: a.round_trip.ci95().0,
                round_trip_percentiles: Percentiles::of(&a.round_trip.latency),
                request_latency: a.request_sum as f64 / done,
                memory_time: a.memory_sum as f64 / done,
                memory_queueing: a.round_trip.mean_source_wait(),
                reply_latency: a.reply_sum as f64 / done,
                hops: a.round_trip.mean_hops(),
                accesses_measured: a.round_trip.delivered,
                accesses_issued: a.issued,
            }
        }),
        completion: None,
        collective: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_round_numbers_above() {
        assert_eq!(round_up(15_625.0), 16_000.0);
        assert_eq!(round_up(1234.0), 1300.0);
        assert_eq!(round_up(99.0), 99.0);
    }
}

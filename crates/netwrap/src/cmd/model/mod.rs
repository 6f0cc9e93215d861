//! `netwrap model …`: the analytical models. Each command's flags are its request
//! ([`netwrap_model::request`]); the facade ([`netwrap_app::predict`]) answers it, and the
//! command renders the report: a table, `--json` or `--csv`.

mod fat_tree;
mod feedback;
mod indirect;
mod kary_ncube;
mod network;

use crate::output::{self, num};
use clap::Subcommand;
use netwrap_model::kary_ncube::ContentionForm;

/// The models netwrap carries.
#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Contention model of a buffered k-ary n-cube (Agarwal 1991 eqs. 1–12; the homework's App. B).
    KaryNcube(kary_ncube::KaryNCubeArgs),
    /// Buffered indirect (Omega) network (Agarwal 1991 eqs. 13–14; the homework's App. C).
    Indirect(indirect::IndirectArgs),
    /// Processor utilisation with network feedback (the homework's App. D; `--threads` for T
    /// threads per processor, after Agarwal 1992).
    Feedback(feedback::FeedbackArgs),
    /// Wormhole butterfly fat-tree (Greenberg & Guan).
    FatTree(fat_tree::FatTreeArgs),
    /// Any network `netwrap sim` takes, with the ideal switch: a queue on every channel, fed by
    /// the exact flows of its routing and pattern (Agarwal 1991 eqs. 3-8 generalised).
    Network(Box<network::NetworkModelArgs>),
}

/// Runs one model command.
pub fn run(command: ModelCommand) -> anyhow::Result<()> {
    match command {
        ModelCommand::KaryNcube(a) => kary_ncube::run(a),
        ModelCommand::Indirect(a) => indirect::run(a),
        ModelCommand::Feedback(a) => feedback::run(a),
        ModelCommand::FatTree(a) => fat_tree::run(a),
        ModelCommand::Network(a) => network::run(*a),
    }
}

/// Shows what resolving the request adjusted, on standard error.
fn notes(notes: &[String]) {
    for note in notes {
        output::note(note);
    }
}

/// A result with `decimals` decimals when it is of ordinary size, in scientific notation
/// with at most `decimals` decimals otherwise: a tiny utilisation reads `3.5e-300`, not
/// `0.0000`, and a huge latency never prints hundreds of digits.
pub fn fixed(x: f64, decimals: usize) -> String {
    if x == 0.0 || (x.is_finite() && (1e-3..1e9).contains(&x.abs())) {
        format!("{x:.decimals$}")
    } else if x.is_finite() {
        let s = format!("{x:.decimals$e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.trim_end_matches('0').trim_end_matches('.')
        } else {
            mantissa
        };
        format!("{mantissa}e{exponent}")
    } else {
        num(x)
    }
}

/// [`fixed`] for an optional result, "—" for none.
pub fn opt_fixed(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "—".to_string(), |x| fixed(x, decimals))
}

/// One line saying which contention form was used and why: `auto`'s choice with the
/// distance that decided it, or the form forced with --contention.
fn form_line(asked: ContentionForm, used: ContentionForm, k_d: f64, locality: f64) -> String {
    let distance = if locality < 1.0 { "k_dl" } else { "k_d" };
    let formula = used.formula().unwrap_or_default();
    if asked == ContentionForm::Auto {
        let cmp = if used == ContentionForm::LargeKd { ">" } else { "<=" };
        format!("{used}, {formula} (auto: {distance} = {} {cmp} 2)", fixed(k_d, 4))
    } else {
        format!("{used}, {formula} (--contention {})", asked.name())
    }
}

/// The error returned after printing a saturated prediction.
fn saturated_error(what: &str, utilization: f64, max_rate: f64) -> anyhow::Error {
    output::saturated(format!(
        "{what} is saturated: utilization {} >= 1, so the queue is unstable and has no steady-state latency; \
         the highest sustainable rate is {} messages/node/cycle",
        fixed(utilization, 4),
        fixed(max_rate, 6)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characterisation of the result format.
    #[test]
    fn results_stay_short() {
        assert_eq!(fixed(0.56, 4), "0.5600");
        assert_eq!(fixed(3.5e-300, 4), "3.5e-300");
        assert_eq!(fixed(4e298, 4), "4e298");
        assert_eq!(fixed(1.9941348973607038e-300, 4), "1.9941e-300");
        assert_eq!(fixed(-2.5e12, 2), "-2.5e12");
        assert_eq!(fixed(f64::INFINITY, 4), "inf");
        assert_eq!(fixed(0.0, 4), "0.0000");
        assert_eq!(opt_fixed(None, 4), "—");
    }
}

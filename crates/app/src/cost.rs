//! [`cost`]: the packaging cost of inter-module networks (Raghunath & Ranade, Tables I and
//! II): pin count, bundles per module and total bundles of each network for a number of
//! modules and a bisection width, as `netwrap cost --json` prints it.

use crate::error::Result;
use netwrap_model::request::CostRequest;
use netwrap_sim::VERSION;
use netwrap_topo::cost::{CostRow, InterModule};
use serde::Serialize;

/// The networks' packaging costs.
#[derive(Clone, Debug, Serialize)]
pub struct CostReport {
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// No random stream is drawn: always absent.
    pub seed: Option<u64>,
    /// The request.
    pub config: CostRequest,
    /// One row per network that exists for these modules: Table II's, then the n-hop
    /// networks and toroids asked for.
    pub rows: Vec<CostRow>,
    /// The networks that do not exist for these modules (a hypercube needs M = 2^d), each
    /// with why.
    pub skipped: Vec<String>,
}

/// The costs of Table II's networks and of the n-hop networks and toroids `r` adds.
pub fn cost(r: &CostRequest) -> Result<CostReport> {
    r.check()?;
    let mut wanted: Vec<InterModule> = InterModule::TABLE_II.to_vec();
    wanted.extend(r.nhop.iter().map(|&n| InterModule::NHop(n)));
    wanted.extend(r.toroid.iter().map(|&d| InterModule::Toroid(d)));
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for t in wanted {
        match netwrap_topo::cost::cost(t, r.modules, r.bisection) {
            Ok(row) => rows.push(row),
            // Some rows do not exist for every M: say why, keep going.
            Err(e) => skipped.push(format!("{}: {e}", t.label())),
        }
    }
    Ok(CostReport { netwrap_version: VERSION, seed: None, config: r.clone(), rows, skipped })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification against Raghunath & Ranade Table II (M = 32, B = 8192): the complete
    /// graph's 31 bundles per module; an n-hop network asked for is added after the table.
    #[test]
    fn table_ii_rows_and_added_networks() {
        let r = cost(&CostRequest { nhop: vec![4], ..CostRequest::default() }).unwrap();
        assert_eq!(r.rows[0].bundles_per_module, 31);
        assert_eq!(r.rows.len() + r.skipped.len(), 10);
        assert!(
            r.rows.last().unwrap().topology.starts_with("4-hop")
                || r.skipped.last().unwrap().starts_with("4-hop")
        );
    }
}

//! The command-line pieces shared by the commands that simulate: the spec's sections as flags
//! (each flag one field of the spec: the sections derive their own flags, so a field is named
//! once), and the model comparison's.

use clap::Args;
use netwrap_app::{ModelSpec, Spec};
use netwrap_model::kary_ncube::ContentionForm;
use netwrap_sim::{RouterSpec, RunControl, SimSpec, WorkloadSpec};
use netwrap_topo::cli::choice;
use netwrap_topo::{RoutingSpec, TopologySpec};

/// The spec's routing, router, workload, run and model sections as flags; absent flags leave
/// their keys out (the defaults apply).
#[derive(Debug, Clone, Args)]
pub struct SpecArgs {
    #[command(flatten)]
    pub routing: RoutingSpec,
    #[command(flatten)]
    pub router: RouterSpec,
    #[command(flatten)]
    pub workload: WorkloadSpec,
    #[command(flatten)]
    pub run: RunControl,
    /// Compare with the analytical model of the network [spec: a `model` section]: k-ary
    /// n-cubes (Agarwal 1991 eq. 10), butterfly and Omega networks (Agarwal 1991 eqs. 13-14),
    /// butterfly fat-trees with --router vc --switching wormhole (Greenberg & Guan eqs. 1-26).
    #[arg(long, global = true, help_heading = "Model")]
    pub model: bool,
    /// With --model on a k-ary n-cube: the contention form [spec: model.contention] (default:
    /// auto, the homework's App. B rule, eq. 8's form when k_d > 2, the small-k_d form otherwise).
    #[arg(long, value_parser = choice::<ContentionForm>(), global = true, requires = "model", help_heading = "Model")]
    pub contention: Option<ContentionForm>,
}

impl SpecArgs {
    /// The spec of `topology` with these sections.
    pub fn spec(&self, topology: TopologySpec) -> Spec {
        Spec {
            sim: SimSpec {
                topology,
                routing: self.routing.clone(),
                router: self.router.clone(),
                workload: self.workload.clone(),
                run: self.run.clone(),
            },
            model: self.model.then(|| ModelSpec { contention: self.contention.unwrap_or_default() }),
        }
    }

    /// Whether any section's flag was given (a command that reads a spec file takes either).
    pub fn any(&self) -> bool {
        self.spec(TopologySpec::default()) != Spec::default()
    }
}

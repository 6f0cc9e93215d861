//! The command-line pieces shared by the commands that simulate: the spec's sections as flags
//! (each flag one field of the spec: the sections derive their own flags, so a field is named
//! once), and the model comparison's.

use anyhow::bail;
use clap::Args;
use netwrap_app::{ModelSpec, Spec};
use netwrap_model::kary_ncube::ContentionForm;
use netwrap_sim::{RouterSpec, RunControl, SimSpec, WorkloadSpec};
use netwrap_topo::cli::{choice, count, small_count};
use netwrap_topo::{RoutingSpec, TopologySpec};

/// A whole spec from flags, as `netwrap sim` and `netwrap check` take it: the homework's
/// default torus shaped by its own flags, or a FAMILY subcommand with its options; and the
/// spec's other sections.
#[derive(Debug, Clone, Args)]
pub struct NetworkArgs {
    /// Radix k of the default torus (default 8) [spec: topology.k].
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, help_heading = "Default torus")]
    pub k: Option<u32>,
    /// Dimensions n of the default torus (default 2) [spec: topology.n].
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes", help_heading = "Default torus")]
    pub n: Option<u32>,
    /// Processors N instead of n, rounded up to a whole dimension [spec: topology.nodes].
    #[arg(long, value_parser = count::<1>, allow_negative_numbers = true, help_heading = "Default torus")]
    pub nodes: Option<u64>,
    /// Channels in both directions [spec: topology.bidirectional].
    #[arg(long, help_heading = "Default torus")]
    pub bidirectional: bool,
    /// No end-around links: the mesh family [spec: topology.family = "mesh"].
    #[arg(long, help_heading = "Default torus")]
    pub no_wrap: bool,
    /// Another topology family instead of the torus: any family of `netwrap topo`.
    #[command(subcommand)]
    pub family: Option<TopologySpec>,
    /// The router, routing, workload and run flags.
    #[command(flatten)]
    pub spec: SpecArgs,
}

impl NetworkArgs {
    /// The spec these options describe.
    pub fn spec(&self) -> anyhow::Result<Spec> {
        let topology = match &self.family {
            Some(f) => {
                let given: Vec<&str> = [
                    ("--k", self.k.is_some()),
                    ("--n", self.n.is_some()),
                    ("--nodes", self.nodes.is_some()),
                    ("--bidirectional", self.bidirectional),
                    ("--no-wrap", self.no_wrap),
                ]
                .iter()
                .filter(|(_, on)| *on)
                .map(|(name, _)| *name)
                .collect();
                if let Some(first) = given.first() {
                    let family = f.family();
                    bail!(
                        "{first} before `{family}` shapes the default torus, which `{family}` replaces: give {family}'s own options after its name, e.g. `netwrap sim {family} --help`"
                    );
                }
                f.clone()
            }
            None if self.no_wrap => TopologySpec::Mesh {
                k: self.k,
                n: self.n,
                nodes: self.nodes,
                radices: None,
                concentration: None,
            },
            None => TopologySpec::Torus {
                k: self.k,
                n: self.n,
                nodes: self.nodes,
                radices: None,
                bidirectional: self.bidirectional,
                concentration: None,
            },
        };
        Ok(self.spec.spec(topology))
    }

    /// Whether any flag was given (a command that reads a spec file takes either).
    pub fn any(&self) -> bool {
        let torus = self.k.is_some() || self.n.is_some() || self.nodes.is_some();
        torus || self.bidirectional || self.no_wrap || self.family.is_some() || self.spec.any()
    }
}

/// The spec's routing, router, workload, run and model sections as flags; absent flags leave
/// their keys out (the defaults apply).
#[derive(Debug, Clone, Args)]
pub struct SpecArgs {
    /// `--routing` and its options.
    #[command(flatten)]
    pub routing: RoutingSpec,
    /// The router's flags (`--router`, `--vcs`, `--buffer`, …).
    #[command(flatten)]
    pub router: RouterSpec,
    /// The workload's flags (`--workload`, `--rate`, …).
    #[command(flatten)]
    pub workload: WorkloadSpec,
    /// The run's flags (`--cycles`, `--seed`, …).
    #[command(flatten)]
    pub run: RunControl,
    /// Compare with the analytical model of the network [spec: a `model` section]: the
    /// papers' where they apply (uniform traffic, minimal routes): k-ary n-cubes (Agarwal 1991
    /// eq. 10), butterfly and Omega networks (Agarwal 1991 eqs. 13-14), butterfly fat-trees
    /// with --router vc --switching wormhole (Greenberg & Guan eqs. 1-26); any other network
    /// and pattern with the ideal switch: a queue on every channel (`netwrap model network`,
    /// Agarwal 1991 eqs. 3-8 generalised).
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

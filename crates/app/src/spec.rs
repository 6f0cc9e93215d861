//! [`Spec`]: a simulation as its user writes it (the sections of a [`SimSpec`]) with the
//! analytical model to compare it with (the `model` section), and [`Job`]: a spec checked
//! once, ready to run.

use crate::compare::{Chosen, model_for};
use crate::error::{Result, spec_error};
use netwrap_model::kary_ncube::ContentionForm;
use netwrap_sim::{Resolved, RouterSpec, RunControl, SimSpec, Source, WorkloadSpec};
use netwrap_topo::{RoutingSpec, TopologySpec};
use serde::{Deserialize, Serialize};

/// A simulation as its user writes it: flags, a TOML experiment file, a result's JSON or a
/// Python dict, with the same keys.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Spec {
    /// The simulation's sections: `topology`, `routing`, `router`, `workload`, `run`.
    #[serde(flatten)]
    pub sim: SimSpec,
    /// Compare with an analytical model (`--model`): present means compare.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelSpec>,
}

/// The `model` section: compare the simulation with the analytical model of its network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct ModelSpec {
    /// Contention form of the k-ary n-cube model (`--contention`): `auto` is the homework's
    /// App. B rule (eq. 8's form when the distance per dimension exceeds 2, the small-k_d form
    /// otherwise), as `netwrap model kary-ncube` applies it.
    pub contention: ContentionForm,
}

/// The sections as read: serde's `flatten` cannot refuse unknown keys, so a spec is read
/// through this and split. An experiment file has a `sweep` table too; a spec does not.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Sections {
    #[serde(default)]
    topology: TopologySpec,
    #[serde(default)]
    routing: RoutingSpec,
    #[serde(default)]
    router: RouterSpec,
    #[serde(default)]
    workload: WorkloadSpec,
    #[serde(default)]
    run: RunControl,
    #[serde(default)]
    model: Option<ModelSpec>,
    #[serde(default)]
    sweep: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The keys of a spec, for serde's "expected one of".
const SECTIONS: &[&str] = &["topology", "routing", "router", "workload", "run", "model"];

impl Sections {
    fn split(self) -> (Spec, Option<serde_json::Map<String, serde_json::Value>>) {
        let sim = SimSpec {
            topology: self.topology,
            routing: self.routing,
            router: self.router,
            workload: self.workload,
            run: self.run,
        };
        (Spec { sim, model: self.model }, self.sweep)
    }
}

impl<'de> Deserialize<'de> for Spec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Sections::deserialize(d)?.split() {
            (spec, None) => Ok(spec),
            (_, Some(_)) => Err(serde::de::Error::unknown_field("sweep", SECTIONS)),
        }
    }
}

/// An experiment file as read: a spec and its `sweep` table, if any.
pub(crate) struct FileParts(pub Spec, pub Option<serde_json::Map<String, serde_json::Value>>);

impl<'de> Deserialize<'de> for FileParts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (spec, sweep) = Sections::deserialize(d)?.split();
        Ok(FileParts(spec, sweep))
    }
}

/// A spec checked once: the simulation resolved, and the model to compare with (checked to
/// apply).
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The simulation.
    pub sim: Resolved,
    /// The model comparison asked for.
    pub model: Option<ModelSpec>,
    /// The model was not asked for but added where it applies (a sweep drawn with `--plot`,
    /// [`crate::Sweep::with_model_where_it_applies`]): what only the built network tells
    /// against it (a routing that chooses by queue state, no channels to queue on) drops it
    /// instead of failing the run.
    pub optional_model: bool,
}

impl Spec {
    /// Checks every value (see [`SimSpec::resolve`]) and the model section.
    pub fn resolve(&self) -> Result<Job> {
        let sim = self.sim.resolve()?;
        if let Some(m) = &self.model {
            if let Source::Trace(t) = &sim.workload.source {
                let path = &t.path;
                return Err(spec_error(
                    "model",
                    &["workload.trace"],
                    format!(
                        "model: the analytical models predict a rate and a destination pattern, and workload.trace = {} replays a trace's own messages",
                        path.display()
                    ),
                ));
            }
            if let Source::Collective(c) = &sim.workload.source {
                return Err(spec_error(
                    "model",
                    &["workload.collective.kind"],
                    format!(
                        "model: the analytical models predict a rate and a destination pattern, and workload.collective.kind = {} sends its own messages",
                        c.kind.name()
                    ),
                ));
            }
            let chosen = model_for(&sim)?;
            if m.contention != ContentionForm::Auto && chosen != Chosen::KaryNCube {
                return Err(spec_error(
                    "model.contention",
                    &[],
                    format!(
                        "model.contention chooses the contention form of the k-ary n-cube model: this {} is compared with {}",
                        sim.topology.family(),
                        if chosen == Chosen::Network {
                            "the per-channel model (`netwrap model network`)"
                        } else {
                            "another model"
                        }
                    ),
                ));
            }
        }
        Ok(Job { sim, model: self.model, optional_model: false })
    }
}

impl Job {
    /// The spec with every key written (see [`Resolved::written`]).
    pub fn written(&self) -> Spec {
        Spec { sim: self.sim.written(), model: self.model }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unknown keys are refused at the top and in every section, with serde's list of the
    /// expected ones.
    #[test]
    fn unknown_keys_are_refused() {
        let e = serde_json::from_str::<Spec>(r#"{"modle": {}}"#).unwrap_err().to_string();
        assert!(e.contains("unknown field `modle`") && e.contains("`model`"), "{e}");
        assert!(serde_json::from_str::<Spec>(r#"{"model": {"form": "auto"}}"#).is_err());
        let s: Spec = serde_json::from_str(r#"{"model": {}, "workload": {"rate": 0.01}}"#).unwrap();
        assert_eq!(s.model, Some(ModelSpec::default()));
        assert_eq!(s.sim.workload.rate, Some(0.01));
    }
}

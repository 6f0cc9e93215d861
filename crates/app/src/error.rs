//! [`Error`]: why the facade could not answer, with the field at fault where a spec's value
//! is the cause ([`SpecError`]).

use netwrap_model::ModelError;
use netwrap_sim::{SimError, SpecError};
use netwrap_topo::TopoError;

/// Why a call could not be answered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A spec's value is invalid: the error names its field by its path in the spec.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The topology could not be built (too large, parameters that do not make one).
    #[error(transparent)]
    Topology(#[from] TopoError),
    /// A model's parameter is outside its domain.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// Anything else, in words (a file that cannot be read, a trace's error with its line).
    #[error("{0}")]
    Invalid(String),
    /// The caller cancelled the run.
    #[error("cancelled")]
    Cancelled,
}

impl From<SimError> for Error {
    fn from(e: SimError) -> Self {
        match e {
            SimError::Spec(e) => Error::Spec(e),
            SimError::Topology(e) => Error::Topology(e),
            SimError::Invalid(e) => Error::Invalid(e),
            SimError::Cancelled => Error::Cancelled,
        }
    }
}

impl Error {
    /// The spec error, if this is one.
    pub fn spec(&self) -> Option<&SpecError> {
        match self {
            Error::Spec(e) => Some(e),
            _ => None,
        }
    }
}

/// An error about `path` (and the fields `also`) saying `message`.
pub(crate) fn spec_error(path: &str, also: &[&str], message: impl Into<String>) -> Error {
    Error::Spec(SpecError::new(path, also, message))
}

/// The facade's results.
pub type Result<T, E = Error> = std::result::Result<T, E>;

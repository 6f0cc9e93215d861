use thiserror::Error;

/// Why a topology could not be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TopoError {
    /// A parameter is outside the range the family supports; the message says which sizes are valid.
    #[error("{0}")]
    Invalid(String),
    /// The network would be larger than netwrap's 32-bit ids can index.
    #[error("network too large: {0}")]
    TooLarge(String),
}

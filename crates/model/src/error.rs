use thiserror::Error;

/// Why a model could not be evaluated.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ModelError {
    /// A parameter is outside the model's domain; the message names it and the valid range.
    #[error("{0}")]
    Invalid(String),
}

/// Checks that `value` is a finite number inside `[lo, hi]`, naming `what` otherwise.
pub(crate) fn check_range(what: &str, value: f64, lo: f64, hi: f64) -> Result<(), ModelError> {
    if value.is_finite() && value >= lo && value <= hi {
        Ok(())
    } else {
        Err(ModelError::Invalid(format!("{what} = {value} is outside the valid range [{lo}, {hi}]")))
    }
}

use thiserror::Error;

/// Why a model could not be evaluated.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ModelError {
    /// A parameter is outside the model's domain; the message names it and what it takes,
    /// in words.
    #[error("{0}")]
    Invalid(String),
    /// One option of a request ([`crate::request`]) is invalid, or takes the model beyond its
    /// range: `key` is the option's name in the request (the command line's option without
    /// `--`, Python's keyword with `_` for `-`), and the message names it as the command line
    /// spells it.
    #[error("{message}")]
    Request {
        /// The option at fault.
        key: String,
        /// Why, in words.
        message: String,
    },
}

impl ModelError {
    /// An error about the request's option `key`.
    pub fn request(key: impl Into<String>, message: impl Into<String>) -> Self {
        ModelError::Request { key: key.into(), message: message.into() }
    }

    /// The request's option at fault, if the error is about one.
    pub fn key(&self) -> Option<&str> {
        match self {
            ModelError::Request { key, .. } => Some(key),
            ModelError::Invalid(_) => None,
        }
    }
}

/// What a real parameter may take, in words a message can print: never the numeric limits
/// of `f64`, which would read as hundreds of digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Domain {
    /// [0, 1].
    Probability,
    /// (0, 1].
    Fraction,
    /// (0, ∞), finite.
    Positive,
    /// [0, ∞), finite.
    NonNegative,
}

impl Domain {
    fn contains(self, x: f64) -> bool {
        x.is_finite()
            && match self {
                Domain::Probability => (0.0..=1.0).contains(&x),
                Domain::Fraction => x > 0.0 && x <= 1.0,
                Domain::Positive => x > 0.0,
                Domain::NonNegative => x >= 0.0,
            }
    }

    fn words(self) -> &'static str {
        match self {
            Domain::Probability => "a probability in [0, 1]",
            Domain::Fraction => "a fraction in (0, 1]",
            Domain::Positive => "a positive finite number",
            Domain::NonNegative => "zero or a positive finite number",
        }
    }
}

/// Checks that `value` lies in `domain`, naming `what` and the domain otherwise.
pub(crate) fn check(what: &str, value: f64, domain: Domain) -> Result<(), ModelError> {
    if domain.contains(value) {
        Ok(())
    } else {
        Err(ModelError::Invalid(format!("{what} = {} is invalid: it must be {}", num(value), domain.words())))
    }
}

/// Checks that `value` is a finite number inside `[lo, hi]`, naming `what` otherwise.
pub(crate) fn check_range(what: &str, value: f64, lo: f64, hi: f64) -> Result<(), ModelError> {
    if value.is_finite() && value >= lo && value <= hi {
        Ok(())
    } else {
        Err(ModelError::Invalid(format!(
            "{what} = {} is invalid: it must be a number from {} to {}",
            num(value),
            num(lo),
            num(hi)
        )))
    }
}

/// Checks that every result of a model is a finite number: inputs that are each valid can
/// still combine beyond `f64` (a message of 10^300 flits), and such a result is refused
/// rather than printed as `inf` or `NaN`.
pub(crate) fn check_finite(values: &[f64]) -> Result<(), ModelError> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(ModelError::Invalid(
            "these parameters take the result beyond the range of floating point: use a shorter message or a smaller network".into(),
        ))
    }
}

/// A number as a message shows it: ordinary sizes as the shortest exact decimal, extreme
/// ones in scientific notation (`1e-300`, not three hundred zeros). The binary formats its
/// output the same way.
pub(crate) fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e9).contains(&a) { format!("{x}") } else { format!("{x:e}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characterisation: messages name the domain in words and keep extreme values short.
    #[test]
    fn messages_are_short_and_in_words() {
        let e = check("rate", f64::NAN, Domain::Probability).unwrap_err().to_string();
        assert_eq!(e, "rate = NaN is invalid: it must be a probability in [0, 1]");
        let e = check("size", 1e300, Domain::Fraction).unwrap_err().to_string();
        assert!(e.contains("1e300") && e.len() < 80, "{e}");
        let e = check_range("bits", 0.5, 1.0, 1e12).unwrap_err().to_string();
        assert!(e.ends_with("from 1 to 1e12"), "{e}");
        assert!(check("x", 0.0, Domain::Positive).is_err() && check("x", 0.0, Domain::NonNegative).is_ok());
        assert!(check("x", f64::INFINITY, Domain::NonNegative).is_err());
        assert!(check_finite(&[1.0, f64::INFINITY]).is_err());
    }
}

//! The facade's errors as Python exceptions: a value at fault in a spec or a request is
//! `netwrap.SpecError` (a `ValueError`) with its `path`, the fields it is also about, and the
//! reason; anything else a `ValueError` with the message; a cancelled run `KeyboardInterrupt`
//! (raised by the caller that cancelled it).

use netwrap_app::Error;
use netwrap_model::ModelError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    netwrap,
    SpecError,
    PyValueError,
    "A value of a spec or of a request that cannot be: `path` is its field (`router.buffer`, or a model's keyword such as `switch_delay`), `also` the other fields the message is about, `reason` why, in words; str() is the whole message."
);

/// A `SpecError` about `path` (and `also`), saying `message` (the whole text) for `reason`.
pub fn spec_error(py: Python<'_>, message: String, path: &str, also: Vec<String>, reason: &str) -> PyErr {
    let e = SpecError::new_err(message);
    let value = e.value(py);
    let set = value
        .setattr("path", path)
        .and_then(|_| value.setattr("also", also))
        .and_then(|_| value.setattr("reason", reason));
    match set {
        Ok(()) => e,
        Err(other) => other,
    }
}

/// A request's key as Python's keyword: `switch-delay` is `switch_delay`.
pub fn keyword(key: &str) -> String {
    key.replace('-', "_")
}

/// A message's command-line options as keywords: `--switch-delay` is `switch_delay` (a
/// Python user writes no flags).
fn flags_as_keywords(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("--") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(after.len());
        if len > 0 && after.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str(&keyword(&after[..len]));
        } else {
            out.push_str("--");
            out.push_str(&after[..len]);
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

/// A request's message as Python says it: the keys it names (a leading `key: ` or `key = `,
/// every key in backquotes, and the command line's options, `--switch-delay`) as keywords,
/// and an unknown key an unknown keyword.
fn keywords_in(message: &str) -> String {
    let message = &flags_as_keywords(message);
    let is_key = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    let message = message.replacen("unknown field `", "unknown keyword `", 1);
    let mut out = String::with_capacity(message.len());
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 && is_key(part) {
            out.push_str(&keyword(part));
        } else {
            out.push_str(part);
        }
    }
    // A value's type or range names its key first, as the request spells it.
    match out.split_once([':', ' ']) {
        Some((head, _)) if is_key(head) && head.contains('-') => out.replacen(head, &keyword(head), 1),
        _ => out,
    }
}

/// The Python exception for a facade error.
pub fn to_py(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::Spec(s) => {
            let text = s.to_string();
            spec_error(py, text, &s.path, s.also.clone(), &s.message)
        }
        Error::Model(ModelError::Request { key, message }) => {
            let path = keyword(&key);
            let message = keywords_in(&message);
            spec_error(py, message.clone(), &path, Vec::new(), &message)
        }
        Error::Cancelled => PyKeyboardInterrupt::new_err("cancelled"),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// A result of the facade as a Python result.
pub trait Raise<T> {
    /// The value, or the Python exception of the error.
    fn raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> Raise<T> for Result<T, Error> {
    fn raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, e))
    }
}

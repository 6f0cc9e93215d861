use thiserror::Error;

/// Why a topology could not be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TopoError {
    /// A parameter is outside the range the family supports; the message says which sizes are valid.
    #[error("{0}")]
    Invalid(String),
    /// A key's value is outside the range the family supports: the key as the topology
    /// section names it (`k`), so that a spec's error can point at it, and why (the message
    /// starts with the key and its value: `k = 1 is invalid: …`).
    #[error("{message}")]
    Key {
        /// The key, e.g. `k`.
        key: &'static str,
        /// What is wrong, in words.
        message: String,
    },
    /// The network (or a table for it) would exceed one of netwrap's size limits
    /// ([`crate::MAX_TERMINALS`], [`crate::MAX_ROUTERS`], [`crate::MAX_CHANNELS`],
    /// [`crate::TABLE_LIMIT`]). Builders check this from their parameters, before allocating
    /// anything, so an impossible size is refused at once instead of exhausting memory.
    #[error(
        "network too large: {what} would have {} {quantity}; netwrap allows at most {} ({why})",
        count_text(*.count),
        limit_text(*.limit)
    )]
    TooLarge {
        /// What was asked for, e.g. `the 1000-ary 3-cube (torus, unidirectional)`.
        what: String,
        /// Which count is over its limit: `terminals`, `routers`, `directed channels`, …
        quantity: &'static str,
        /// The count the parameters imply; `None` when it does not even fit in 64 bits.
        count: Option<u64>,
        /// The limit it exceeds.
        limit: u64,
        /// Why the limit is where it is.
        why: &'static str,
    },
}

fn count_text(count: Option<u64>) -> String {
    count.map_or_else(|| "more than 2^64".to_string(), |c| c.to_string())
}

fn limit_text(limit: u64) -> String {
    if limit.is_power_of_two() {
        format!("{limit} = 2^{}", limit.trailing_zeros())
    } else {
        limit.to_string()
    }
}

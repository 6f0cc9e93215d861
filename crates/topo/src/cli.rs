//! Value parsers of the command line's options, shared by every crate whose spec sections
//! are flags (the `cli` feature): numbers whose errors say what the option takes, and
//! [`choice`] for every named value.
//!
//! Every numeric option takes any token — negative numbers, `nan`, `inf` included (the
//! options set `allow_negative_numbers` or `allow_hyphen_values`, and the command line joins
//! `--option -inf` into `--option=-inf`, so a negative value reaches the parser instead of
//! clap's "unexpected argument") — and refuses what it cannot take with a message that says,
//! in words, what it takes. Clap names the option and exits with status 2:
//! `invalid value '-1' for '--rate <RATE>': must be a probability in [0, 1]`.

/// A real number, or a message naming what was expected.
fn real(s: &str, takes: &str) -> Result<f64, String> {
    s.trim().parse::<f64>().map_err(|_| format!("not a number: must be {takes}"))
}

fn real_in(s: &str, takes: &str, ok: impl Fn(f64) -> bool) -> Result<f64, String> {
    let x = real(s, takes)?;
    if x.is_finite() && ok(x) { Ok(x) } else { Err(format!("must be {takes}")) }
}

/// Any number; its range is checked where the quantity is (with that quantity's message).
pub fn number(s: &str) -> Result<f64, String> {
    real(s, "a number, such as 0.04 or 1e-3")
}

/// A request rate of the simulator: a probability in (0, 1] (a source that never sends
/// would never deliver its measured messages).
pub fn rate(s: &str) -> Result<f64, String> {
    real_in(s, "a probability in (0, 1]", |x| x > 0.0 && x <= 1.0)
}

/// A probability in [0, 1] (a request rate).
pub fn probability(s: &str) -> Result<f64, String> {
    real_in(s, "a probability in [0, 1]", |x| (0.0..=1.0).contains(&x))
}

/// A fraction in (0, 1] (a locality fraction).
pub fn fraction(s: &str) -> Result<f64, String> {
    real_in(s, "a fraction in (0, 1]", |x| x > 0.0 && x <= 1.0)
}

/// A positive finite number (a length in bits or flits, a width, a pin count).
pub fn positive(s: &str) -> Result<f64, String> {
    real_in(s, "a positive finite number", |x| x > 0.0)
}

/// Zero or a positive finite number (a delay).
pub fn non_negative(s: &str) -> Result<f64, String> {
    real_in(s, "zero or a positive finite number", |x| x >= 0.0)
}

/// A worm length in flits, from 1 to 10^9 (the fat-tree model's range).
pub fn worm_flits(s: &str) -> Result<f64, String> {
    real_in(s, "a worm length from 1 to 1e9 flits", |x| (1.0..=1e9).contains(&x))
}

/// A whole number of at least `MIN`, as a `u64`.
pub fn count<const MIN: u64>(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(v) if v >= MIN => Ok(v),
        Ok(_) => Err(format!("must be a whole number of at least {MIN}")),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("must be a whole number from {MIN} to {}", u64::MAX))
        }
        Err(_) => Err(format!("must be a whole number of at least {MIN}")),
    }
}

/// A whole number of at least `MIN` that fits a `u32`.
pub fn small_count<const MIN: u64>(s: &str) -> Result<u32, String> {
    let v = count::<MIN>(s)?;
    u32::try_from(v).map_err(|_| format!("must be a whole number from {MIN} to {}", u32::MAX))
}

/// The value parser of every choice among netwrap's named values (an enum whose variants and
/// their documentation strum lists, spelt as in a spec file): clap shows each possible value
/// with its documentation, as it does for its own value enums, and suggests the closest one
/// to a misspelt value.
pub fn choice<T>() -> impl clap::builder::TypedValueParser<Value = T>
where
    T: strum::VariantArray + strum::EnumMessage + Into<&'static str> + Copy + Send + Sync + 'static,
{
    let values = T::VARIANTS.iter().map(|&v| {
        let name: &'static str = v.into();
        let help = v.get_documentation().map(help_text).unwrap_or_default();
        clap::builder::PossibleValue::new(name).help(help)
    });
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(values).map(|name: String| {
        T::VARIANTS.iter().copied().find(|&v| v.into() == name).expect("clap took one of the possible values")
    })
}

/// `--routing`'s parser: [`choice`] over [`crate::RoutingAlgorithm`], with `min` accepted for
/// `family` (the families' own routing is minimal; the dragonfly literature's name for it).
pub fn routing_choice() -> impl clap::builder::TypedValueParser<Value = crate::RoutingAlgorithm> {
    use crate::RoutingAlgorithm;
    use strum::{EnumMessage, VariantArray};
    let values = RoutingAlgorithm::VARIANTS.iter().map(|&v| {
        let name: &'static str = v.into();
        let help = v.get_documentation().map(help_text).unwrap_or_default();
        let value = clap::builder::PossibleValue::new(name).help(help);
        if v == RoutingAlgorithm::Family { value.alias("min") } else { value }
    });
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(values).map(|name: String| {
        let name = if name == "min" { "family" } else { name.as_str() };
        RoutingAlgorithm::VARIANTS
            .iter()
            .copied()
            .find(|&v| v.name() == name)
            .expect("clap took one of the possible values")
    })
}

/// A doc comment as one line of help: its lines joined, its final full stop dropped (as clap's
/// derive shows documentation).
fn help_text(doc: &str) -> String {
    let text = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    text.strip_suffix('.').map_or(text.clone(), str::to_string)
}

/// A whole number of at least 0 that fits a `usize` (a count of candidates or rows).
pub fn whole(s: &str) -> Result<usize, String> {
    let v = count::<0>(s)?;
    usize::try_from(v).map_err(|_| format!("must be a whole number from 0 to {}", usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characterisation: each parser's answer for the extremes the reliability issue lists.
    #[test]
    fn extremes_are_refused_in_words() {
        for s in ["nan", "inf", "-inf", "-1", "2", "1.0000001", "abc", ""] {
            let e = probability(s).unwrap_err();
            assert!(e.contains("probability in [0, 1]"), "{s}: {e}");
        }
        assert_eq!(probability("0"), Ok(0.0));
        assert_eq!(probability("1e-300"), Ok(1e-300));
        assert!(fraction("0").is_err() && fraction("1") == Ok(1.0));
        assert!(positive("0").is_err() && positive("1e300") == Ok(1e300) && positive("1e309").is_err());
        assert!(non_negative("-0.0").is_ok() && non_negative("-1e-300").is_err());
        assert!(worm_flits("0.5").is_err() && worm_flits("32") == Ok(32.0));
        assert_eq!(small_count::<2>("1").unwrap_err(), "must be a whole number of at least 2");
        assert_eq!(small_count::<2>("-1").unwrap_err(), "must be a whole number of at least 2");
        assert_eq!(
            small_count::<1>("4294967296").unwrap_err(),
            "must be a whole number from 1 to 4294967295"
        );
        assert_eq!(small_count::<1>("4294967295"), Ok(u32::MAX));
        assert_eq!(count::<1>("18446744073709551615"), Ok(u64::MAX));
        assert!(count::<1>("18446744073709551616").unwrap_err().contains("18446744073709551615"));
        assert!(count::<1>("1.5").is_err());
    }
}

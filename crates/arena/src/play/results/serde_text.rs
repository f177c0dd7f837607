//! The serde forms manifests use: values kept as their text, the SPRT model by name.

use crate::stats::SprtModel;

/// A value kept in manifests as its text (`Display` out, `FromStr` in): seeds (TOML integers
/// are signed 64-bit), rule sets.
pub mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    /// Writes `value` as its text.
    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Reads a value from its text.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// The SPRT model as manifests write it: `normalized` or `logistic`.
pub(super) mod model_text {
    use crate::stats::SprtModel;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(model: &SprtModel, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::model_name(*model))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SprtModel, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_model(&text).map_err(serde::de::Error::custom)
    }
}

/// `normalized` or `logistic`.
pub fn model_name(model: SprtModel) -> &'static str {
    match model {
        SprtModel::Normalized => "normalized",
        SprtModel::Logistic => "logistic",
    }
}

/// Reads `normalized` (or `normalised`) or `logistic`.
pub fn parse_model(text: &str) -> Result<SprtModel, String> {
    match text {
        "normalized" | "normalised" => Ok(SprtModel::Normalized),
        "logistic" => Ok(SprtModel::Logistic),
        other => Err(format!(
            "unknown model '{other}' (expected normalized or logistic)"
        )),
    }
}

//! The revision a whole message names in `params._meta`, found without building the message:
//! what the HTTP layer reads of a body that the quick read (`quick`) does not take.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::revision::PROTOCOL_VERSION_KEY;

/// The revision a whole message names in `params._meta`, whatever its value, read without
/// building the message. rmcp serves any request that names one under the stateless rules,
/// whose HTTP statuses follow the JSON-RPC error (-32601 is a 404).
pub(crate) fn named_revision(bytes: &[u8]) -> Option<String> {
    let find = Find {
        first: "params",
        rest: &["_meta", PROTOCOL_VERSION_KEY],
    };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    de::Deserializer::deserialize_map(&mut deserializer, find)
        .ok()
        .flatten()
}

/// Which of its names a member name is, if any: read in place, never copied.
struct NameIn<'n>(&'n [&'n str]);

impl<'de> DeserializeSeed<'de> for NameIn<'_> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for NameIn<'_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|known| *known == name))
    }
}

/// Looks in an object for member `first`, then down `rest`, one member name per level.
struct Find<'p> {
    first: &'p str,
    rest: &'p [&'p str],
}

impl<'de> Visitor<'de> for Find<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key_seed(NameIn(std::slice::from_ref(&self.first)))? {
            if key.is_some() && found.is_none() {
                found = map.next_value_seed(Step(self.rest))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// The value at the rest of a path: a string at its end, an object on the way. Any other
/// value is skipped and found to be nothing.
struct Step<'p>(&'p [&'p str]);

impl<'de> de::DeserializeSeed<'de> for Step<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Step<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        match self.0.split_first() {
            Some((first, rest)) => Find { first, rest }.visit_map(map),
            None => {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(None)
            }
        }
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Option<String>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Option<String>, E> {
        Ok(self.0.is_empty().then(|| value.to_string()))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_revision_is_read_from_meta() {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":[1,{"a":2}],"_meta":{"other":{},"io.modelcontextprotocol/protocolVersion":"v999.0.0"}}}"#;
        assert_eq!(named_revision(body).as_deref(), Some("v999.0.0"));
        for body in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#[..],
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":5}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28""#,
            b"[1,2]",
        ] {
            assert_eq!(named_revision(body), None, "{}", String::from_utf8_lossy(body));
        }
    }
}

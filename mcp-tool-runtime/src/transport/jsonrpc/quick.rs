//! The quick read of an HTTP body: its envelope only, nothing built.
//!
//! rmcp's HTTP service parses every body itself, so reading it whole here as well (into a
//! `Value`, then into rmcp's message to learn whether rmcp could read it) doubled the work
//! of a call (BENCHMARKS.md, P8). Most bodies are plain requests: this reads the top-level
//! members once, skipping the rest without building it, and says whether the body is one of
//! those. Anything else (a notification, a response, an unusual id, non-object `arguments`,
//! a surrogate escape, a duplicate member) takes the full check (`classify`) instead, and
//! so does a body rmcp then fails to read (`transport/http/endpoint.rs`).

use std::fmt;

use rmcp::model::{NumberOrString, RequestId};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::revision::{PROTOCOL_VERSION_KEY, removed_method, served_stateless};
use crate::server::SUPPORTED_METHODS;

/// What the quick read learned of a plain request.
#[derive(Debug, PartialEq)]
pub(crate) struct QuickRequest {
    /// Its id.
    pub(crate) id: RequestId,
    /// Whether it is `initialize`.
    pub(crate) initialize: bool,
    /// Whether its `_meta` names a protocol revision, as requests of 2026-07-28 do.
    pub(crate) names_revision: bool,
}

/// The id and method of `bytes` when it is a plain request of a supported method: a JSON
/// object with `"jsonrpc": "2.0"`, a string or i64 `id`, a `method`, object `params` (if
/// any), for `tools/call`, object `arguments` (if any), and a method that the revision its
/// `_meta` names has (see `revision`). `None` sends it to the full check.
pub(crate) fn quick_request(bytes: &[u8]) -> Option<QuickRequest> {
    if may_hold_surrogate(bytes) {
        return None;
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let envelope = deserializer.deserialize_map(EnvelopeVisitor).ok()?;
    deserializer.end().ok()?;
    envelope.into_request()
}

/// Whether `bytes` has a `\uD…` escape: only the full check repairs lone surrogates, and
/// the skipping read does not look inside strings.
fn may_hold_surrogate(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\\', bytes).any(|at| {
        bytes.get(at + 1) == Some(&b'u') && matches!(bytes.get(at + 2), Some(b'd' | b'D'))
    })
}

/// The envelope's members as they stand in the body: borrowed, so reading them allocates
/// nothing (an escaped `jsonrpc` or `method` fails the quick read and takes the full check).
#[derive(Default)]
struct Envelope<'de> {
    version_ok: bool,
    id: Option<RequestId>,
    method: Option<&'de str>,
    params: Option<Params>,
}

impl Envelope<'_> {
    fn into_request(self) -> Option<QuickRequest> {
        let (true, Some(id), Some(method)) = (self.version_ok, self.id, self.method) else {
            return None;
        };
        if !SUPPORTED_METHODS.contains(&method) {
            return None;
        }
        let revision = self
            .params
            .as_ref()
            .and_then(|params| params.revision.as_deref());
        if revision.and_then(served_stateless).is_some() && removed_method(method) {
            return None;
        }
        let arguments_fit = self
            .params
            .as_ref()
            .is_none_or(|params| params.arguments_fit);
        if method == "tools/call" && !arguments_fit {
            return None;
        }
        Some(QuickRequest {
            id,
            initialize: method == "initialize",
            names_revision: revision.is_some(),
        })
    }
}

struct EnvelopeVisitor;

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Envelope<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC request")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope<'de>, A::Error> {
        let mut envelope = Envelope::default();
        let mut seen = [false; 4];
        while let Some(key) = map.next_key::<Key>()? {
            // A member given twice is read differently by different parsers.
            if let Some(slot) = key.slot()
                && std::mem::replace(&mut seen[slot], true)
            {
                return Err(de::Error::custom("duplicate member"));
            }
            match key {
                Key::Jsonrpc => envelope.version_ok = map.next_value::<&str>()? == "2.0",
                Key::Id => envelope.id = map.next_value::<Id>()?.0,
                Key::Method => envelope.method = Some(map.next_value()?),
                Key::Params => envelope.params = Some(map.next_value()?),
                Key::ResultOrError => return Err(de::Error::custom("a response")),
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(envelope)
    }
}

/// A top-level member name.
enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    ResultOrError,
    Other,
}

impl Key {
    fn slot(&self) -> Option<usize> {
        match self {
            Self::Jsonrpc => Some(0),
            Self::Id => Some(1),
            Self::Method => Some(2),
            Self::Params => Some(3),
            Self::ResultOrError | Self::Other => None,
        }
    }
}

impl<'de> de::Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const NAMES: &[&str] = &["jsonrpc", "id", "method", "params", "result", "error"];
        Ok(match NameIn(NAMES).deserialize(deserializer)? {
            Some(0) => Self::Jsonrpc,
            Some(1) => Self::Id,
            Some(2) => Self::Method,
            Some(3) => Self::Params,
            Some(_) => Self::ResultOrError,
            None => Self::Other,
        })
    }
}

/// Which of its names a member name is, if any: read in place, never copied, since a
/// body's every member name passes through here.
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

/// A request id rmcp holds as it was sent: a string, or an integer within i64.
struct Id(Option<RequestId>);

impl<'de> de::Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a request id")
            }
            fn visit_i64<E: de::Error>(self, id: i64) -> Result<Id, E> {
                Ok(Id(Some(NumberOrString::Number(id))))
            }
            fn visit_u64<E: de::Error>(self, id: u64) -> Result<Id, E> {
                Ok(Id(i64::try_from(id).ok().map(NumberOrString::Number)))
            }
            fn visit_str<E: de::Error>(self, id: &str) -> Result<Id, E> {
                Ok(Id(Some(NumberOrString::String(id.into()))))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Id, E> {
                Ok(Id(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Id, E> {
                Ok(Id(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Id, E> {
                Ok(Id(None))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}

/// What the quick read needs of `params`: that it is an object whose `arguments`, if any,
/// is an object too (rmcp types it so; `classify` moves any other value aside), and the
/// revision its `_meta` names.
struct Params {
    arguments_fit: bool,
    revision: Option<String>,
}

impl<'de> de::Deserialize<'de> for Params {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ParamsVisitor;
        impl<'de> Visitor<'de> for ParamsVisitor {
            type Value = Params;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
                let mut arguments_fit = true;
                let mut revision = None;
                while let Some(key) = map.next_key_seed(NameIn(&["arguments", "_meta"]))? {
                    match key {
                        Some(0) => arguments_fit = map.next_value::<ObjectOnly>()?.0,
                        Some(_) => revision = meta_revision(&mut map)?,
                        None => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(Params {
                    arguments_fit,
                    revision,
                })
            }
        }
        deserializer.deserialize_map(ParamsVisitor)
    }
}

/// Whether a value is an object, skipping its contents.
struct ObjectOnly(bool);

impl<'de> de::Deserialize<'de> for ObjectOnly {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor;
        impl<'de> Visitor<'de> for ObjectVisitor {
            type Value = ObjectOnly;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ObjectOnly, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(ObjectOnly(true))
            }
        }
        // Anything but an object fails the quick read, which then leaves it to `classify`.
        deserializer.deserialize_map(ObjectVisitor)
    }
}

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

/// The revision named in the `_meta` object that is `map`'s next value, for a reader that
/// is going through a request's `params` member by member.
fn meta_revision<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<String>, A::Error> {
    map.next_value_seed(Step(&[PROTOCOL_VERSION_KEY]))
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

    fn quick(body: &str) -> Option<QuickRequest> {
        quick_request(body.as_bytes())
    }

    #[test]
    fn plain_requests_are_read_quickly() {
        let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":"c"}]}}}"#;
        assert_eq!(
            quick(call),
            Some(QuickRequest {
                id: NumberOrString::Number(7),
                initialize: false,
                names_revision: false
            })
        );
        let init = r#"{"method":"initialize","params":{},"id":"a","jsonrpc":"2.0"}"#;
        assert_eq!(
            quick(init),
            Some(QuickRequest {
                id: NumberOrString::String("a".into()),
                initialize: true,
                names_revision: false
            })
        );
        let list = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"a":[1],"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(
            quick(list),
            Some(QuickRequest {
                id: NumberOrString::Number(3),
                initialize: false,
                names_revision: true
            })
        );
    }

    #[test]
    fn a_method_the_named_revision_removed_takes_the_full_check() {
        let body = |method: &str, revision: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{revision}"}}}}}}"#
            )
        };
        for method in ["initialize", "ping", "logging/setLevel"] {
            assert_eq!(quick(&body(method, "2026-07-28")), None, "{method}");
            let old = quick(&body(method, "2025-11-25")).expect("read quickly");
            assert!(old.names_revision, "{method}");
        }
        assert!(quick(&body("tools/list", "2026-07-28")).is_some());
    }

    #[test]
    fn anything_unusual_takes_the_full_check() {
        for body in [
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","result":{}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/unknown"}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":5}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[1]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\ud800"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"} trailing"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping""#,
        ] {
            assert_eq!(quick(body), None, "{body}");
        }
    }

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

//! Messages with an array or object over the [`InputLimits`], answered before they are
//! parsed (see `input::limits` for why).
//!
//! Both transports run [`screen`] on a raw message first (over HTTP, on a body the quick
//! read's tally does not clear: `jsonrpc::quick_request`). A `tools/call` whose arguments
//! hold the oversized value becomes a small `tools/call` of the same id and tool, with the
//! refusal handed to the server beside it ([`Handoff`](crate::server::Handoff)): the server
//! answers it with an `isError` result through the same path as any other call. Any other request is answered
//! here with -32602 (or -32600 when the value is outside `params`); a notification or a
//! response is dropped.

use std::fmt;

use rmcp::model::ErrorCode;
use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

use super::jsonrpc::{self, Inbound};
use crate::error::{ArgPath, LengthUnit, Violation};
use crate::input::{InputLimits, Measure, Oversized, Step};
use crate::render::unit_words;
use crate::server::Handed;

/// What to do with a raw message.
pub(crate) enum Screen {
    /// Within the limits: on to the usual checks.
    Pass,
    /// The `tools/call` to hand on in place of the message.
    Replace(StandIn),
    /// The answer, or the reason to drop it.
    Answer(Inbound),
}

/// Checks the raw message `bytes` against `limits`.
pub(crate) fn screen(bytes: &[u8], limits: &InputLimits) -> Screen {
    let Some(found) = limits.check_bytes(bytes) else {
        return Screen::Pass;
    };
    let path = full_path(&found);
    tracing::info!(%path, count = found.count, limit = found.limit, "refused a message over the size limits");
    let envelope = RefusedEnvelope::read(bytes);
    let Some(id) = envelope.id.filter(is_id) else {
        let why = format!("'{path}' has {} entries, over the limit", found.count);
        return Screen::Answer(Inbound::Ignore(why));
    };
    let in_params = starts_with(&found, &["params"]);
    let in_arguments = starts_with(&found, &["params", "arguments"]);
    match envelope.method.as_deref() {
        Some("tools/call") if in_arguments => {
            if let Some(name) = &envelope.name {
                return Screen::Replace(StandIn::new(&id, name, &found));
            }
        }
        None => {
            let why = format!("a response whose '{path}' is over the size limit");
            return Screen::Answer(Inbound::Ignore(why));
        }
        Some(_) => {}
    }
    let code = if in_params {
        ErrorCode::INVALID_PARAMS
    } else {
        ErrorCode::INVALID_REQUEST
    };
    let data = json!({"path": path.to_string(), "count": found.count, "limit": found.limit});
    let message = too_large(code, &path, &found);
    let answer = jsonrpc::error_response(Some(&id), code, message, Some(data));
    Screen::Answer(Inbound::Reply(answer))
}

/// The small `tools/call` that stands in for one whose arguments were refused: the same id
/// and tool, without arguments, and the refusal to hand over beside it.
pub(crate) struct StandIn {
    bytes: Vec<u8>,
    refused: Violation,
}

impl StandIn {
    fn new(id: &Value, name: &str, found: &Oversized) -> Self {
        let message = json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "tools/call",
            "params": {"name": name},
        });
        Self {
            bytes: message.to_string().into_bytes(),
            // The path within the arguments: below `params` and `arguments`.
            refused: found.violation(2),
        }
    }

    /// The stand-in checked like any message, with the refusal handed over beside it; and
    /// its bytes.
    pub(crate) fn classify(self) -> (Vec<u8>, Inbound) {
        let mut inbound = jsonrpc::classify(&self.bytes);
        if let Inbound::Deliver(message) = &mut inbound {
            jsonrpc::hand_over(message, Handed::Refused(self.refused));
        }
        (self.bytes, inbound)
    }
}

/// What of a message's envelope the answer needs: its id, method and tool name, when they
/// are scalars. Every array and object in it, the oversized one among them, is skipped
/// without being built.
#[derive(Default)]
struct RefusedEnvelope {
    id: Option<Value>,
    method: Option<String>,
    name: Option<String>,
}

impl RefusedEnvelope {
    /// The envelope of `bytes`; what cannot be read is left out.
    fn read(bytes: &[u8]) -> Self {
        let mut envelope = Self::default();
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let _ = deserializer.deserialize_map(RefusedEnvelopeVisitor(&mut envelope));
        envelope
    }
}

struct RefusedEnvelopeVisitor<'e>(&'e mut RefusedEnvelope);

impl<'de> Visitor<'de> for RefusedEnvelopeVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "id" => self.0.id = map.next_value::<Scalar>()?.0,
                "method" => self.0.method = map.next_value::<Scalar>()?.into_string(),
                "params" => self.0.name = map.next_value::<ToolName>()?.0,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// A scalar value, or `None` for an array or object (skipped).
struct Scalar(Option<Value>);

impl Scalar {
    fn into_string(self) -> Option<String> {
        match self.0 {
            Some(Value::String(text)) => Some(text),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Scalar, E> {
        Ok(Scalar(Some(Value::Bool(value))))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Scalar, E> {
        Ok(Scalar(Some(Value::from(value))))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Scalar, E> {
        Ok(Scalar(Some(Value::from(value))))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Scalar, E> {
        Ok(Scalar(Some(Value::from(value))))
    }

    fn visit_str<E>(self, value: &str) -> Result<Scalar, E> {
        Ok(Scalar(Some(Value::String(value.to_string()))))
    }

    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar(Some(Value::Null)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar(None))
    }
}

/// The `name` of a message's `params`, when it is a string.
struct ToolName(Option<String>);

impl<'de> Deserialize<'de> for ToolName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let scalar_or_name = deserializer.deserialize_any(ParamsVisitor)?;
        Ok(Self(scalar_or_name))
    }
}

struct ParamsVisitor;

impl<'de> Visitor<'de> for ParamsVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the params of a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut name = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "name" {
                name = map.next_value::<Scalar>()?.into_string();
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(name)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        ScalarVisitor.visit_seq(seq).map(|_| None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

fn is_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

fn starts_with(found: &Oversized, keys: &[&str]) -> bool {
    found.path.len() >= keys.len()
        && found
            .path
            .iter()
            .zip(keys)
            .all(|(step, key)| matches!(step, Step::Key(name) if name == key))
}

/// The oversized value's path from the message's root, written like an argument's.
fn full_path(found: &Oversized) -> ArgPath {
    let arguments = found.violation(0);
    arguments.path
}

/// The sentence of a request refused for an oversized value outside a tool's arguments.
fn too_large(code: ErrorCode, path: &ArgPath, found: &Oversized) -> String {
    let what = if code == ErrorCode::INVALID_PARAMS {
        "Invalid params"
    } else {
        "Invalid request"
    };
    let (count, limit) = (found.count, found.limit);
    let (words, container) = match found.measure {
        Measure::Items => (unit_words(LengthUnit::Items, count), "array"),
        Measure::Keys => (unit_words(LengthUnit::Properties, count), "object"),
        Measure::Values => {
            let place = if path.is_root() {
                String::new()
            } else {
                format!(" (the count passed it in '{path}')")
            };
            return format!(
                "{what}: the message holds more than {limit} values, the most this server accepts in one message{place}. Send a smaller message."
            );
        }
    };
    format!(
        "{what}: '{path}' has {count} {words}, more than the {limit} this server accepts in one {container}. Send a smaller message."
    )
}

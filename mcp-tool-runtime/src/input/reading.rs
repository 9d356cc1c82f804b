//! What one typed reading of the arguments found: the contract between the paths, which
//! each take a [`Reader`] (the only part of parsing instantiated per tool).

use serde::de::{self, DeserializeOwned, Deserializer, Unexpected, Visitor};
use serde_json::{Map, Value};

use crate::error::{Found, ToolError};

/// What one typed reading of the arguments found.
pub(crate) enum Attempt {
    /// They deserialized and hold every `validator` rule.
    Valid,
    /// They deserialized, and these rules failed.
    Invalid(::validator::ValidationErrors),
    /// They deserialized, but a large input broke rules its schema states, or its long
    /// lists' items broke theirs ([`before_validator`](super::large::before_validator)), so `validator` did not check it whole.
    Refused(Found),
    /// serde refused them.
    Unreadable(serde_json::Error),
}

/// Reads the arguments type from a value: the only part of parsing instantiated per tool,
/// so that a crate with many tools compiles the rest once, in this crate.
pub(crate) type Reader<'r> = dyn FnMut(&Value) -> Attempt + 'r;

/// A successful parse that kept no value (see [`nothing_parsed`]).
#[derive(Debug)]
struct NothingParsed;

impl std::fmt::Display for NothingParsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the arguments parsed, but no value was kept")
    }
}

impl std::error::Error for NothingParsed {}

/// The error of a parse that kept no value: a bug of this crate, masked like any other.
/// Apart and cold, so that no tool compiles it.
#[cold]
pub(crate) fn nothing_parsed() -> ToolError {
    ToolError::internal(NothingParsed)
}

/// Reads `A` from `arguments`, which every path hands a reader as an object (`fast/mod.rs`
/// answers any other value itself). serde reads `&Value` through one `deserialize_struct`
/// with an arm for arrays, so a derived arguments struct compiled its `visit_seq` and the
/// array walk for every tool, though no call ever reaches them; through [`ObjectRef`] it
/// compiles the object arm only. P6's 100 tools: 276,109 to 250,112 lines of LLVM IR
/// (`llvm_lines.sh`), a clean build's rustc 25,745M to 24,709M instructions in all threads
/// (callgrind); a call runs the same code.
pub(crate) fn read_object<A: DeserializeOwned>(arguments: &Value) -> Result<A, serde_json::Error> {
    match arguments {
        Value::Object(object) => A::deserialize(ObjectRef { arguments, object }),
        other => Err(not_an_object(other)),
    }
}

/// The error for arguments that are not an object, which no reader is handed (through
/// `&Value`, serde would have read an array into a struct field by field).
#[cold]
fn not_an_object(arguments: &Value) -> serde_json::Error {
    let found = match arguments {
        Value::Null => Unexpected::Unit,
        Value::Bool(flag) => Unexpected::Bool(*flag),
        Value::Number(_) => Unexpected::Other("number"),
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    };
    de::Error::invalid_type(found, &"an object")
}

/// An object as serde reads the `&Value` that holds it, arm for arm (serde_json's `&Value`
/// hands each object to `&Map`'s own deserializer), without the arms of other values.
struct ObjectRef<'a> {
    arguments: &'a Value,
    object: &'a Map<String, Value>,
}

impl<'de> Deserializer<'de> for ObjectRef<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.object.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        // `&Value`'s own, for the raw values serde_json reads through this method.
        self.arguments.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.object.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    // `&Value` answers each of these for an object as `&Map` does: a struct or a map reads
    // it, any other type refuses it with the same "invalid type: map" error.
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::fmt::Debug;

    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    /// `read_object` reads `value` exactly as serde reads the `&Value`: the same value, or
    /// the same error.
    fn reads_alike<T: DeserializeOwned + PartialEq + Debug>(value: Value) {
        let through_value = T::deserialize(&value).map_err(|error| error.to_string());
        let through_object = read_object::<T>(&value).map_err(|error| error.to_string());
        assert_eq!(through_object, through_value, "{value}");
    }

    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(deny_unknown_fields)]
    struct Line {
        sku: String,
        quantity: u32,
        note: Option<String>,
    }

    #[derive(Deserialize, PartialEq, Debug)]
    struct Wrapped(Line);

    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(transparent)]
    struct Transparent {
        line: Line,
    }

    #[derive(Deserialize, PartialEq, Debug)]
    struct Flattened {
        sku: String,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    }

    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Tagged {
        Add { sku: String },
        Clear {},
    }

    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum Untagged {
        Line(Line),
        Anything(BTreeMap<String, Value>),
    }

    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(rename_all = "snake_case")]
    enum External {
        Add(Line),
        Clear,
    }

    #[derive(Deserialize, PartialEq, Debug)]
    struct Empty {}

    #[test]
    fn objects_read_as_serde_reads_their_value() {
        let objects = [
            json!({"sku": "ABC-0001", "quantity": 2, "note": null}),
            json!({"sku": "ABC-0001", "quantity": 2}),
            json!({"sku": "ABC-0001", "quantity": "two"}),
            json!({"sku": "ABC-0001", "quantity": 2, "extra": true}),
            json!({"quantity": -1}),
            json!({"kind": "add", "sku": "ABC-0001"}),
            json!({"kind": "clear"}),
            json!({"kind": "remove"}),
            json!({"add": {"sku": "ABC-0001", "quantity": 1, "note": "x"}}),
            json!({"clear": null}),
            json!({"add": {}, "clear": null}),
            json!({}),
        ];
        for object in objects {
            reads_alike::<Line>(object.clone());
            reads_alike::<Option<Line>>(object.clone());
            reads_alike::<Wrapped>(object.clone());
            reads_alike::<Transparent>(object.clone());
            reads_alike::<Flattened>(object.clone());
            reads_alike::<Tagged>(object.clone());
            reads_alike::<Untagged>(object.clone());
            reads_alike::<External>(object.clone());
            reads_alike::<Empty>(object.clone());
            reads_alike::<Value>(object.clone());
            reads_alike::<BTreeMap<String, Value>>(object.clone());
            reads_alike::<Vec<Value>>(object.clone());
            reads_alike::<(Value,)>(object.clone());
            reads_alike::<String>(object.clone());
            reads_alike::<i64>(object.clone());
            reads_alike::<bool>(object.clone());
            reads_alike::<()>(object);
        }
    }

    #[test]
    fn other_values_are_refused_as_not_objects() {
        for value in [json!(null), json!(5), json!("x"), json!([1, 2])] {
            let refused = read_object::<Line>(&value)
                .map(|_| ())
                .map_err(|e| e.to_string());
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|e| e.ends_with("expected an object")),
                "{value}: {refused:?}"
            );
        }
    }
}

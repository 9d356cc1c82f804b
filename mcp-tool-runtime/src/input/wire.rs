//! The names the model sent, for paths that `validator` writes in Rust field names.
//!
//! The schema carries serde's wire names. At each level a Rust field name is matched
//! against the properties the schema names there: as it is, as a renamed argument the
//! macro reported, or under one of serde's `rename_all` case conversions.

use serde_json::{Map, Value};

use super::spec::InputSpec;
use crate::error::{ArgPath, PathSegment};
use crate::schema::{SchemaDoc, find, item_schema, member};

/// serde's `rename_all` conversions of a snake_case field name, most common first.
const CONVERSIONS: &[fn(&str) -> String] = &[
    camel_case,
    pascal_case,
    kebab_case,
    screaming_snake_case,
    screaming_kebab_case,
];

/// `path`, written in Rust field names, in the names of the schema (and so of the wire).
/// `arguments` and `received` (the value the error is about) name a field renamed in a way
/// the schema cannot tell: the one property that holds that value.
pub(super) fn wire_path(
    doc: &SchemaDoc<'_>,
    spec: &InputSpec,
    path: &ArgPath,
    (arguments, received): (&Value, Option<&Value>),
) -> ArgPath {
    let mut node = Some(doc.non_null(doc.root()));
    let mut value = Some(arguments);
    let mut wire = ArgPath::root();
    let last = path.segments().len().saturating_sub(1);
    for (step, segment) in path.segments().iter().enumerate() {
        match segment {
            PathSegment::Key(field) => {
                let properties = node.and_then(|n| member(n, "properties")?.as_object());
                let renamed = wire.is_root().then(|| spec.renamed(field)).flatten();
                let holding = received.filter(|_| step == last);
                let name = renamed
                    .map(str::to_string)
                    .or_else(|| wire_key(properties, field))
                    .or_else(|| holder(properties, value, holding?))
                    .unwrap_or_else(|| field.to_string());
                if step < last {
                    node = properties
                        .and_then(|p| find(p, &name))
                        .map(|n| doc.non_null(n));
                    value = value.and_then(|v| member(v, &name));
                }
                wire = wire.key(name);
            }
            PathSegment::Index(index) => {
                node = node
                    .and_then(|n| item_schema(n, *index))
                    .map(|n| doc.non_null(n));
                value = value.and_then(|v| v.get(*index));
                wire = wire.index(*index);
            }
        }
    }
    wire
}

/// The one property of `object` that holds `received`, when exactly one does.
fn holder(
    properties: Option<&Map<String, Value>>,
    object: Option<&Value>,
    received: &Value,
) -> Option<String> {
    let properties = properties?;
    let mut holding = object?
        .as_object()?
        .iter()
        .filter(|(key, held)| *held == received && properties.contains_key(*key));
    match (holding.next(), holding.next()) {
        (Some((key, _)), None) => Some(key.clone()),
        _ => None,
    }
}

/// Where each step of a wire `path` is declared: a property's position among its object's
/// properties (unknown ones last), or an array index.
pub(super) fn declared_order(doc: &SchemaDoc<'_>, path: &ArgPath) -> Vec<usize> {
    let mut node = Some(doc.non_null(doc.root()));
    let mut order = Vec::with_capacity(path.segments().len());
    let last = path.segments().len().saturating_sub(1);
    for (step, segment) in path.segments().iter().enumerate() {
        let (position, next) = match segment {
            PathSegment::Key(name) => {
                let properties = node.and_then(|n| member(n, "properties")?.as_object());
                let position = properties.and_then(|p| p.keys().position(|key| key == name));
                (position, properties.and_then(|p| find(p, name)))
            }
            PathSegment::Index(index) => (Some(*index), node.and_then(|n| item_schema(n, *index))),
        };
        order.push(position.unwrap_or(usize::MAX));
        // The last step's schema is not needed: resolving it would only cost hashing.
        node = next.filter(|_| step < last).map(|n| doc.non_null(n));
    }
    order
}

/// The property at this level that `field` stands for, as it is or under a case conversion.
fn wire_key(properties: Option<&Map<String, Value>>, field: &str) -> Option<String> {
    let properties = properties?;
    if find(properties, field).is_some() {
        return Some(field.to_string());
    }
    CONVERSIONS
        .iter()
        .map(|convert| convert(field))
        .find(|name| find(properties, name).is_some())
}

fn pascal_case(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut capitalize = true;
    for c in field.chars() {
        if c == '_' {
            capitalize = true;
        } else if capitalize {
            out.push(c.to_ascii_uppercase());
            capitalize = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn camel_case(field: &str) -> String {
    let pascal = pascal_case(field);
    let mut chars = pascal.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

fn kebab_case(field: &str) -> String {
    field.replace('_', "-")
}

fn screaming_snake_case(field: &str) -> String {
    field.to_ascii_uppercase()
}

fn screaming_kebab_case(field: &str) -> String {
    kebab_case(&field.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_serde() {
        let field = "tracking_number";
        assert_eq!(camel_case(field), "trackingNumber");
        assert_eq!(pascal_case(field), "TrackingNumber");
        assert_eq!(kebab_case(field), "tracking-number");
        assert_eq!(screaming_snake_case(field), "TRACKING_NUMBER");
        assert_eq!(screaming_kebab_case(field), "TRACKING-NUMBER");
    }
}

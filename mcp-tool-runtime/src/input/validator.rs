//! `validator`'s errors as violations, at the paths the schema gives them.

use serde_json::{Number, Value};
use validator::{ValidationError, ValidationErrors, ValidationErrorsKind};

use super::spec::InputSpec;
use super::wire::{declared_order, wire_path};
use crate::error::{
    ArgPath, Found, LengthUnit, NumberRange, StringFormat, Violation, ViolationKind, kept_received,
};
use crate::schema::{SchemaDoc, describe, member};

/// `validator`'s errors as violations, the kept ones ordered as the arguments are declared.
/// `arguments` is what the errors are about, as sent: its property names are the ones to use.
pub(super) fn violations(errors: &ValidationErrors, spec: &InputSpec, arguments: &Value) -> Found {
    let doc = SchemaDoc::new(&spec.schema);
    let mut out = Found::default();
    let context = Context {
        doc: &doc,
        spec,
        arguments,
    };
    collect(errors, &ArgPath::root(), &context, &mut out);
    // As declared at every level; indices as numbers: `items[2]` before `items[10]`.
    out.kept
        .sort_by_cached_key(|violation| declared_order(&doc, &violation.path));
    out
}

fn field_path(base: &ArgPath, field: &str) -> ArgPath {
    if field == "__all__" {
        base.clone()
    } else {
        base.key(field.trim_start_matches("r#"))
    }
}

/// What mapping a path to the names sent reads.
struct Context<'a, 's> {
    doc: &'a SchemaDoc<'s>,
    spec: &'a InputSpec,
    arguments: &'a Value,
}

/// The violations of `errors`, found at `base` (in Rust field names).
fn collect(errors: &ValidationErrors, base: &ArgPath, context: &Context<'_, '_>, out: &mut Found) {
    for (field, kind) in errors.errors() {
        let path = field_path(base, field);
        match kind {
            ValidationErrorsKind::Field(list) => {
                // `validator` names Rust fields; the model reads the names it sent.
                let received = list.first().and_then(|error| error.params.get("value"));
                let sent = (context.arguments, received);
                let wire = wire_path(context.doc, context.spec, &path, sent);
                for error in list {
                    out.push(violation(error, &wire, context.doc));
                }
            }
            ValidationErrorsKind::Struct(inner) => collect(inner, &path, context, out),
            ValidationErrorsKind::List(items) => {
                for (index, inner) in items {
                    collect(inner, &path.index(*index), context, out);
                }
            }
        }
    }
}

fn param_number(error: &ValidationError, name: &str) -> Option<Number> {
    match error.params.get(name)? {
        Value::Number(number) => Some(number.clone()),
        _ => None,
    }
}

fn param_u64(error: &ValidationError, name: &str) -> Option<u64> {
    param_number(error, name)?.as_u64()
}

fn violation(error: &ValidationError, path: &ArgPath, doc: &SchemaDoc<'_>) -> Violation {
    let received = error.params.get("value");
    // Only a pattern and a missing value are described from the schema; the walk to the
    // path's schema is spared the other rules.
    let schema = || doc.at(path);
    let custom = || ViolationKind::Custom {
        code: error.code.to_string(),
        message: error.message.as_deref().map(str::to_string),
    };
    let kind = match error.code.as_ref() {
        "range" => ViolationKind::Range(range(error)),
        "length" => length(error, received),
        "regex" => {
            let schema = schema();
            match schema
                .and_then(|s| member(s, "pattern"))
                .and_then(Value::as_str)
            {
                Some(pattern) => ViolationKind::Pattern {
                    pattern: pattern.to_string(),
                    example: schema.and_then(first_example),
                },
                None => custom(),
            }
        }
        "email" => ViolationKind::Format {
            format: StringFormat::Email,
        },
        "url" => ViolationKind::Format {
            format: StringFormat::Url,
        },
        "ip" | "ipv4" | "ipv6" | "credit_card" => ViolationKind::Format {
            format: StringFormat::Other(error.code.to_string()),
        },
        "required" => match schema() {
            Some(schema) => ViolationKind::Missing {
                expected: describe(doc, schema),
            },
            None => ViolationKind::Missing {
                expected: crate::error::Expected::Types(Vec::new()),
            },
        },
        _ => custom(),
    };
    Violation::new(path.clone(), kind, received.map(kept_received))
}

fn range(error: &ValidationError) -> NumberRange {
    let exclusive_min = param_number(error, "exclusive_min");
    let exclusive_max = param_number(error, "exclusive_max");
    NumberRange {
        exclusive_min: exclusive_min.is_some(),
        exclusive_max: exclusive_max.is_some(),
        min: exclusive_min.or_else(|| param_number(error, "min")),
        max: exclusive_max.or_else(|| param_number(error, "max")),
    }
}

fn length(error: &ValidationError, received: Option<&Value>) -> ViolationKind {
    let equal = param_u64(error, "equal");
    let (unit, actual) = match received {
        Some(Value::String(text)) => (LengthUnit::Characters, text.chars().count()),
        Some(Value::Array(items)) => (LengthUnit::Items, items.len()),
        Some(Value::Object(object)) => (LengthUnit::Properties, object.len()),
        _ => (LengthUnit::Items, 0),
    };
    ViolationKind::Length {
        min: equal.or_else(|| param_u64(error, "min")),
        max: equal.or_else(|| param_u64(error, "max")),
        unit,
        actual: actual as u64,
    }
}

/// The first of a schema's `examples`.
pub(super) fn first_example(schema: &Value) -> Option<Value> {
    member(schema, "examples")?.as_array()?.first().cloned()
}

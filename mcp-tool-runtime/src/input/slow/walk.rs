//! The slow path: a JSON Schema walk (2020-12, local `$ref`s only) over the arguments that
//! collects every violation with its path.

use serde_json::{Map, Number, Value};

use super::formats::{format_problem, matches_pattern};
use crate::error::{ArgPath, Expected, Found, JsonType, LengthUnit, Violation, ViolationKind};
use crate::input::suggest::closest;
use crate::input::validator::first_example;
use crate::schema::{
    SchemaDoc, constants_of, declared_types, describe, find, is_null_schema, member, number_range,
    required_names, union_types,
};

/// Deepest nesting the walk follows; deeper input is reported, not walked.
const MAX_DEPTH: usize = 64;

/// Every violation of `value` against the canonical `schema`.
pub(crate) fn violations(schema: &Value, value: &Value) -> Found {
    let walker = Walker {
        doc: SchemaDoc::new(schema),
    };
    let mut out = Found::default();
    walker.node(schema, value, &ArgPath::root(), &mut out, 0);
    out
}

struct Walker<'s> {
    doc: SchemaDoc<'s>,
}

impl<'s> Walker<'s> {
    fn node(
        &self,
        schema: &'s Value,
        value: &Value,
        path: &ArgPath,
        out: &mut Found,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            let kind = ViolationKind::TooDeep { limit: MAX_DEPTH };
            out.push(Violation::new(path.clone(), kind, None));
            return;
        }
        let schema = self.doc.resolve(schema);
        let Value::Object(keywords) = schema else {
            return;
        };
        if let Some(all) = find(keywords, "allOf").and_then(Value::as_array) {
            for branch in all {
                self.node(branch, value, path, out, depth + 1);
            }
        }
        let fixed = match (find(keywords, "enum"), find(keywords, "const")) {
            (Some(Value::Array(allowed)), _) => Some(allowed.clone()),
            (_, Some(constant)) => Some(vec![constant.clone()]),
            _ => None,
        };
        if let Some(allowed) = fixed {
            if !allowed.contains(value) {
                out.push(enum_violation(path.clone(), allowed, value));
            }
            return;
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = find(keywords, keyword).and_then(Value::as_array) {
                return self.union(branches, value, path, out, depth);
            }
        }
        if let Some(types) = find(keywords, "type")
            && !type_matches(types, value)
        {
            let expected = Expected::Types(declared_types(schema));
            let kind = ViolationKind::TypeMismatch { expected };
            out.push(Violation::about(path.clone(), kind, value));
            return;
        }
        match value {
            Value::Object(object) => self.object(schema, keywords, object, path, out, depth),
            Value::Array(items) => self.array(keywords, items, value, path, out, depth),
            Value::String(text) => check_string(schema, keywords, text, value, path, out),
            Value::Number(number) => check_number(keywords, number, value, path, out),
            Value::Bool(_) | Value::Null => {}
        }
    }

    fn object(
        &self,
        schema: &'s Value,
        keywords: &'s Map<String, Value>,
        object: &Map<String, Value>,
        path: &ArgPath,
        out: &mut Found,
        depth: usize,
    ) {
        let properties = find(keywords, "properties").and_then(Value::as_object);
        let required = required_names(schema);
        let mut missing = Vec::new();
        for (name, property) in properties.into_iter().flatten() {
            let child_path = path.key(name);
            match find(object, name) {
                Some(child) => self.node(property, child, &child_path, out, depth + 1),
                None if required.contains(&name.as_str()) => {
                    missing.push((name.as_str(), property));
                    let expected = describe(&self.doc, property);
                    let kind = ViolationKind::Missing { expected };
                    out.push(Violation::new(child_path, kind, None));
                }
                None => {}
            }
        }
        let known = |key: &str| properties.is_some_and(|p| find(p, key).is_some());
        let extra = find(keywords, "additionalProperties");
        let mut unknown = Vec::new();
        for (key, child) in object.iter().filter(|(key, _)| !known(key)) {
            match extra {
                Some(Value::Bool(false)) => {
                    let at = out.push(unknown_key(properties, key, child, path));
                    unknown.push((at, child));
                }
                Some(schema @ Value::Object(_)) => {
                    self.node(schema, child, &path.key(key), out, depth + 1);
                }
                _ => {}
            }
        }
        if let ([(name, property)], [(Some(at), sent)]) = (missing.as_slice(), unknown.as_slice()) {
            self.link_renamed(name, property, &mut out.kept[*at], sent, depth);
        }
        let count = object.len() as u64;
        let unit = LengthUnit::Properties;
        if let Some(kind) =
            length_violation(keywords, "minProperties", "maxProperties", count, unit)
        {
            out.push(Violation::new(path.clone(), kind, None));
        }
    }

    /// One required argument missing and one unknown one sent that would fit it: the model
    /// most likely named it otherwise (`q` for `query`), so the unknown one suggests it.
    fn link_renamed(
        &self,
        missing: &str,
        schema: &'s Value,
        unknown: &mut Violation,
        sent: &Value,
        depth: usize,
    ) {
        let ViolationKind::Unknown {
            suggestion: suggestion @ None,
            ..
        } = &mut unknown.kind
        else {
            return;
        };
        let mut problems = Found::default();
        self.node(schema, sent, &unknown.path, &mut problems, depth + 1);
        if problems.is_empty() {
            *suggestion = Some(missing.to_string());
        }
    }

    fn array(
        &self,
        keywords: &'s Map<String, Value>,
        items: &[Value],
        value: &Value,
        path: &ArgPath,
        out: &mut Found,
        depth: usize,
    ) {
        let prefix = find(keywords, "prefixItems").and_then(Value::as_array);
        let rest = find(keywords, "items");
        for (index, item) in items.iter().enumerate() {
            let Some(schema) = prefix.and_then(|p| p.get(index)).or(rest) else {
                continue;
            };
            let item_path = path.index(index);
            if schema == &Value::Bool(false) {
                let kind = ViolationKind::ExtraItem;
                out.push(Violation::about(item_path, kind, item));
            } else {
                self.node(schema, item, &item_path, out, depth + 1);
            }
        }
        let count = items.len() as u64;
        if let Some(kind) =
            length_violation(keywords, "minItems", "maxItems", count, LengthUnit::Items)
        {
            out.push(Violation::about(path.clone(), kind, value));
        }
        let unique = find(keywords, "uniqueItems") == Some(&Value::Bool(true));
        if unique && has_duplicates(items) {
            let kind = ViolationKind::NotUnique;
            out.push(Violation::about(path.clone(), kind, value));
        }
    }

    fn union(
        &self,
        branches: &'s [Value],
        value: &Value,
        path: &ArgPath,
        out: &mut Found,
        depth: usize,
    ) {
        let resolved: Vec<&'s Value> = branches.iter().map(|b| self.doc.resolve(b)).collect();
        if value.is_null() && resolved.iter().any(|b| is_null_schema(b)) {
            return;
        }
        // An optional value (`anyOf: [T, null]`) that is not null is checked as a `T`, so that
        // its own problems (an enum's allowed values, a nested path) are reported.
        if let [first, second] = resolved[..] {
            match (is_null_schema(first), is_null_schema(second)) {
                (true, false) => return self.node(second, value, path, out, depth + 1),
                (false, true) => return self.node(first, value, path, out, depth + 1),
                _ => {}
            }
        }
        if let Some(tag) = discriminator(&resolved) {
            return self.tagged(&resolved, &tag, value, path, out, depth);
        }
        let constants: Option<Vec<Value>> = resolved.iter().try_fold(Vec::new(), |mut all, b| {
            all.extend(constants_of(b)?);
            Some(all)
        });
        if let Some(allowed) = constants {
            if !allowed.contains(value) {
                out.push(enum_violation(path.clone(), allowed, value));
            }
            return;
        }
        match self.closest_branch(&resolved, value, path, depth) {
            Some(Ok(())) => {}
            Some(Err(best)) => out.append(best),
            None => {
                let types = union_types(&self.doc, resolved.iter().copied());
                let kind = ViolationKind::TypeMismatch {
                    expected: Expected::Types(types),
                };
                out.push(Violation::about(path.clone(), kind, value));
            }
        }
    }

    /// The violations of the branch the value comes closest to (`Ok` when one accepts it);
    /// `None` when every branch wants another type altogether.
    fn closest_branch(
        &self,
        branches: &[&'s Value],
        value: &Value,
        path: &ArgPath,
        depth: usize,
    ) -> Option<Result<(), Found>> {
        let mut best: Option<Found> = None;
        for branch in branches {
            let mut attempt = Found::default();
            self.node(branch, value, path, &mut attempt, depth + 1);
            if attempt.is_empty() {
                return Some(Ok(()));
            }
            let wrong_type_only = matches!(
                attempt.kept.as_slice(),
                [only] if &only.path == path
                    && matches!(only.kind, ViolationKind::TypeMismatch { .. } | ViolationKind::Enum { .. })
            );
            if !wrong_type_only && best.as_ref().is_none_or(|b| attempt.total() < b.total()) {
                best = Some(attempt);
            }
        }
        best.map(Err)
    }

    /// An internally or adjacently tagged enum: the tag picks the branch to report on.
    fn tagged(
        &self,
        branches: &[&'s Value],
        tag: &str,
        value: &Value,
        path: &ArgPath,
        out: &mut Found,
        depth: usize,
    ) {
        let Value::Object(object) = value else {
            let kind = ViolationKind::TypeMismatch {
                expected: Expected::Types(vec![JsonType::Object]),
            };
            out.push(Violation::about(path.clone(), kind, value));
            return;
        };
        let allowed: Vec<Value> = branches
            .iter()
            .filter_map(|branch| tag_values(&self.doc, branch, tag))
            .flatten()
            .collect();
        let Some(given) = find(object, tag) else {
            let kind = ViolationKind::Missing {
                expected: Expected::OneOf(allowed),
            };
            out.push(Violation::new(path.key(tag), kind, None));
            return;
        };
        match branch_tagged(&self.doc, branches, tag, given) {
            Some(branch) => self.node(branch, value, path, out, depth + 1),
            None => {
                out.push(enum_violation(path.key(tag), allowed, given));
            }
        }
    }
}

/// Whether a schema's `type` (a name or a list of names) admits `value`. A type name this
/// walker does not know is not held against the value.
pub(crate) fn type_matches(types: &Value, value: &Value) -> bool {
    let names: Vec<&str> = match types {
        Value::String(name) => vec![name],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    names
        .into_iter()
        .any(|name| JsonType::from_name(name).is_none_or(|t| t.admits(value)))
}

fn unknown_key(
    properties: Option<&Map<String, Value>>,
    key: &str,
    value: &Value,
    path: &ArgPath,
) -> Violation {
    let valid: Vec<String> = properties
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let suggestion = closest(key, valid.iter().map(String::as_str)).map(str::to_string);
    let kind = ViolationKind::Unknown { suggestion, valid };
    Violation::about(path.key(key), kind, value)
}

fn has_duplicates(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .any(|(i, item)| items[..i].contains(item))
}

/// The branch of an internally or adjacently tagged enum that `object`'s tag names: the
/// walk reports on it, and the repair follows it.
pub(crate) fn tagged_branch<'s>(
    doc: &SchemaDoc<'s>,
    branches: &'s [Value],
    object: &Map<String, Value>,
) -> Option<&'s Value> {
    let resolved: Vec<&'s Value> = branches.iter().map(|b| doc.resolve(b)).collect();
    let tag = discriminator(&resolved)?;
    branch_tagged(doc, &resolved, &tag, find(object, &tag)?)
}

/// The branch whose `tag` is fixed to a set of constants holding `given`.
fn branch_tagged<'s>(
    doc: &SchemaDoc<'s>,
    branches: &[&'s Value],
    tag: &str,
    given: &Value,
) -> Option<&'s Value> {
    branches
        .iter()
        .copied()
        .find(|branch| tag_values(doc, branch, tag).is_some_and(|values| values.contains(given)))
}

/// The constants a branch fixes its `tag` to.
fn tag_values(doc: &SchemaDoc<'_>, branch: &Value, tag: &str) -> Option<Vec<Value>> {
    let tag_schema = member(member(branch, "properties")?, tag)?;
    constants_of(doc.resolve(tag_schema))
}

/// A property that every branch requires and fixes to constants: the enum's tag.
fn discriminator(branches: &[&Value]) -> Option<String> {
    if branches.len() < 2 {
        return None;
    }
    let candidates = member(branches.first()?, "properties")?.as_object()?;
    candidates
        .keys()
        .find(|name| {
            branches.iter().all(|branch| {
                let required = required_names(branch).contains(&name.as_str());
                let fixed = member(branch, "properties")
                    .and_then(|p| member(p, name))
                    .and_then(constants_of)
                    .is_some();
                required && fixed
            })
        })
        .cloned()
}

fn enum_violation(path: ArgPath, allowed: Vec<Value>, value: &Value) -> Violation {
    let suggestion = value.as_str().and_then(|given| {
        let names = allowed.iter().filter_map(Value::as_str);
        closest(given, names).map(|s| Value::String(s.to_string()))
    });
    let kind = ViolationKind::Enum {
        allowed,
        suggestion,
    };
    Violation::about(path, kind, value)
}

fn length_violation(
    keywords: &Map<String, Value>,
    min_keyword: &str,
    max_keyword: &str,
    actual: u64,
    unit: LengthUnit,
) -> Option<ViolationKind> {
    let min = find(keywords, min_keyword).and_then(Value::as_u64);
    let max = find(keywords, max_keyword).and_then(Value::as_u64);
    let too_short = min.is_some_and(|min| actual < min);
    let too_long = max.is_some_and(|max| actual > max);
    (too_short || too_long).then_some(ViolationKind::Length {
        min,
        max,
        unit,
        actual,
    })
}

fn check_string(
    schema: &Value,
    keywords: &Map<String, Value>,
    text: &str,
    value: &Value,
    path: &ArgPath,
    out: &mut Found,
) {
    let length = text.chars().count() as u64;
    let unit = LengthUnit::Characters;
    if let Some(kind) = length_violation(keywords, "minLength", "maxLength", length, unit) {
        out.push(Violation::about(path.clone(), kind, value));
    }
    if let Some(pattern) = find(keywords, "pattern").and_then(Value::as_str)
        && !matches_pattern(pattern, text)
    {
        let kind = ViolationKind::Pattern {
            pattern: pattern.to_string(),
            example: first_example(schema),
        };
        out.push(Violation::about(path.clone(), kind, value));
    }
    let format = find(keywords, "format").and_then(Value::as_str);
    if let Some(format) = format.and_then(|format| format_problem(format, text)) {
        let kind = ViolationKind::Format { format };
        out.push(Violation::about(path.clone(), kind, value));
    }
}

/// Compares two JSON numbers, exactly when either is an integer.
fn compare(a: &Number, b: &Number) -> Option<std::cmp::Ordering> {
    match (a.as_i128(), b.as_i128()) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        (None, Some(b)) => float_against_integer(a.as_f64()?, b),
        (Some(a), None) => float_against_integer(b.as_f64()?, a).map(std::cmp::Ordering::reverse),
        (None, None) => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// A float against an integer without rounding the integer: serde_json reads `2^64` as a
/// float, which would compare equal to `u64::MAX` once both were floats.
fn float_against_integer(float: f64, integer: i128) -> Option<std::cmp::Ordering> {
    if float.is_nan() {
        return None;
    }
    let whole = float.trunc();
    // The cast saturates: a float beyond i128 compares as its end, past any JSON integer.
    match (whole as i128).cmp(&integer) {
        std::cmp::Ordering::Equal => float.partial_cmp(&whole),
        order => Some(order),
    }
}

fn check_number(
    keywords: &Map<String, Value>,
    number: &Number,
    value: &Value,
    path: &ArgPath,
    out: &mut Found,
) {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let Some(range) = number_range(keywords) else {
        return;
    };
    let below = range
        .min
        .as_ref()
        .and_then(|min| compare(number, min))
        .is_some_and(|order| order == Less || (range.exclusive_min && order == Equal));
    let above = range
        .max
        .as_ref()
        .and_then(|max| compare(number, max))
        .is_some_and(|order| order == Greater || (range.exclusive_max && order == Equal));
    if below || above {
        out.push(Violation::about(
            path.clone(),
            ViolationKind::Range(range),
            value,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::valid_call;
    use crate::schema::signature;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "quantity": {"type": "integer", "format": "uint32", "minimum": 1, "maximum": 100},
                "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$", "examples": ["ABC-0001"]},
                "sort": {"enum": ["asc", "desc"]},
                "items": {"type": "array", "items": {"$ref": "#/$defs/Line"}}
            },
            "required": ["quantity", "sku"],
            "additionalProperties": false,
            "$defs": {"Line": {"type": "object", "properties": {"qty": {"type": "integer"}}, "required": ["qty"]}}
        })
    }

    fn messages_for(value: Value) -> Vec<String> {
        violations(&schema(), &value)
            .kept
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn reports_every_violation_with_paths() {
        let found = messages_for(json!({
            "quantity": "five",
            "sku": "abc",
            "sort": "ascending",
            "items": [{"qty": 1}, {"qty": 2}, {"qty": "x"}],
            "quantiy": 3
        }));
        assert_eq!(
            found,
            [
                "Argument 'quantity' expected an integer, but received 'five'.",
                "Argument 'sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001'), but received 'abc'.",
                "Argument 'sort' must be one of 'asc', 'desc', but received 'ascending'. Did you mean 'asc'?",
                "Argument 'items[2].qty' expected an integer, but received 'x'.",
                "Unknown argument 'quantiy'. Did you mean 'quantity'? Valid arguments here: quantity, sku, sort, items.",
            ]
        );
    }

    #[test]
    fn missing_and_range() {
        let found = messages_for(json!({"quantity": 500}));
        assert_eq!(
            found,
            [
                "Argument 'quantity' must be between 1 and 100, but received 500.",
                "Missing required argument 'sku': expected a string matching `^[A-Z]{3}-[0-9]{4}$`.",
            ]
        );
    }

    #[test]
    fn signature_lists_arguments() {
        let schema = schema();
        assert_eq!(
            valid_call(&signature(&schema)),
            "quantity: an integer between 1 and 100, sku: a string matching `^[A-Z]{3}-[0-9]{4}$`, sort?: one of 'asc', 'desc', items?: an array of objects"
        );
    }
}

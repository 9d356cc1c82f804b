//! Turning a call's JSON arguments into typed arguments, or into every violation at once.
//!
//! The valid path is what hand-written code would do: serde deserializes the arguments and
//! `validator` checks the constraints. Only when serde fails does the runtime walk the
//! canonical schema to find *every* problem with its path, since serde stops at the first.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use regex::Regex;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};
use validator::{
    ValidateEmail, ValidateUrl, ValidationError, ValidationErrors, ValidationErrorsKind,
};

use crate::coerce::{self, InputMode};
use crate::error::ToolError;
use crate::messages;
use crate::registry::ToolInfo;
use crate::schema::{Lookup, integer_format_bounds, is_required, json_type_name, required_names};
use crate::suggest;
use crate::violation::{ArgPath, LengthUnit, PathSegment, StringFormat, Violation, ViolationKind};

/// Deepest nesting the schema walk follows; deeper input is reported, not walked.
const MAX_DEPTH: usize = 64;

/// Parses and validates the arguments of one call.
///
/// `arguments` is what the client sent: `None` when it sent no `arguments` member.
pub fn parse_arguments<A>(arguments: Option<&Value>, info: &ToolInfo) -> Result<A, ToolError>
where
    A: DeserializeOwned + validator::Validate,
{
    parse_arguments_with(arguments, info, InputMode::default())
}

/// [`parse_arguments`] with an explicit [`InputMode`]. Repairs (see [`crate::coerce`]) run
/// only after serde has rejected the arguments.
pub fn parse_arguments_with<A>(
    arguments: Option<&Value>,
    info: &ToolInfo,
    mode: InputMode,
) -> Result<A, ToolError>
where
    A: DeserializeOwned + validator::Validate,
{
    let empty;
    let absent = matches!(arguments, None | Some(Value::Null));
    let value = match arguments {
        None | Some(Value::Null) => {
            empty = Value::Object(Map::new());
            &empty
        }
        Some(object @ Value::Object(_)) => object,
        Some(other) => {
            let violation = Violation::new(
                ArgPath::root(),
                ViolationKind::NotAnObject,
                Some(other.clone()),
            );
            return Err(ToolError::invalid_arguments(info.name(), vec![violation]));
        }
    };
    if info.checks_unknown_keys() && has_unknown_key(value, info) {
        return Err(slow_path(value, info, None));
    }
    match A::deserialize(value) {
        Ok(arguments) => match arguments.validate() {
            Ok(()) => Ok(arguments),
            Err(errors) => Err(ToolError::invalid_arguments(
                info.name(),
                violations_from_validator(&errors, info),
            )),
        },
        Err(error) if absent => Err(without_arguments(slow_path(value, info, Some(error)), info)),
        Err(error) => match coerce::repair(value, info.input_schema(), mode) {
            Some(repaired) => match A::deserialize(&repaired) {
                Ok(arguments) => match arguments.validate() {
                    Ok(()) => Ok(arguments),
                    Err(errors) => Err(ToolError::invalid_arguments(
                        info.name(),
                        violations_from_validator(&errors, info),
                    )),
                },
                // Reported on the repaired value: what was repaired is not a problem.
                Err(error) => Err(slow_path(&repaired, info, Some(error))),
            },
            None => Err(slow_path(value, info, Some(error))),
        },
    }
}

/// A call that sent no arguments at all gets one headline naming what it must send.
fn without_arguments(error: ToolError, info: &ToolInfo) -> ToolError {
    let required: Vec<&str> = error
        .violations()
        .iter()
        .filter(|v| matches!(v.kind, ViolationKind::Missing { .. }) && v.path.segments().len() == 1)
        .filter_map(|v| v.path.top_level())
        .collect();
    if required.is_empty() {
        return error;
    }
    let summary = messages::arguments_absent(info.name(), &required);
    ToolError::invalid_arguments_because(summary, error.violations().to_vec())
}

fn has_unknown_key(value: &Value, info: &ToolInfo) -> bool {
    let known = info.argument_names();
    value
        .as_object()
        .is_some_and(|object| object.keys().any(|key| !known.iter().any(|k| k == key)))
}

fn slow_path(value: &Value, info: &ToolInfo, serde_error: Option<serde_json::Error>) -> ToolError {
    let mut violations = SchemaWalker::new(info.input_schema()).check(value);
    if violations.is_empty() {
        // The type's own deserializer is stricter than its schema says; its words are all
        // there is. They describe types, never server internals.
        let reason = serde_error.map_or_else(
            || "the arguments do not match the schema".to_string(),
            |error| error.to_string(),
        );
        violations.push(Violation::new(
            ArgPath::root(),
            ViolationKind::Invalid { reason },
            None,
        ));
    }
    ToolError::invalid_arguments(info.name(), violations)
}

// Shared through `Arc`: a cloned `Regex` starts with an empty match cache, which costs more
// to fill than the match itself.
static PATTERNS: LazyLock<Mutex<HashMap<String, Option<Arc<Regex>>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The compiled form of a schema `pattern`, compiled once per process.
fn pattern_matches(pattern: &str, text: &str) -> bool {
    let compiled = {
        let mut cache = match PATTERNS.lock() {
            Ok(cache) => cache,
            Err(poisoned) => poisoned.into_inner(),
        };
        match cache.get(pattern) {
            Some(compiled) => compiled.clone(),
            None => {
                let compiled = Regex::new(pattern).ok().map(Arc::new);
                cache.insert(pattern.to_string(), compiled.clone());
                compiled
            }
        }
    };
    // A pattern this engine cannot compile is not held against the caller.
    compiled.is_none_or(|regex| regex.is_match(text))
}

/// Where the walk is, as names borrowed from the schema and the arguments. Most positions
/// have no violation, so an owned [`ArgPath`] is made only for those that do.
#[derive(Default)]
struct Position<'v>(Vec<Step<'v>>);

#[derive(Clone, Copy)]
enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

impl<'v> Position<'v> {
    fn push_key(&mut self, key: &'v str) {
        self.0.push(Step::Key(key));
    }

    fn push_index(&mut self, index: usize) {
        self.0.push(Step::Index(index));
    }

    fn pop(&mut self) {
        self.0.pop();
    }

    fn segments(&self) -> impl Iterator<Item = PathSegment> {
        self.0.iter().map(|step| match *step {
            Step::Key(key) => PathSegment::Key(key.to_string()),
            Step::Index(index) => PathSegment::Index(index),
        })
    }

    /// The position as an owned path.
    fn to_path(&self) -> ArgPath {
        ArgPath::from_segments(self.segments().collect())
    }

    /// The path one key below this position.
    fn with_key(&self, key: &str) -> ArgPath {
        let mut segments = Vec::with_capacity(self.0.len() + 1);
        segments.extend(self.segments());
        segments.push(PathSegment::Key(key.to_string()));
        ArgPath::from_segments(segments)
    }

    /// Whether `path` names this position.
    fn is(&self, path: &ArgPath) -> bool {
        path.segments().len() == self.0.len()
            && path.segments().iter().zip(&self.0).all(|pair| match pair {
                (PathSegment::Key(owned), Step::Key(key)) => owned == key,
                (PathSegment::Index(owned), Step::Index(index)) => owned == index,
                _ => false,
            })
    }
}

/// Walks a JSON Schema (2020-12, local `$ref`s only) over a value and collects every
/// violation.
pub(crate) struct SchemaWalker<'s> {
    defs: Option<&'s Map<String, Value>>,
    root: &'s Value,
}

impl<'s> SchemaWalker<'s> {
    pub(crate) fn new(root: &'s Value) -> Self {
        Self {
            defs: root.lookup("$defs").and_then(Value::as_object),
            root,
        }
    }

    pub(crate) fn check(&self, value: &'s Value) -> Vec<Violation> {
        let mut out = Vec::new();
        self.check_node(self.root, value, &mut Position::default(), &mut out, 0);
        out
    }

    /// Follows `$ref` chains to the schema they name.
    fn resolve(&self, mut schema: &'s Value) -> &'s Value {
        for _ in 0..MAX_DEPTH {
            let Some(reference) = schema.lookup("$ref").and_then(Value::as_str) else {
                return schema;
            };
            let target = reference
                .strip_prefix("#/$defs/")
                .and_then(|name| self.defs?.lookup(name))
                .or_else(|| (reference == "#").then_some(self.root));
            match target {
                Some(target) => schema = target,
                None => return schema,
            }
        }
        schema
    }

    /// The schema that describes the value at `path`, if the path exists in the schema.
    pub(crate) fn schema_at(&self, path: &ArgPath) -> Option<&'s Value> {
        let mut node = self.non_null(self.resolve(self.root));
        for segment in path.segments() {
            node = match segment {
                PathSegment::Key(key) => node.lookup("properties")?.lookup(key)?,
                PathSegment::Index(index) => node
                    .lookup("prefixItems")
                    .and_then(|items| items.get(*index))
                    .or_else(|| node.lookup("items"))?,
            };
            node = self.non_null(self.resolve(node));
        }
        Some(node)
    }

    /// For an optional value's `anyOf: [T, null]`, the `T`.
    fn non_null(&self, schema: &'s Value) -> &'s Value {
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.lookup(keyword).and_then(Value::as_array) {
                let others: Vec<&Value> = branches.iter().filter(|b| !is_null_type(b)).collect();
                if others.len() == 1 && branches.len() == 2 {
                    return self.resolve(others[0]);
                }
            }
        }
        schema
    }

    fn check_node(
        &self,
        schema: &'s Value,
        value: &'s Value,
        path: &mut Position<'s>,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            out.push(Violation::new(
                path.to_path(),
                ViolationKind::Invalid {
                    reason: format!("it is nested deeper than {MAX_DEPTH} levels"),
                },
                None,
            ));
            return;
        }
        let schema = self.resolve(schema);
        let Value::Object(keywords) = schema else {
            return;
        };
        if let Some(all) = keywords.lookup("allOf").and_then(Value::as_array) {
            for branch in all {
                self.check_node(branch, value, path, out, depth + 1);
            }
        }
        if let Some(allowed) = keywords.lookup("enum").and_then(Value::as_array) {
            if !allowed.contains(value) {
                out.push(enum_violation(path.to_path(), allowed.clone(), value));
            }
            return;
        }
        if let Some(constant) = keywords.lookup("const") {
            if constant != value {
                out.push(enum_violation(
                    path.to_path(),
                    vec![constant.clone()],
                    value,
                ));
            }
            return;
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = keywords.lookup(keyword).and_then(Value::as_array) {
                self.check_union(branches, value, path, out, depth);
                return;
            }
        }
        if let Some(types) = keywords.lookup("type")
            && !type_matches(types, value)
        {
            out.push(Violation::new(
                path.to_path(),
                ViolationKind::TypeMismatch {
                    expected: messages::types_phrase(type_names(types)),
                },
                Some(value.clone()),
            ));
            return;
        }
        match value {
            Value::Object(object) => self.check_object(keywords, object, path, out, depth),
            Value::Array(items) => self.check_array(keywords, items, value, path, out, depth),
            Value::String(text) => check_string(keywords, text, value, path, out),
            Value::Number(number) => check_number(keywords, number, value, path, out),
            Value::Bool(_) | Value::Null => {}
        }
    }

    fn check_object(
        &self,
        keywords: &'s Map<String, Value>,
        object: &'s Map<String, Value>,
        path: &mut Position<'s>,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        let properties = keywords.lookup("properties").and_then(Value::as_object);
        let required = keywords.lookup("required");
        if let Some(properties) = properties {
            for (name, property) in properties {
                path.push_key(name);
                match object.lookup(name) {
                    Some(child) => self.check_node(property, child, path, out, depth + 1),
                    None if is_required(required, name) => out.push(Violation::new(
                        path.to_path(),
                        ViolationKind::Missing {
                            expected: self.describe(property),
                        },
                        None,
                    )),
                    None => {}
                }
                path.pop();
            }
        }
        let known = |key: &str| properties.is_some_and(|p| p.lookup(key).is_some());
        let extra = keywords.lookup("additionalProperties");
        for (key, child) in object.iter().filter(|(key, _)| !known(key)) {
            match extra {
                Some(Value::Bool(false)) => {
                    let valid: Vec<String> = properties
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default();
                    let suggestion =
                        suggest::closest(key, valid.iter().map(String::as_str)).map(str::to_string);
                    out.push(Violation::new(
                        path.with_key(key),
                        ViolationKind::Unknown { suggestion, valid },
                        Some(child.clone()),
                    ));
                }
                Some(schema @ Value::Object(_)) => {
                    path.push_key(key);
                    self.check_node(schema, child, path, out, depth + 1);
                    path.pop();
                }
                _ => {}
            }
        }
        let count = object.len() as u64;
        if let Some(violation) = length_violation(
            keywords,
            "minProperties",
            "maxProperties",
            count,
            LengthUnit::Properties,
        ) {
            out.push(Violation::new(path.to_path(), violation, None));
        }
    }

    fn check_array(
        &self,
        keywords: &'s Map<String, Value>,
        items: &'s [Value],
        value: &'s Value,
        path: &mut Position<'s>,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        let prefix = keywords.lookup("prefixItems").and_then(Value::as_array);
        let rest = keywords.lookup("items");
        for (index, item) in items.iter().enumerate() {
            let schema = prefix.and_then(|p| p.get(index)).or(rest);
            if let Some(schema) = schema {
                path.push_index(index);
                if schema == &Value::Bool(false) {
                    out.push(Violation::new(
                        path.to_path(),
                        ViolationKind::Invalid {
                            reason: "the array has more items than allowed".into(),
                        },
                        Some(item.clone()),
                    ));
                } else {
                    self.check_node(schema, item, path, out, depth + 1);
                }
                path.pop();
            }
        }
        if let Some(violation) = length_violation(
            keywords,
            "minItems",
            "maxItems",
            items.len() as u64,
            LengthUnit::Items,
        ) {
            out.push(Violation::new(
                path.to_path(),
                violation,
                Some(value.clone()),
            ));
        }
        if keywords.lookup("uniqueItems") == Some(&Value::Bool(true)) {
            let duplicated = items
                .iter()
                .enumerate()
                .any(|(i, item)| items[..i].contains(item));
            if duplicated {
                out.push(Violation::new(
                    path.to_path(),
                    ViolationKind::NotUnique,
                    Some(value.clone()),
                ));
            }
        }
    }

    fn check_union(
        &self,
        branches: &'s [Value],
        value: &'s Value,
        path: &mut Position<'s>,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        if value.is_null() && branches.iter().any(|b| is_null_type(self.resolve(b))) {
            return;
        }
        let resolved: Vec<&Value> = branches.iter().map(|b| self.resolve(b)).collect();
        // An optional value (`anyOf: [T, null]`) that is not null is checked as a `T`, so that
        // its own problems (an enum's allowed values, a nested path) are reported.
        if let [first, second] = resolved[..] {
            match (is_null_type(first), is_null_type(second)) {
                (true, false) => return self.check_node(second, value, path, out, depth + 1),
                (false, true) => return self.check_node(first, value, path, out, depth + 1),
                _ => {}
            }
        }
        if let Some(tag) = discriminator(&resolved) {
            return self.check_tagged(&resolved, &tag, value, path, out, depth);
        }
        let constants: Option<Vec<Value>> = resolved.iter().try_fold(Vec::new(), |mut all, b| {
            all.extend(constants_of(b)?);
            Some(all)
        });
        if let Some(allowed) = constants {
            if !allowed.contains(value) {
                out.push(enum_violation(path.to_path(), allowed, value));
            }
            return;
        }
        let mut best: Option<Vec<Violation>> = None;
        for branch in &resolved {
            let mut attempt = Vec::new();
            self.check_node(branch, value, path, &mut attempt, depth + 1);
            if attempt.is_empty() {
                return;
            }
            let wrong_type_only = attempt.len() == 1
                && path.is(&attempt[0].path)
                && matches!(
                    attempt[0].kind,
                    ViolationKind::TypeMismatch { .. } | ViolationKind::Enum { .. }
                );
            if !wrong_type_only && best.as_ref().is_none_or(|b| attempt.len() < b.len()) {
                best = Some(attempt);
            }
        }
        match best {
            Some(best) => out.extend(best),
            None => out.push(Violation::new(
                path.to_path(),
                ViolationKind::TypeMismatch {
                    expected: self.describe_union(&resolved),
                },
                Some(value.clone()),
            )),
        }
    }

    /// An internally or adjacently tagged enum: the tag picks the branch to report on.
    fn check_tagged(
        &self,
        branches: &[&'s Value],
        tag: &str,
        value: &'s Value,
        path: &mut Position<'s>,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        let Value::Object(object) = value else {
            out.push(Violation::new(
                path.to_path(),
                ViolationKind::TypeMismatch {
                    expected: messages::type_phrase("object"),
                },
                Some(value.clone()),
            ));
            return;
        };
        let tag_schema = |branch: &&'s Value| {
            branch
                .lookup("properties")
                .and_then(|p| p.lookup(tag))
                .map(|s| self.resolve(s))
        };
        let allowed: Vec<Value> = branches
            .iter()
            .filter_map(tag_schema)
            .filter_map(constants_of)
            .flatten()
            .collect();
        let Some(given) = object.lookup(tag) else {
            out.push(Violation::new(
                path.with_key(tag),
                ViolationKind::Missing {
                    expected: messages::violation_expected(&ViolationKind::Enum {
                        allowed,
                        suggestion: None,
                    })
                    .unwrap_or_default(),
                },
                None,
            ));
            return;
        };
        let chosen = branches.iter().find(|branch| {
            tag_schema(branch)
                .and_then(constants_of)
                .is_some_and(|values| values.contains(given))
        });
        match chosen {
            Some(branch) => self.check_node(branch, value, path, out, depth + 1),
            None => out.push(enum_violation(path.with_key(tag), allowed, given)),
        }
    }

    fn describe_union(&self, branches: &[&'s Value]) -> String {
        let mut types: Vec<&str> = Vec::new();
        for branch in branches {
            types.extend(type_names_of_schema(branch));
        }
        messages::types_phrase(types)
    }

    /// A phrase for what a schema accepts, used for missing arguments and the valid call.
    pub(crate) fn describe(&self, schema: &'s Value) -> String {
        let schema = self.non_null(self.resolve(schema));
        if let Some(allowed) = constants_of(schema).or_else(|| {
            let branches = schema
                .lookup("oneOf")
                .or(schema.lookup("anyOf"))?
                .as_array()?;
            branches.iter().try_fold(Vec::new(), |mut all, b| {
                all.extend(constants_of(self.resolve(b))?);
                Some(all)
            })
        }) {
            return messages::violation_expected(&ViolationKind::Enum {
                allowed,
                suggestion: None,
            })
            .unwrap_or_default();
        }
        let types = type_names_of_schema(schema);
        if types.is_empty() {
            let branches: Vec<&Value> = ["oneOf", "anyOf"]
                .iter()
                .filter_map(|k| schema.lookup(k)?.as_array())
                .flatten()
                .map(|b| self.resolve(b))
                .collect();
            return self.describe_union(&branches);
        }
        if types == ["array"]
            && let Some(items) = schema.lookup("items")
        {
            let items = self.non_null(self.resolve(items));
            let mut item_types = type_names_of_schema(items);
            if item_types.is_empty()
                && let Some(branches) = items.lookup("oneOf").or(items.lookup("anyOf"))
            {
                let branches = branches.as_array().map(Vec::as_slice).unwrap_or_default();
                for branch in branches {
                    item_types.extend(type_names_of_schema(self.resolve(branch)));
                }
            }
            return messages::array_of(item_types);
        }
        let base = messages::types_phrase(types.iter().copied());
        let Some(keywords) = schema.as_object() else {
            return base;
        };
        let range = range_of(keywords);
        let constraint = if let Some(range) = &range {
            Some(messages::Constraint::Range(range))
        } else if let Some(pattern) = keywords.lookup("pattern").and_then(Value::as_str) {
            Some(messages::Constraint::Pattern(pattern))
        } else {
            let (min, max) = bounds(keywords, "minLength", "maxLength");
            (min.is_some() || max.is_some()).then_some(messages::Constraint::Length(min, max))
        };
        messages::describe_value(base, constraint)
    }
}

fn is_null_type(schema: &Value) -> bool {
    schema.lookup("type").and_then(Value::as_str) == Some("null")
}

/// The values a branch allows when it is a fixed set (`const` or `enum`).
fn constants_of(schema: &Value) -> Option<Vec<Value>> {
    if let Some(constant) = schema.lookup("const") {
        return Some(vec![constant.clone()]);
    }
    schema.lookup("enum").and_then(Value::as_array).cloned()
}

/// A property that every branch requires and fixes to constants: the enum's tag.
fn discriminator(branches: &[&Value]) -> Option<String> {
    let first = branches.first()?;
    let candidates = first.lookup("properties")?.as_object()?;
    candidates
        .keys()
        .find(|name| {
            branches.iter().all(|branch| {
                let required = branch
                    .lookup("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|n| n == name.as_str()));
                let fixed = branch
                    .lookup("properties")
                    .and_then(|p| p.lookup(name.as_str()))
                    .and_then(constants_of)
                    .is_some();
                required && fixed
            })
        })
        .cloned()
        .filter(|_| branches.len() > 1)
}

fn enum_violation(path: ArgPath, allowed: Vec<Value>, value: &Value) -> Violation {
    let suggestion = value.as_str().and_then(|given| {
        let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
        suggest::closest(given, names).map(|s| Value::String(s.to_string()))
    });
    Violation::new(
        path,
        ViolationKind::Enum {
            allowed,
            suggestion,
        },
        Some(value.clone()),
    )
}

fn type_names(types: &Value) -> impl Iterator<Item = &str> {
    let (single, list) = match types {
        Value::String(name) => (Some(name.as_str()), None),
        Value::Array(names) => (None, Some(names.iter().filter_map(Value::as_str))),
        _ => (None, None),
    };
    single.into_iter().chain(list.into_iter().flatten())
}

fn type_names_of_schema(schema: &Value) -> Vec<&'static str> {
    if let Some(types) = schema.lookup("type") {
        return type_names(types).filter_map(static_type).collect();
    }
    constants_of(schema)
        .map(|values| values.iter().map(json_type_name).collect())
        .unwrap_or_default()
}

fn static_type(name: &str) -> Option<&'static str> {
    [
        "integer", "number", "string", "boolean", "array", "object", "null",
    ]
    .into_iter()
    .find(|known| *known == name)
}

fn type_matches(types: &Value, value: &Value) -> bool {
    type_names(types).any(|name| match name {
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    })
}

fn bounds(
    keywords: &Map<String, Value>,
    min_keyword: &str,
    max_keyword: &str,
) -> (Option<u64>, Option<u64>) {
    (
        keywords.lookup(min_keyword).and_then(Value::as_u64),
        keywords.lookup(max_keyword).and_then(Value::as_u64),
    )
}

fn length_violation(
    keywords: &Map<String, Value>,
    min_keyword: &str,
    max_keyword: &str,
    actual: u64,
    unit: LengthUnit,
) -> Option<ViolationKind> {
    let (min, max) = bounds(keywords, min_keyword, max_keyword);
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
    keywords: &Map<String, Value>,
    text: &str,
    value: &Value,
    path: &Position<'_>,
    out: &mut Vec<Violation>,
) {
    let length = text.chars().count() as u64;
    if let Some(violation) = length_violation(
        keywords,
        "minLength",
        "maxLength",
        length,
        LengthUnit::Characters,
    ) {
        out.push(Violation::new(
            path.to_path(),
            violation,
            Some(value.clone()),
        ));
    }
    if let Some(pattern) = keywords.lookup("pattern").and_then(Value::as_str)
        && !pattern_matches(pattern, text)
    {
        out.push(Violation::new(
            path.to_path(),
            ViolationKind::Pattern {
                pattern: pattern.to_string(),
                example: first_example(keywords),
            },
            Some(value.clone()),
        ));
    }
    let format = match keywords.lookup("format").and_then(Value::as_str) {
        Some("email") if !text.validate_email() => Some(StringFormat::Email),
        Some("uri" | "url") if !text.validate_url() => Some(StringFormat::Url),
        // Formats that serde types (uuid, chrono) enforce: checked here too, so that the
        // problem is reported at its path rather than as serde's words at the root.
        Some("uuid") if uuid::Uuid::parse_str(text).is_err() => {
            Some(StringFormat::Other("uuid".into()))
        }
        Some("date") if !is_full_date(text) => Some(StringFormat::Other("date".into())),
        Some("date-time") if !is_date_time(text) => Some(StringFormat::Other("date-time".into())),
        _ => None,
    };
    if let Some(format) = format {
        out.push(Violation::new(
            path.to_path(),
            ViolationKind::Format { format },
            Some(value.clone()),
        ));
    }
}

/// RFC 3339 `full-date`: `YYYY-MM-DD` with a real day of that month.
fn is_full_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = text.get(range)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `date-time`: a full date, `T`, a time, and an offset.
fn is_date_time(text: &str) -> bool {
    static TIME: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"^[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$").ok()
    });
    let (Some(date), Some(time)) = (text.get(..10), text.get(10..)) else {
        return false;
    };
    is_full_date(date) && TIME.as_ref().is_none_or(|re| re.is_match(time))
}

fn first_example(keywords: &Map<String, Value>) -> Option<Value> {
    keywords
        .lookup("examples")
        .and_then(Value::as_array)
        .and_then(|examples| examples.first())
        .cloned()
}

/// The bounds a number schema sets, as a (not yet violated) range.
fn range_of(keywords: &Map<String, Value>) -> Option<ViolationKind> {
    let format = keywords
        .lookup("format")
        .and_then(Value::as_str)
        .unwrap_or("");
    let (format_min, format_max) = integer_format_bounds(format);
    let pick = |keyword: &str, exclusive: &str, implied: Option<i128>, lower: bool| {
        let given = keywords
            .lookup(exclusive)
            .and_then(as_number)
            .map(|n| (n, true))
            .or_else(|| {
                keywords
                    .lookup(keyword)
                    .and_then(as_number)
                    .map(|n| (n, false))
            });
        let implied = implied.and_then(number_from_i128).map(|n| (n, false));
        match (given, implied) {
            (Some(given), Some(implied)) => {
                let given_value = given.0.as_f64().unwrap_or(0.0);
                let implied_value = implied.0.as_f64().unwrap_or(0.0);
                Some(if (given_value >= implied_value) == lower {
                    given
                } else {
                    implied
                })
            }
            (given, implied) => given.or(implied),
        }
    };
    let min = pick("minimum", "exclusiveMinimum", format_min, true);
    let max = pick("maximum", "exclusiveMaximum", format_max, false);
    if min.is_none() && max.is_none() {
        return None;
    }
    Some(ViolationKind::Range {
        exclusive_min: min.as_ref().is_some_and(|m| m.1),
        exclusive_max: max.as_ref().is_some_and(|m| m.1),
        min: min.map(|m| m.0),
        max: max.map(|m| m.0),
    })
}

fn as_number(value: &Value) -> Option<Number> {
    match value {
        Value::Number(number) => Some(number.clone()),
        _ => None,
    }
}

fn number_from_i128(value: i128) -> Option<Number> {
    i64::try_from(value)
        .map(Number::from)
        .or_else(|_| u64::try_from(value).map(Number::from))
        .ok()
}

/// Compares two JSON numbers exactly when both are integers.
fn compare(a: &Number, b: &Number) -> Option<std::cmp::Ordering> {
    match (a.as_i128(), b.as_i128()) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

fn check_number(
    keywords: &Map<String, Value>,
    number: &Number,
    value: &Value,
    path: &Position<'_>,
    out: &mut Vec<Violation>,
) {
    let Some(range) = range_of(keywords) else {
        return;
    };
    let ViolationKind::Range {
        min,
        max,
        exclusive_min,
        exclusive_max,
    } = &range
    else {
        return;
    };
    use std::cmp::Ordering::{Equal, Greater, Less};
    let below = min
        .as_ref()
        .and_then(|min| compare(number, min))
        .is_some_and(|order| order == Less || (*exclusive_min && order == Equal));
    let above = max
        .as_ref()
        .and_then(|max| compare(number, max))
        .is_some_and(|order| order == Greater || (*exclusive_max && order == Equal));
    if below || above {
        out.push(Violation::new(path.to_path(), range, Some(value.clone())));
    }
}

/// Maps `validator`'s errors to violations, ordered as the arguments are declared.
pub fn violations_from_validator(errors: &ValidationErrors, info: &ToolInfo) -> Vec<Violation> {
    let walker = SchemaWalker::new(info.input_schema());
    let mut out = Vec::new();
    collect_validator(errors, &ArgPath::root(), &walker, &mut out);
    let order = info.argument_names();
    out.sort_by_cached_key(|violation| {
        let position = violation
            .path
            .top_level()
            .and_then(|name| order.iter().position(|known| known == name))
            .unwrap_or(usize::MAX);
        // The path itself, not its text: `items[2]` comes before `items[10]`.
        (position, violation.path.clone())
    });
    out
}

fn field_path(base: &ArgPath, field: &str) -> ArgPath {
    if field == "__all__" {
        base.clone()
    } else {
        base.key(field.trim_start_matches("r#"))
    }
}

fn collect_validator(
    errors: &ValidationErrors,
    base: &ArgPath,
    walker: &SchemaWalker<'_>,
    out: &mut Vec<Violation>,
) {
    for (field, kind) in errors.errors() {
        let path = field_path(base, field);
        match kind {
            ValidationErrorsKind::Field(list) => {
                for error in list {
                    out.push(violation_from_validator(error, &path, walker));
                }
            }
            ValidationErrorsKind::Struct(inner) => collect_validator(inner, &path, walker, out),
            ValidationErrorsKind::List(items) => {
                for (index, inner) in items {
                    collect_validator(inner, &path.index(*index), walker, out);
                }
            }
        }
    }
}

fn param_number(error: &ValidationError, name: &str) -> Option<Number> {
    error.params.get(name).and_then(as_number)
}

fn violation_from_validator(
    error: &ValidationError,
    path: &ArgPath,
    walker: &SchemaWalker<'_>,
) -> Violation {
    let received = error.params.get("value").cloned();
    let schema = walker.schema_at(path);
    let kind = match error.code.as_ref() {
        "range" => {
            let exclusive_min = param_number(error, "exclusive_min");
            let exclusive_max = param_number(error, "exclusive_max");
            ViolationKind::Range {
                exclusive_min: exclusive_min.is_some(),
                exclusive_max: exclusive_max.is_some(),
                min: exclusive_min.or_else(|| param_number(error, "min")),
                max: exclusive_max.or_else(|| param_number(error, "max")),
            }
        }
        "length" => {
            let equal = param_number(error, "equal").and_then(|n| n.as_u64());
            let (unit, actual) = match &received {
                Some(Value::String(text)) => (LengthUnit::Characters, text.chars().count()),
                Some(Value::Array(items)) => (LengthUnit::Items, items.len()),
                Some(Value::Object(object)) => (LengthUnit::Properties, object.len()),
                _ => (LengthUnit::Items, 0),
            };
            ViolationKind::Length {
                min: equal.or_else(|| param_number(error, "min").and_then(|n| n.as_u64())),
                max: equal.or_else(|| param_number(error, "max").and_then(|n| n.as_u64())),
                unit,
                actual: actual as u64,
            }
        }
        "regex" => match schema
            .and_then(|s| s.lookup("pattern"))
            .and_then(Value::as_str)
        {
            Some(pattern) => ViolationKind::Pattern {
                pattern: pattern.to_string(),
                example: schema.and_then(Value::as_object).and_then(first_example),
            },
            None => ViolationKind::Custom {
                code: "regex".into(),
                message: error.message.as_deref().map(str::to_string),
            },
        },
        "email" => ViolationKind::Format {
            format: StringFormat::Email,
        },
        "url" => ViolationKind::Format {
            format: StringFormat::Url,
        },
        "ip" | "ipv4" | "ipv6" | "credit_card" => ViolationKind::Format {
            format: StringFormat::Other(error.code.to_string()),
        },
        "required" => ViolationKind::Missing {
            expected: schema.map(|s| walker.describe(s)).unwrap_or_default(),
        },
        code => ViolationKind::Custom {
            code: code.to_string(),
            message: error.message.as_deref().map(str::to_string),
        },
    };
    Violation::new(path.clone(), kind, received)
}

/// The "Valid call" line of a tool: each argument with what it accepts.
pub(crate) fn signature(schema: &Value) -> String {
    let walker = SchemaWalker::new(schema);
    let root = walker.resolve(schema);
    let required = required_names(root.lookup("required"));
    root.lookup("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                .map(|(name, property)| {
                    messages::signature_entry(
                        name,
                        &walker.describe(property),
                        required.contains(&name.as_str()),
                        property.lookup("default"),
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_position_becomes_the_path_it_names() {
        let mut position = Position::default();
        position.push_key("items");
        position.push_index(2);
        let path = ArgPath::argument("items").index(2);
        assert_eq!(position.to_path(), path);
        assert!(position.is(&path));
        assert!(!position.is(&ArgPath::argument("items")));
        assert!(!position.is(&ArgPath::argument("items").key("2")));
        assert_eq!(position.with_key("qty"), path.key("qty"));
        position.pop();
        assert!(position.is(&ArgPath::argument("items")));
    }

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
        let schema = schema();
        SchemaWalker::new(&schema)
            .check(&value)
            .iter()
            .map(Violation::message)
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
        assert_eq!(
            signature(&schema()),
            "quantity: an integer between 1 and 100, sku: a string matching `^[A-Z]{3}-[0-9]{4}$`, sort?: one of 'asc', 'desc', items?: an array of objects"
        );
    }
}

//! The rules each schema profile promises, checked on published schemas. Written from
//! `mcp-facts.md` and the schema issue, independently of the code that shapes the schemas:
//! a rule broken here is a client that would reject the tool.

use serde_json::{Map, Value};

/// One broken rule: where (a JSON pointer into the schema) and which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// JSON pointer of the offending node.
    pub at: String,
    /// What is wrong.
    pub rule: String,
}

/// Keywords whose values are sub-schemas, or maps or lists of them.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "$defs",
    "patternProperties",
    "dependentSchemas",
];
const SCHEMA_LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_SINGLE: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
];

/// Integer formats that are not JSON Schema formats (schemars writes them).
const NON_STANDARD_FORMATS: &[&str] = &[
    "int8", "int16", "int32", "int64", "int128", "int", "uint8", "uint16", "uint32", "uint64",
    "uint128", "uint", "float", "double",
];

/// OpenAI strict mode's keywords (structured outputs documentation).
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// Gemini's OpenAPI 3.0 `Schema` fields.
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "anyOf",
    "items",
    "minimum",
    "maximum",
    "default",
];

struct Walk<'a> {
    root: &'a Value,
    findings: Vec<Finding>,
}

impl Walk<'_> {
    fn add(&mut self, at: &str, rule: impl Into<String>) {
        self.findings.push(Finding {
            at: if at.is_empty() { "/".into() } else { at.into() },
            rule: rule.into(),
        });
    }

    fn resolves(&self, reference: &str) -> bool {
        if reference == "#" {
            return true;
        }
        reference
            .strip_prefix("#/$defs/")
            .and_then(|name| self.root.get("$defs")?.get(name))
            .is_some()
    }
}

/// Visits every schema node with its pointer and whether it sits below an `items`.
fn visit(node: &Value, at: &str, in_items: bool, f: &mut dyn FnMut(&Value, &str, bool)) {
    f(node, at, in_items);
    let Value::Object(object) = node else {
        return;
    };
    for (key, child) in object {
        let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
        if SCHEMA_MAPS.contains(&key.as_str()) {
            if let Value::Object(map) = child {
                for (name, sub) in map {
                    let path = format!("{here}/{}", name.replace('~', "~0").replace('/', "~1"));
                    visit(sub, &path, in_items, f);
                }
            }
        } else if SCHEMA_LISTS.contains(&key.as_str()) {
            if let Value::Array(list) = child {
                for (i, sub) in list.iter().enumerate() {
                    visit(sub, &format!("{here}/{i}"), in_items, f);
                }
            }
        } else if SCHEMA_SINGLE.contains(&key.as_str()) {
            visit(child, &here, in_items || key == "items", f);
        }
    }
}

fn is_object_schema(object: &Map<String, Value>) -> bool {
    object.get("type").and_then(Value::as_str) == Some("object")
}

fn has_null_type(object: &Map<String, Value>) -> bool {
    match object.get("type") {
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        Some(Value::String(t)) => t == "null",
        _ => false,
    }
}

fn admits_null(schema: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        return schema == &Value::Bool(true);
    };
    has_null_type(object)
        || object
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|v| v.iter().any(Value::is_null))
        || object
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|b| b.iter().any(admits_null))
}

/// Rules shared by every profile but `full`: an object root, resolvable references.
fn common(schema: &Value, walk: &mut Walk<'_>) {
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        walk.add("", "the root must be `type: object`");
    }
    let mut refs = Vec::new();
    visit(schema, "", false, &mut |node, at, _| {
        if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            refs.push((at.to_string(), reference.to_string()));
        }
    });
    for (at, reference) in refs {
        if !walk.resolves(&reference) {
            walk.add(&at, format!("`$ref` {reference} does not resolve"));
        }
    }
}

/// The portable profile (the core issue's rules, and what Inspector 2.x `--strict` flags):
/// no `$schema`; no non-standard formats; `$ref` only into `$defs` of recursive types; no
/// `type` arrays; no bare boolean schemas; optional input properties not nullable; no boolean
/// `additionalProperties` (google-genai's MCP conversion fails on every tool with one, issue
/// 27).
pub fn portable(schema: &Value, input: bool) -> Vec<Finding> {
    let mut walk = Walk {
        root: schema,
        findings: Vec::new(),
    };
    common(schema, &mut walk);
    if schema.get("$schema").is_some() {
        walk.add("", "no `$schema`");
    }
    let mut found = Vec::new();
    visit(schema, "", false, &mut |node, at, _| {
        let Value::Object(object) = node else {
            if at.ends_with("/additionalProperties") {
                found.push((
                    at.to_string(),
                    "no boolean `additionalProperties`".to_string(),
                ));
                return;
            }
            found.push((at.to_string(), "no bare boolean schema".to_string()));
            return;
        };
        if matches!(object.get("type"), Some(Value::Array(_))) {
            found.push((at.to_string(), "no `type` array".into()));
        }
        if let Some(format) = object.get("format").and_then(Value::as_str)
            && NON_STANDARD_FORMATS.contains(&format)
        {
            found.push((at.to_string(), format!("non-standard format `{format}`")));
        }
        if object.keys().all(|k| {
            matches!(
                k.as_str(),
                "title" | "description" | "default" | "examples" | "$comment" | "deprecated"
            )
        }) {
            found.push((at.to_string(), "an untyped schema accepts anything".into()));
        }
        if input && let Some(Value::Object(properties)) = object.get("properties") {
            let required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (name, property) in properties {
                if !required.contains(&name.as_str()) && admits_null(property) {
                    found.push((
                        format!("{at}/properties/{name}"),
                        "an optional argument is left out, not nullable".into(),
                    ));
                }
            }
        }
    });
    for (at, rule) in found {
        walk.add(&at, rule);
    }
    walk.findings
}

/// The strict profile (OpenAI strict mode): every object closed with
/// `additionalProperties: false`, every property required, only supported keywords, no `$ref`
/// (openai-agents's MCP conversion falls back to non-strict on one, issue 27).
pub fn strict(schema: &Value) -> Vec<Finding> {
    let mut walk = Walk {
        root: schema,
        findings: Vec::new(),
    };
    common(schema, &mut walk);
    let mut found = Vec::new();
    visit(schema, "", false, &mut |node, at, _| {
        let Value::Object(object) = node else {
            if node != &Value::Bool(false) || !at.ends_with("/additionalProperties") {
                found.push((at.to_string(), "no bare boolean schema".to_string()));
            }
            return;
        };
        for key in object.keys() {
            if !STRICT_KEYWORDS.contains(&key.as_str()) {
                found.push((at.to_string(), format!("unsupported keyword `{key}`")));
            }
        }
        if object.contains_key("$ref") {
            found.push((at.to_string(), "no `$ref`".into()));
        }
        let objectish = is_object_schema(object) || object.contains_key("properties");
        if objectish {
            if object.get("additionalProperties") != Some(&Value::Bool(false)) {
                found.push((at.to_string(), "`additionalProperties: false`".into()));
            }
            let required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = object.get("properties") {
                for name in properties.keys() {
                    if !required.contains(&name.as_str()) {
                        found.push((at.to_string(), format!("property `{name}` not required")));
                    }
                }
            }
        }
        if object
            .get("additionalProperties")
            .is_some_and(Value::is_object)
        {
            found.push((at.to_string(), "an open map".into()));
        }
    });
    for (at, rule) in found {
        walk.add(&at, rule);
    }
    walk.findings
}

/// The gemini profile (OpenAPI 3.0 subset): no `additionalProperties`, `$schema`,
/// `$defs`/`$ref`; no `anyOf` inside `items`; single `type`s; only Gemini's keywords.
pub fn gemini(schema: &Value) -> Vec<Finding> {
    let mut walk = Walk {
        root: schema,
        findings: Vec::new(),
    };
    common(schema, &mut walk);
    let mut found = Vec::new();
    visit(schema, "", false, &mut |node, at, in_items| {
        let Value::Object(object) = node else {
            found.push((at.to_string(), "no bare boolean schema".to_string()));
            return;
        };
        for key in ["additionalProperties", "$schema", "$defs", "$ref"] {
            if object.contains_key(key) {
                found.push((at.to_string(), format!("no `{key}`")));
            }
        }
        for key in object.keys() {
            if !GEMINI_KEYWORDS.contains(&key.as_str()) {
                found.push((at.to_string(), format!("unsupported keyword `{key}`")));
            }
        }
        if in_items && object.contains_key("anyOf") {
            found.push((at.to_string(), "no `anyOf` inside `items`".into()));
        }
        if matches!(object.get("type"), Some(Value::Array(_))) {
            found.push((at.to_string(), "a single `type`".into()));
        }
    });
    for (at, rule) in found {
        walk.add(&at, rule);
    }
    walk.findings
}

/// Tool names: OpenAI takes `^[a-zA-Z0-9_-]{1,64}$`; Gemini a letter or `_` first, 64 at most.
pub fn name_ok(profile: &str, name: &str) -> bool {
    let len = name.chars().count();
    match profile {
        "strict" => {
            (1..=64).contains(&len)
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        }
        "gemini" => {
            len <= 64
                && name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        }
        _ => (1..=128).contains(&len),
    }
}

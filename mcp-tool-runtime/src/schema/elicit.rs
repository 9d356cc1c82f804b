//! The form of an elicitation (`ToolContext::elicit`), from the schema of the type asked
//! for.
//!
//! The spec allows a flat object of strings, numbers, integers, booleans and choices
//! (single- or multi-select, titled or not). schemars writes more than that: `$ref`s to
//! `$defs`, `null` in optional fields, number formats, a variant's doc comment as a `oneOf`
//! of `const`s. Those are rewritten into the spec's forms here; what cannot be one (a nested
//! object, a list of free text, a recursive type) is refused, naming the field.

use rmcp::model::{ElicitationSchema, PrimitiveSchemaDefinition};
use schemars::JsonSchema;
use serde_json::{Map, Value, json};

use super::generate::input_schema;
use super::rewrite::{
    drop_null, inline_document, is_object_type, merge_all_of, number_format_as_bounds,
    owned_required_names,
};

/// String formats an elicitation field may carry; others are dropped (the form still asks
/// for a string, and the answer is still deserialized into the field's type).
const FORM_FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// The elicitation form of `T`, or why `T` cannot be one (for the server's log).
pub(crate) fn elicitation_form<T: JsonSchema>() -> Result<ElicitationSchema, String> {
    let (mut root, recursive) = inline_document(&input_schema::<T>());
    if !recursive.is_empty() {
        let names: Vec<&str> = recursive.keys().map(String::as_str).collect();
        return Err(format!("it is recursive (through {})", names.join(", ")));
    }
    let Value::Object(object) = &mut root else {
        return Err("its schema is not an object".into());
    };
    merge_all_of(object);
    if !is_object_type(object) {
        return Err("a form is an object of fields, and its schema is not an object".into());
    }
    let required = owned_required_names(object);
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for (name, field) in properties.iter_mut() {
            if !required.contains(name) {
                drop_null(field);
            }
            shape_field(field);
            if serde_json::from_value::<PrimitiveSchemaDefinition>(field.clone()).is_err() {
                return Err(format!(
                    "field '{name}' is not a string, a number, an integer, a boolean or a list \
                     of choices ({field})"
                ));
            }
        }
    }
    ElicitationSchema::from_json_schema(std::mem::take(object)).map_err(|error| error.to_string())
}

/// One field in the spec's spelling: number formats as bounds, only the string formats a
/// form knows, choices as `enum` or as titled `oneOf` (`anyOf` in a multi-select's items).
fn shape_field(field: &mut Value) {
    let Value::Object(field) = field else {
        return;
    };
    number_format_as_bounds(field);
    let unknown_format = field
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|format| !FORM_FORMATS.contains(&format));
    if unknown_format {
        field.remove("format");
    }
    spell_choices(field, "oneOf");
    if let Some(Value::Object(items)) = field.get_mut("items") {
        spell_choices(items, "anyOf");
    }
}

/// A `oneOf`/`anyOf` of string constants (a unit enum whose variants have a title or a doc
/// comment) as the spec's choices: titled under `titled_keyword` when any variant has a
/// title or description, else a plain `enum`.
fn spell_choices(field: &mut Map<String, Value>, titled_keyword: &str) {
    let Some((keyword, choices)) = ["oneOf", "anyOf"].into_iter().find_map(|keyword| {
        let branches = field.get(keyword)?.as_array()?;
        let choices = branches.iter().map(choice).collect::<Option<Vec<_>>>()?;
        Some((keyword, choices))
    }) else {
        return;
    };
    if choices.is_empty() {
        return;
    }
    field.remove(keyword);
    field.insert("type".into(), json!("string"));
    if choices.iter().all(|(_, title)| title.is_none()) {
        let values: Vec<&str> = choices.iter().map(|(value, _)| value.as_str()).collect();
        field.insert("enum".into(), json!(values));
        return;
    }
    let titled: Vec<Value> = choices
        .iter()
        .map(|(value, title)| json!({"const": value, "title": title.as_deref().unwrap_or(value)}))
        .collect();
    field.insert(titled_keyword.into(), Value::Array(titled));
}

/// A branch that is one string constant, with its title (or else its description).
fn choice(branch: &Value) -> Option<(String, Option<String>)> {
    let value = branch.get("const")?.as_str()?.to_string();
    let text = |key: &str| branch.get(key).and_then(Value::as_str).map(str::to_string);
    Some((value, text("title").or_else(|| text("description"))))
}

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde_json::json;

    use super::*;

    fn form<T: JsonSchema>() -> Value {
        elicitation_form::<T>()
            .map(|schema| serde_json::to_value(schema).unwrap_or_default())
            .unwrap_or_else(|problem| json!({"problem": problem}))
    }

    #[derive(JsonSchema, serde::Serialize)]
    #[allow(dead_code)]
    enum Status {
        Active,
        Inactive,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    enum Plan {
        /// The free plan.
        Free,
        #[schemars(title = "Pro (paid)")]
        Pro,
    }

    /// Who you are.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Profile {
        /// Your name.
        name: String,
        age: u8,
        #[schemars(email)]
        email: Option<String>,
        #[schemars(extend("format" = "hostname"))]
        host: Option<String>,
        score: f64,
        verified: bool,
        #[serde(default = "active")]
        status: Status,
        plan: Option<Plan>,
        plans: Vec<Plan>,
        statuses: Vec<Status>,
    }

    fn active() -> Status {
        Status::Active
    }

    #[test]
    fn a_flat_struct_becomes_the_spec_form() {
        assert_eq!(
            form::<Profile>(),
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Your name."},
                    "age": {"type": "integer", "minimum": 0, "maximum": 255},
                    "email": {"type": "string", "format": "email"},
                    "host": {"type": "string"},
                    "score": {"type": "number"},
                    "verified": {"type": "boolean"},
                    "status": {"type": "string", "enum": ["Active", "Inactive"], "default": "Active"},
                    "plan": {"type": "string", "oneOf": [
                        {"const": "Free", "title": "The free plan."},
                        {"const": "Pro", "title": "Pro (paid)"}
                    ]},
                    "plans": {"type": "array", "items": {"anyOf": [
                        {"const": "Free", "title": "The free plan."},
                        {"const": "Pro", "title": "Pro (paid)"}
                    ]}},
                    "statuses": {"type": "array", "items": {"type": "string", "enum": ["Active", "Inactive"]}}
                },
                "required": ["name", "age", "score", "verified", "plans", "statuses"],
                "description": "Who you are."
            })
        );
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Nested {
        name: String,
        address: Address,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        city: String,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Tags {
        tags: Vec<String>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Tree {
        children: Vec<Tree>,
    }

    #[test]
    fn what_a_form_cannot_hold_is_refused_naming_the_field() {
        assert_eq!(
            form::<Nested>(),
            json!({"problem": "field 'address' is not a string, a number, an integer, a boolean \
                or a list of choices ({\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]})"})
        );
        assert!(
            form::<Tags>()["problem"]
                .as_str()
                .is_some_and(|problem| problem.starts_with("field 'tags' is not"))
        );
        // A self-reference is `{"$ref": "#"}`, which no form field matches.
        assert!(
            form::<Tree>()["problem"]
                .as_str()
                .is_some_and(|problem| problem.starts_with("field 'children' is not"))
        );
        assert_eq!(
            form::<u32>(),
            json!({"problem": "a form is an object of fields, and its schema is not an object"})
        );
    }
}

//! `custom(function = f)` on every kind of argument type `validator` passes differently:
//! a number by value, anything else by reference, inside `Option`s, a `Cow` as `&str`; a
//! function taking `&str` for a `String`, a generic function, a path and a string path,
//! `message` and `code`. Each is handed to the derive through a wrapper with the signature
//! `validator` calls; the calls below show every rule still runs. And `nested` on every
//! shape `validator` accepts, which the compile-time check of `nested` must accept too.

use std::borrow::Cow;
use std::collections::HashMap;

use mcp_tool_runtime::validator::ValidationError;
use mcp_tool_runtime::{McpServer, mcp_tool};
use serde_json::json;

fn rule(ok: bool) -> Result<(), ValidationError> {
    if ok {
        Ok(())
    } else {
        Err(ValidationError::new("rule").with_message("is refused".into()))
    }
}

fn not_admin(name: &str) -> Result<(), ValidationError> {
    rule(name != "admin")
}

fn short(name: &String) -> Result<(), ValidationError> {
    rule(name.len() < 10)
}

fn even(seats: u32) -> Result<(), ValidationError> {
    rule(seats % 2 == 0)
}

fn finite(ratio: f64) -> Result<(), ValidationError> {
    rule(ratio.is_finite() && ratio < 1.0)
}

fn not_blank<T: AsRef<str>>(text: &T) -> Result<(), ValidationError> {
    rule(!text.as_ref().trim().is_empty())
}

fn few(tags: &[String]) -> Result<(), ValidationError> {
    rule(tags.len() < 3)
}

// `validator` knows `Option<i64>` as a number, not `std::option::Option<i64>`: it passes
// the latter's value by reference.
fn positive(delta: &i64) -> Result<(), ValidationError> {
    rule(*delta > 0)
}

mod checks {
    use mcp_tool_runtime::validator::ValidationError;

    pub fn lowercase(code: &str) -> Result<(), ValidationError> {
        super::rule(code == code.to_lowercase())
    }
}

/// Every kind of custom rule.
#[mcp_tool]
fn customs(
    #[validate(custom(function = not_admin), custom(function = "short"))] name: String,
    #[validate(custom(function = even, message = "an even number", code = "even"))] seats: u32,
    #[validate(custom(function = finite))] ratio: f64,
    #[validate(custom(function = not_blank))] note: Option<String>,
    #[validate(custom(function = even))] spare: Option<u32>,
    #[validate(custom(function = positive))] delta: std::option::Option<i64>,
    #[validate(custom(function = few))] tags: Vec<String>,
    #[validate(custom(function = checks::lowercase))] code: Cow<'static, str>,
) -> String {
    format!("{name} {seats} {ratio} {note:?} {spare:?} {delta:?} {tags:?} {code}")
}

/// A line of an order.
#[derive(
    Debug, serde::Deserialize, schemars::JsonSchema, mcp_tool_runtime::validator::Validate,
)]
#[validate(crate = "mcp_tool_runtime::validator")]
struct Line {
    #[validate(range(min = 1))]
    quantity: u32,
}

/// Every shape of nested argument.
#[mcp_tool]
fn nesteds(
    #[validate(nested)] line: Line,
    #[validate(nested)] extra: Option<Line>,
    #[validate(nested)] lines: Vec<Line>,
    #[validate(nested)] named: HashMap<String, Line>,
) -> String {
    format!("{line:?} {extra:?} {lines:?} {named:?}")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = McpServer::builder(())
        .tool(customs_tool())
        .tool(nesteds_tool())
        .build()
        .unwrap();
    let valid = json!({
        "name": "lamp", "seats": 2, "ratio": 0.5, "note": "gift", "spare": 4, "delta": 1,
        "tags": ["a"], "code": "abc",
    });
    let result = server.call("customs", Some(valid)).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");

    let invalid = json!({
        "name": "admin", "seats": 3, "ratio": 2.0, "note": " ", "spare": 5, "delta": -1,
        "tags": ["a", "b", "c"], "code": "ABC",
    });
    let result = server.call("customs", Some(invalid)).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    let text = format!("{:?}", result.content);
    for argument in [
        "name", "seats", "ratio", "note", "spare", "delta", "tags", "code",
    ] {
        assert!(
            text.contains(&format!("Argument '{argument}' ")),
            "{argument} is reported: {text}"
        );
    }

    let invalid = json!({
        "line": {"quantity": 0}, "extra": {"quantity": 0}, "lines": [{"quantity": 0}],
        "named": {"a": {"quantity": 0}},
    });
    let result = server.call("nesteds", Some(invalid)).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    let text = format!("{:?}", result.content);
    // A map's entry is left out: `validator` numbers map entries in the map's own order
    // (`named[0]`) and loses the key, which the runtime cannot recover.
    for path in ["line.quantity", "extra.quantity", "lines[0].quantity"] {
        assert!(
            text.contains(&format!("Argument '{path}' ")),
            "{path} is reported: {text}"
        );
    }
}

//! Numbers: the bounds a Rust number type implies, published where JSON clients can hold
//! them exactly (±2^53) and always enforced by the runtime with its range error.

use mcp_tool_runtime::{McpServer, SchemaProfile, mcp_tool};
use mcp_tool_test_support::results::{call, ok_text, violation_messages};
use serde_json::{Value, json};

use crate::fixtures::published;

/// Look up an account by integers of every width past 32 bits.
#[mcp_tool]
#[allow(clippy::too_many_arguments)]
pub(crate) fn account(
    #[validate(range(min = 1))] user_id: i64,
    page: u64,
    offset: i32,
    count: u32,
    total: i128,
    big: u128,
    size: usize,
    delta: isize,
) -> String {
    format!("{user_id} {page} {offset} {count} {total} {big} {size} {delta}")
}

/// Scale a measurement.
#[mcp_tool]
pub(crate) fn scale(
    ratio: f32,
    #[validate(range(min = 0.0, max = 10.0))] factor: f32,
    precise: f64,
    #[validate(length(min = 2))] unit: String,
) -> String {
    format!("{ratio} {factor} {precise} {unit}")
}

fn server(profile: SchemaProfile) -> McpServer<()> {
    McpServer::builder(())
        .tool(account_tool())
        .tool(scale_tool())
        .schema_profile(profile)
        .build()
        .expect("server")
}

fn properties(profile: SchemaProfile, tool: &str) -> Value {
    published(&server(profile), tool)["inputSchema"]["properties"].clone()
}

const ACCOUNT: &str = r#"{"user_id": 1, "page": 0, "offset": 0, "count": 0, "total": 0, "big": 0, "size": 0, "delta": 0}"#;

fn account_with(name: &str, value: Value) -> Value {
    let mut arguments: Value = serde_json::from_str(ACCOUNT).expect("valid JSON");
    arguments[name] = value;
    arguments
}

#[test]
fn integer_bounds_past_2_53_are_left_out_of_every_profile() {
    for profile in [
        SchemaProfile::Portable,
        SchemaProfile::Strict,
        SchemaProfile::Gemini,
    ] {
        let properties = properties(profile, "account");
        let expected = json!({
            "user_id": {"type": "integer", "minimum": 1},
            "page": {"type": "integer", "minimum": 0},
            "offset": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647},
            "count": {"type": "integer", "minimum": 0, "maximum": 4294967295_u64},
            "total": {"type": "integer"},
            "big": {"type": "integer", "minimum": 0},
            "size": {"type": "integer", "minimum": 0},
            "delta": {"type": "integer"},
        });
        assert_eq!(properties, expected, "{profile}");
    }
}

#[tokio::test]
async fn integers_outside_the_rust_type_get_the_range_error() {
    let server = server(SchemaProfile::Portable);
    let cases = [
        (
            "user_id",
            json!(9223372036854775808_u64),
            "Argument 'user_id' must be between 1 and 9223372036854775807, but received 9223372036854775808.",
        ),
        (
            "page",
            json!(-1),
            "Argument 'page' must be between 0 and 18446744073709551615, but received -1.",
        ),
        (
            "total",
            serde_json::from_str("-10000000000000000000").expect("a JSON number"),
            "Argument 'total' must be between -9223372036854775808 and 18446744073709551615, but received -1e+19.",
        ),
    ];
    for (name, value, message) in cases {
        let result = call(&server, "account", account_with(name, value)).await;
        assert_eq!(violation_messages(&result), [message], "{name}");
    }
}

#[tokio::test]
async fn two_to_the_64_is_past_u64_max_though_both_round_to_one_float() {
    let server = server(SchemaProfile::Portable);
    let beyond: Value = serde_json::from_str("18446744073709551616").expect("a JSON number");
    let result = call(&server, "account", account_with("size", beyond)).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'size' must be between 0 and 18446744073709551615, but received 1.8446744073709552e+19."
        ]
    );
}

#[tokio::test]
async fn integers_at_the_ends_of_the_rust_type_are_accepted() {
    let server = server(SchemaProfile::Portable);
    let arguments = json!({
        "user_id": i64::MAX, "page": u64::MAX, "offset": i32::MIN, "count": u32::MAX,
        "total": i64::MIN, "big": u64::MAX, "size": u64::MAX, "delta": i64::MIN,
    });
    let result = call(&server, "account", arguments).await;
    assert_eq!(
        ok_text(&result),
        format!(
            "{} {} {} {} {} {} {} {}",
            i64::MAX,
            u64::MAX,
            i32::MIN,
            u32::MAX,
            i64::MIN,
            u64::MAX,
            u64::MAX,
            i64::MIN
        )
    );
}

#[test]
fn an_f32_publishes_its_range_and_an_f64_none() {
    for profile in [
        SchemaProfile::Portable,
        SchemaProfile::Strict,
        SchemaProfile::Gemini,
    ] {
        let properties = properties(profile, "scale");
        assert_eq!(
            properties["ratio"],
            json!({"type": "number", "minimum": -3.4028234663852886e38, "maximum": 3.4028234663852886e38}),
            "{profile}"
        );
        assert_eq!(
            properties["factor"],
            json!({"type": "number", "minimum": 0.0, "maximum": 10.0}),
            "{profile}"
        );
        assert_eq!(
            properties["precise"],
            json!({"type": "number"}),
            "{profile}"
        );
    }
}

#[tokio::test]
async fn a_number_past_f32_max_is_a_range_error_not_infinity() {
    let server = server(SchemaProfile::Portable);
    let result = call(
        &server,
        "scale",
        json!({"ratio": 1e308, "factor": 1.0, "precise": 1.0, "unit": "mm"}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'ratio' must be between -3.4028234663852886e+38 and 3.4028234663852886e+38, but received 1e+308."
        ]
    );
}

#[tokio::test]
async fn an_f32_overflow_is_reported_beside_the_other_problems() {
    let server = server(SchemaProfile::Portable);
    let arguments = json!({"ratio": -1e39, "factor": 11.0, "precise": 1e308, "unit": "m"});
    let result = call(&server, "scale", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'ratio' must be between -3.4028234663852886e+38 and 3.4028234663852886e+38, but received -1e+39.",
            "Argument 'factor' must be between 0.0 and 10.0, but received 11.0.",
            "Argument 'unit' must be at least 2 characters long, but received 'm' (1 character).",
        ]
    );
}

#[tokio::test]
async fn f32_max_itself_and_any_f64_are_accepted() {
    let server = server(SchemaProfile::Portable);
    // As a client writes it: read one ulp off, it would be past the published maximum.
    let arguments: Value = serde_json::from_str(
        r#"{"ratio": 3.4028234663852886e+38, "factor": 10, "precise": 1e308, "unit": "mm"}"#,
    )
    .expect("valid JSON");
    let result = call(&server, "scale", arguments).await;
    assert_eq!(
        ok_text(&result),
        format!("{} 10 {} mm", f32::MAX, 1e308_f64)
    );
}

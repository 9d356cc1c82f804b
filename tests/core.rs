//! In-process integration tests of the core contract of `#[mcp_tool]`: messages, the error
//! envelope, error codes, masking, unknown tools, schemas, return types, tool sets and
//! whole-input structs. Every call goes through `McpServer::call`, exactly as `tools/call`
//! would.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_tool_runtime::rmcp::model::{
    CallToolResult, ContentBlock, ErrorCode as RpcCode, ErrorData,
};
use mcp_tool_runtime::{
    ErrorClass, ErrorCode, Json, McpServer, RegistryError, SchemaProfile, ToolError, ToolSet,
    mcp_tool, mcp_tools,
};
use mcp_tool_test_support::results::{
    assert_portable, assert_valid_2020_12, call, envelope, ok_text, text, tool_json, violation_at,
    violation_messages, wire,
};
use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use validator::Validate;

// ---------------------------------------------------------------------------------------
// Tools under test
// ---------------------------------------------------------------------------------------

static SKU: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("^[A-Z]{3}-[0-9]{4}$").expect("a valid pattern"));

/// A priced quantity.
#[derive(Debug, Serialize, JsonSchema)]
struct Quote {
    sku: String,
    total_cents: u64,
}

/// Price a quantity of one catalog item.
///
/// # Arguments
/// * `sku` - Catalog code such as "ABC-0001".
/// * `quantity` - How many to price.
#[mcp_tool(read_only)]
fn quote(
    #[validate(length(equal = 8))] sku: String,
    #[validate(range(min = 1, max = 100))] quantity: u32,
) -> Result<Json<Quote>, ToolError> {
    Ok(Json(Quote {
        sku,
        total_cents: 250 * u64::from(quantity),
    }))
}

/// A postal address.
#[derive(Debug, Deserialize, JsonSchema)]
struct Address {
    street: String,
    zip: u32,
}

/// Takes one argument of each JSON type.
#[mcp_tool]
fn every_type(
    quantity: i64,
    name: String,
    price: f64,
    gift: bool,
    tags: Vec<String>,
    address: Address,
) -> String {
    format!(
        "{quantity} {name} {price} {gift} {} {} {}",
        tags.len(),
        address.street,
        address.zip
    )
}

fn must_be_even(seats: u32) -> Result<(), validator::ValidationError> {
    if seats.is_multiple_of(2) {
        Ok(())
    } else {
        Err(validator::ValidationError::new("even")
            .with_message("seats come in pairs, so the number must be even".into()))
    }
}

/// Register a customer.
#[mcp_tool]
fn register(
    #[validate(length(min = 3, max = 20))] name: String,
    #[validate(email)] email: String,
    #[validate(url)] homepage: String,
    #[validate(regex(path = *SKU))]
    #[arg(example = "ABC-0001")]
    favourite_sku: String,
    #[validate(range(min = 18, max = 130))] age: u8,
    #[validate(length(min = 1, max = 3))] tags: Vec<String>,
    #[validate(custom(function = must_be_even))] seats: u32,
) -> String {
    format!("{name} {email} {homepage} {favourite_sku} {age} {tags:?} {seats}")
}

/// Result order by price.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Sort {
    #[default]
    Asc,
    Desc,
}

/// Search the catalog.
///
/// # Arguments
/// * `query` - Words to look for.
/// * `sort` - Order of the results by price.
/// * `limit` - How many results at most.
/// * `exact` - Match whole words only.
/// * `page` - Which page of results.
/// * `then_by` - A second sort order.
#[mcp_tool(read_only, idempotent)]
fn search(
    query: String,
    #[arg(default)] sort: Sort,
    #[validate(range(min = 1, max = 50))]
    #[arg(default = 10)]
    limit: u32,
    #[arg(default)] exact: bool,
    page: Option<u32>,
    then_by: Option<Sort>,
) -> String {
    format!("{query} sort={sort:?} limit={limit} exact={exact} page={page:?} then_by={then_by:?}")
}

/// Say hello.
#[mcp_tool]
fn hello() -> &'static str {
    "hello"
}

/// Do nothing, successfully.
#[mcp_tool]
fn noop() {}

/// A red pixel.
#[mcp_tool]
fn pixel() -> Vec<ContentBlock> {
    vec![
        ContentBlock::image("iVBORw0KGgo=", "image/png"),
        ContentBlock::text("a red pixel"),
    ]
}

/// A hand-made result.
#[mcp_tool]
fn raw_result() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text("one"), ContentBlock::text("two")])
}

/// A catalog item.
#[derive(Debug, Serialize, JsonSchema)]
struct Item {
    sku: String,
    price_cents: u32,
}

/// List items.
#[mcp_tool(read_only)]
fn list_items(#[arg(default = 2)] count: u32) -> Json<Vec<Item>> {
    Json(
        (0..count)
            .map(|i| Item {
                sku: format!("ABC-000{i}"),
                price_cents: 100 * i,
            })
            .collect(),
    )
}

/// Read a file that is not there.
#[mcp_tool]
fn read_secret() -> Result<String, std::io::Error> {
    Err(std::io::Error::other(
        "open /etc/secret-token failed: permission denied",
    ))
}

fn load_config() -> Result<String, std::io::Error> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        "db password file /run/secrets/db missing",
    ))
}

/// Load the configuration with `?`.
#[mcp_tool]
fn load_with_question_mark() -> Result<String, ToolError> {
    let config = load_config()?;
    Ok(config)
}

/// Panic, synchronously.
#[mcp_tool]
fn explode(#[arg(default)] note: String) -> String {
    panic!("secret panic detail: {note}");
}

/// Panic after an await point.
#[mcp_tool]
async fn explode_later() -> String {
    tokio::task::yield_now().await;
    panic!("secret async panic detail");
}

/// Add two numbers after a short wait.
#[mcp_tool]
async fn slow_add(a: i64, b: i64) -> String {
    tokio::time::sleep(Duration::from_millis(20)).await;
    (a + b).to_string()
}

/// Find a user.
#[mcp_tool]
fn get_user(id: i64) -> Result<String, ToolError> {
    Err(ToolError::not_found(format!("No user with id {id}."))
        .with_hint("Call list_users to see valid ids."))
}

const OUT_OF_STOCK: ErrorCode = ErrorCode::custom("out_of_stock", ErrorClass::Input, false);

/// Reserve stock.
#[mcp_tool]
fn reserve(sku: String) -> Result<String, ToolError> {
    Err(
        ToolError::new(OUT_OF_STOCK, format!("'{sku}' is out of stock."))
            .with_details(json!({"sku": sku, "available": 0})),
    )
}

/// Call a rate-limited service.
#[mcp_tool]
fn throttled() -> Result<Json<Quote>, ToolError> {
    Err(ToolError::rate_limited("Too many reservations.")
        .with_retry_after(Duration::from_millis(1500)))
}

/// Call an upstream that asks for a retry after 300 ms.
#[mcp_tool]
fn slow_upstream() -> Result<String, ToolError> {
    Err(ToolError::timeout("Slow upstream.").with_retry_after(Duration::from_millis(300)))
}

/// Delete an item.
#[mcp_tool(
    name = "catalog.delete_item",
    title = "Delete a catalog item",
    destructive,
    idempotent = true,
    read_only = false,
    open_world = false,
    meta = r#"{"team": "catalog", "version": 2}"#
)]
fn delete_item(sku: String) -> String {
    format!("deleted {sku}")
}

/// A documented tool.
#[mcp_tool(description = "Overrides the doc comment.")]
fn described() -> &'static str {
    "ok"
}

/// A tree of labels.
#[derive(Debug, Deserialize, JsonSchema)]
struct Tree {
    label: String,
    #[serde(default)]
    children: Vec<Tree>,
}

/// Count the nodes of a tree.
#[mcp_tool]
fn count_nodes(tree: Tree) -> String {
    fn count(tree: &Tree) -> usize {
        1 + tree.children.iter().map(count).sum::<usize>()
    }
    format!("{} has {} nodes", tree.label, count(&tree))
}

/// The first tool named `a`.
#[mcp_tool]
fn a() -> &'static str {
    "a"
}

/// A second tool that claims the name `a`.
#[mcp_tool(name = "a")]
fn a2() -> &'static str {
    "a2"
}

// --- Whole-input structs -----------------------------------------------------------------

/// One line of an order.
#[derive(Debug, Deserialize, Serialize, JsonSchema, Validate)]
struct Line {
    /// Catalog code.
    #[validate(regex(path = *SKU))]
    sku: String,
    /// How many.
    #[validate(range(min = 1, max = 99))]
    qty: u32,
}

/// An order.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
struct Order {
    /// Who orders.
    #[validate(length(min = 1, max = 40))]
    customer: String,
    /// Where to send it.
    #[validate(email)]
    email: String,
    /// The lines of the order.
    #[validate(length(min = 1), nested)]
    items: Vec<Line>,
}

/// Place an order.
#[mcp_tool]
fn place_order(#[arg(input)] order: Order) -> String {
    format!("{} ordered {} lines", order.customer, order.items.len())
}

/// A struct validated through the runtime's re-export of `validator`.
#[derive(Debug, Deserialize, JsonSchema, mcp_tool_runtime::validator::Validate)]
#[validate(crate = "mcp_tool_runtime::validator")]
struct Rename {
    #[validate(length(min = 2))]
    new_name: String,
}

/// Rename something.
#[mcp_tool]
fn rename(#[arg(input)] input: Rename) -> String {
    input.new_name
}

/// `#[validate(nested)]` on a plain argument.
mod nested_argument {
    use super::Line;
    use mcp_tool_runtime::mcp_tool;

    /// Check order lines.
    #[mcp_tool]
    pub fn check_lines(#[validate(nested)] lines: Vec<Line>) -> String {
        format!("{} lines", lines.len())
    }
}

fn start_not_after_end(range: &DateRange) -> Result<(), validator::ValidationError> {
    if range.start <= range.end {
        Ok(())
    } else {
        Err(validator::ValidationError::new("order")
            .with_message("'start' must not be after 'end'".into()))
    }
}

/// A range of days.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[validate(schema(function = start_not_after_end))]
struct DateRange {
    /// First day.
    start: u32,
    /// Last day.
    end: u32,
}

/// Count the days of a range.
#[mcp_tool]
fn count_days(#[arg(input)] range: DateRange) -> String {
    (range.end - range.start + 1).to_string()
}

/// Labels with free-form extra keys.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
struct Labels {
    name: String,
    #[serde(flatten)]
    extra: std::collections::BTreeMap<String, String>,
}

/// Store labels.
#[mcp_tool]
fn store_labels(#[arg(input)] labels: Labels) -> String {
    format!("{} {:?}", labels.name, labels.extra)
}

// --- A state type with method tools -------------------------------------------------------

/// A shared counter.
#[derive(Default)]
struct Counter {
    value: AtomicU64,
}

#[mcp_tools]
impl Counter {
    /// Read the counter.
    #[mcp_tool(read_only)]
    fn get(&self) -> String {
        self.value.load(Ordering::SeqCst).to_string()
    }

    /// Add to the counter.
    ///
    /// # Arguments
    /// * `by` - How much to add.
    #[mcp_tool]
    async fn add(&self, #[validate(range(min = 1, max = 10))] by: u64) -> Json<Total> {
        tokio::task::yield_now().await;
        let total = self.value.fetch_add(by, Ordering::SeqCst) + by;
        Json(Total { total })
    }

    /// Double a number without touching the counter.
    #[mcp_tool]
    fn double(n: i64) -> String {
        (n * 2).to_string()
    }

    /// Fail with an I/O error from a method.
    #[mcp_tool]
    async fn broken(&self) -> Result<String, std::io::Error> {
        Err(std::io::Error::other(
            "method secret: disk /dev/sda1 failed",
        ))
    }
}

/// The counter's total.
#[derive(Debug, Serialize, JsonSchema)]
struct Total {
    total: u64,
}

// ---------------------------------------------------------------------------------------
// Servers
// ---------------------------------------------------------------------------------------

fn server() -> McpServer<()> {
    McpServer::builder(())
        .tool(quote_tool())
        .tool(every_type_tool())
        .tool(register_tool())
        .tool(search_tool())
        .tool(hello_tool())
        .tool(noop_tool())
        .tool(pixel_tool())
        .tool(raw_result_tool())
        .tool(list_items_tool())
        .tool(read_secret_tool())
        .tool(load_with_question_mark_tool())
        .tool(explode_tool())
        .tool(explode_later_tool())
        .tool(slow_add_tool())
        .tool(get_user_tool())
        .tool(reserve_tool())
        .tool(throttled_tool())
        .tool(delete_item_tool())
        .tool(described_tool())
        .tool(count_nodes_tool())
        .tool(place_order_tool())
        .tool(rename_tool())
        .tool(nested_argument::check_lines_tool())
        .tool(count_days_tool())
        .tool(store_labels_tool())
        .build()
        .expect("unique tool names")
}

fn counter_server() -> McpServer<Counter> {
    McpServer::builder(Counter::default())
        .tool_set()
        .tool(hello_tool())
        .build()
        .expect("unique tool names")
}

fn published(server: &McpServer<impl Send + Sync + 'static>, name: &str) -> Value {
    tool_json(
        server
            .registry()
            .published(name)
            .unwrap_or_else(|| panic!("tool '{name}' is published")),
    )
}

fn input_schema(name: &str) -> Value {
    published(&server(), name)["inputSchema"].clone()
}

fn is_correlation_id(id: &Value) -> bool {
    id.as_str()
        .is_some_and(|id| id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()))
}

// ---------------------------------------------------------------------------------------
// Type mismatches
// ---------------------------------------------------------------------------------------

fn valid_every_type() -> Value {
    json!({
        "quantity": 5,
        "name": "Ada",
        "price": 2.5,
        "gift": true,
        "tags": ["a"],
        "address": {"street": "Main St", "zip": 12345}
    })
}

async fn every_type_with(key: &str, value: Value) -> Vec<String> {
    let mut arguments = valid_every_type();
    arguments[key] = value;
    violation_messages(&call(&server(), "every_type", arguments).await)
}

#[tokio::test]
async fn valid_arguments_reach_the_function() {
    let result = call(&server(), "every_type", valid_every_type()).await;
    assert_eq!(ok_text(&result), "5 Ada 2.5 true 1 Main St 12345");
}

#[tokio::test]
async fn integer_mismatch_has_the_exact_contract_sentence() {
    assert_eq!(
        every_type_with("quantity", json!("five")).await,
        ["Argument 'quantity' expected an integer, but received 'five'."]
    );
}

#[tokio::test]
async fn integer_mismatch_for_a_fraction() {
    assert_eq!(
        every_type_with("quantity", json!(2.5)).await,
        ["Argument 'quantity' expected an integer, but received 2.5."]
    );
}

#[tokio::test]
async fn string_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("name", json!(42)).await,
        ["Argument 'name' expected a string, but received 42."]
    );
}

#[tokio::test]
async fn number_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("price", json!("cheap")).await,
        ["Argument 'price' expected a number, but received 'cheap'."]
    );
}

#[tokio::test]
async fn boolean_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("gift", json!("yes")).await,
        ["Argument 'gift' expected a boolean, but received 'yes'."]
    );
}

#[tokio::test]
async fn array_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("tags", json!({"a": 1})).await,
        [r#"Argument 'tags' expected an array, but received {"a":1}."#]
    );
}

#[tokio::test]
async fn object_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("address", json!("Main St 1")).await,
        ["Argument 'address' expected an object, but received 'Main St 1'."]
    );
}

#[tokio::test]
async fn null_for_a_required_argument_is_a_type_mismatch() {
    assert_eq!(
        every_type_with("name", Value::Null).await,
        ["Argument 'name' expected a string, but received null."]
    );
}

#[tokio::test]
async fn long_received_strings_are_quoted_and_cut_at_80_characters() {
    let long = "x".repeat(500);
    let messages = every_type_with("quantity", json!(long)).await;
    let shown = format!("'{}…'", "x".repeat(79));
    assert_eq!(
        messages,
        [format!(
            "Argument 'quantity' expected an integer, but received {shown}."
        )]
    );
}

#[tokio::test]
async fn long_received_arrays_are_cut_too() {
    let many: Vec<u32> = (0..100).collect();
    let messages = every_type_with("name", json!(many)).await;
    let rendered = json!(many).to_string();
    let shown: String = rendered.chars().take(79).collect();
    assert_eq!(
        messages,
        [format!(
            "Argument 'name' expected a string, but received {shown}…."
        )]
    );
}

#[tokio::test]
async fn huge_received_values_are_not_echoed_in_full_by_the_envelope() {
    let mut arguments = valid_every_type();
    arguments["quantity"] = json!("x".repeat(5000));
    let result = call(&server(), "every_type", arguments).await;
    let received = violation_at(&result, "quantity")["received"].to_string();
    assert!(received.len() < 200, "{received}");
    let everything = wire(&result).to_string();
    assert!(!everything.contains(&"x".repeat(200)), "{everything}");
}

#[tokio::test]
async fn nested_struct_mismatches_carry_their_paths() {
    let messages = every_type_with("address", json!({"street": 7, "zip": "x"})).await;
    assert_eq!(
        messages,
        [
            "Argument 'address.street' expected a string, but received 7.",
            "Argument 'address.zip' expected an integer, but received 'x'.",
        ]
    );
}

#[tokio::test]
async fn array_item_mismatches_carry_their_index() {
    let messages = every_type_with("tags", json!(["a", "b", 3])).await;
    assert_eq!(
        messages,
        ["Argument 'tags[2]' expected a string, but received 3."]
    );
}

// ---------------------------------------------------------------------------------------
// Every violation at once; missing and unknown arguments
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn every_violation_is_reported_in_one_response() {
    let result = call(
        &server(),
        "every_type",
        json!({
            "quantity": "five",
            "name": 1,
            "price": "cheap",
            "gift": "no",
            "tags": "a,b",
            "address": {"street": "Main St", "zip": -1}
        }),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'quantity' expected an integer, but received 'five'.",
            "Argument 'name' expected a string, but received 1.",
            "Argument 'price' expected a number, but received 'cheap'.",
            "Argument 'gift' expected a boolean, but received 'no'.",
            "Argument 'tags' expected an array, but received 'a,b'.",
            "Argument 'address.zip' must be between 0 and 4294967295, but received -1.",
        ]
    );
    assert_eq!(
        envelope(&result)["error"],
        "Invalid arguments for tool 'every_type': 6 problems."
    );
}

#[tokio::test]
async fn missing_required_arguments_name_what_they_expect() {
    let result = call(&server(), "quote", json!({})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'sku': expected a string of exactly 8 characters.",
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
        ]
    );
    let missing = violation_at(&result, "quantity");
    assert_eq!(missing["problem"], "missing");
    assert_eq!(missing["expected"], "an integer between 1 and 100");
    assert!(missing.get("received").is_none(), "{missing}");
}

#[tokio::test]
async fn unknown_argument_suggests_the_closest_and_lists_the_valid_ones() {
    let result = call(&server(), "quote", json!({"sku": "ABC-0001", "quantiy": 3})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
            "Unknown argument 'quantiy'. Did you mean 'quantity'? Valid arguments here: sku, quantity.",
        ]
    );
    let unknown = violation_at(&result, "quantiy");
    assert_eq!(unknown["problem"], "unknown_argument");
    assert_eq!(unknown["suggestion"], "quantity");
    assert_eq!(unknown["allowed"], json!(["sku", "quantity"]));
    assert_eq!(unknown["received"], 3);
}

#[tokio::test]
async fn unknown_argument_without_a_close_name_still_lists_the_valid_ones() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": 1, "zebra": true}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        ["Unknown argument 'zebra'. Valid arguments here: sku, quantity."]
    );
}

#[tokio::test]
async fn a_tool_without_arguments_rejects_any() {
    let result = call(&server(), "hello", json!({"greeting": "hi"})).await;
    assert_eq!(
        violation_messages(&result),
        ["Unknown argument 'greeting'. This tool takes no arguments."]
    );
}

#[tokio::test]
async fn a_tool_without_arguments_accepts_none_null_and_empty() {
    let server = server();
    for arguments in [None, Some(Value::Null), Some(json!({}))] {
        let result = server.call("hello", arguments.clone()).await.unwrap();
        assert_eq!(ok_text(&result), "hello", "arguments {arguments:?}");
    }
}

#[tokio::test]
async fn absent_arguments_report_every_required_argument() {
    let result = server().call("quote", None).await.unwrap();
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'sku': expected a string of exactly 8 characters.",
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
        ]
    );
}

#[tokio::test]
async fn null_arguments_report_every_required_argument() {
    let result = server().call("quote", Some(Value::Null)).await.unwrap();
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'sku': expected a string of exactly 8 characters.",
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
        ]
    );
}

#[tokio::test]
async fn non_object_arguments_get_a_clear_message() {
    let server = server();
    for (arguments, shown) in [
        (json!([1, 2]), "[1,2]"),
        (json!("sku=ABC-0001"), "'sku=ABC-0001'"),
        (json!(7), "7"),
    ] {
        let result = server.call("quote", Some(arguments)).await.unwrap();
        assert_eq!(
            violation_messages(&result),
            [format!(
                "The arguments must be a JSON object of named arguments, but received {shown}."
            )]
        );
        let violation = violation_at(&result, "");
        assert_eq!(violation["problem"], "not_an_object");
        assert_eq!(violation["expected"], "an object of named arguments");
    }
}

// ---------------------------------------------------------------------------------------
// Constraints
// ---------------------------------------------------------------------------------------

fn valid_registration() -> Value {
    json!({
        "name": "Ada",
        "email": "ada@example.com",
        "homepage": "https://example.com/ada",
        "favourite_sku": "ABC-0001",
        "age": 36,
        "tags": ["math"],
        "seats": 2
    })
}

async fn register_with(key: &str, value: Value) -> CallToolResult {
    let mut arguments = valid_registration();
    arguments[key] = value;
    call(&server(), "register", arguments).await
}

#[tokio::test]
async fn valid_constrained_arguments_pass() {
    let result = call(&server(), "register", valid_registration()).await;
    assert_eq!(
        ok_text(&result),
        r#"Ada ada@example.com https://example.com/ada ABC-0001 36 ["math"] 2"#
    );
}

#[tokio::test]
async fn range_violation_states_bounds_and_value() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": 500}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'quantity' must be between 1 and 100, but received 500."]
    );
    let violation = violation_at(&result, "quantity");
    assert_eq!(violation["problem"], "out_of_range");
    assert_eq!(violation["expected"], "a number between 1 and 100");
    assert_eq!(violation["received"], 500);
}

#[tokio::test]
async fn range_violation_below_the_minimum() {
    let result = register_with("age", json!(12)).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'age' must be between 18 and 130, but received 12."]
    );
}

#[tokio::test]
async fn string_length_violation_states_bounds_and_length() {
    let result = register_with("name", json!("Al")).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'name' must be between 3 and 20 characters long, but received 'Al' (2 characters)."
        ]
    );
    assert_eq!(violation_at(&result, "name")["problem"], "length");
}

#[tokio::test]
async fn exact_length_violation() {
    let result = call(&server(), "quote", json!({"sku": "ABC-01", "quantity": 1})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'sku' must be exactly 8 characters long, but received 'ABC-01' (6 characters)."]
    );
}

#[tokio::test]
async fn array_length_violation_counts_items() {
    let result = register_with("tags", json!(["a", "b", "c", "d"])).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'tags' must have between 1 and 3 items, but received 4 items."]
    );
}

#[tokio::test]
async fn pattern_violation_shows_the_pattern_and_an_example() {
    let result = register_with("favourite_sku", json!("abc-1")).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'favourite_sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001'), but received 'abc-1'."
        ]
    );
    let violation = violation_at(&result, "favourite_sku");
    assert_eq!(violation["problem"], "pattern");
    assert_eq!(
        violation["expected"],
        "a string that must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001')"
    );
}

#[tokio::test]
async fn email_violation() {
    let result = register_with("email", json!("ada-at-example")).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'email' must be a valid email address, but received 'ada-at-example'."]
    );
    assert_eq!(violation_at(&result, "email")["problem"], "format");
}

#[tokio::test]
async fn url_violation() {
    let result = register_with("homepage", json!("not a url")).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'homepage' must be a valid URL, but received 'not a url'."]
    );
}

#[tokio::test]
async fn custom_validator_message_and_value() {
    let result = register_with("seats", json!(3)).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'seats' is invalid: seats come in pairs, so the number must be even, but received 3."
        ]
    );
    assert_eq!(violation_at(&result, "seats")["problem"], "custom");
}

#[tokio::test]
async fn every_constraint_violation_in_one_response_in_declaration_order() {
    let result = call(
        &server(),
        "register",
        json!({
            "name": "Al",
            "email": "nope",
            "homepage": "nope",
            "favourite_sku": "nope",
            "age": 200,
            "tags": [],
            "seats": 1
        }),
    )
    .await;
    let paths: Vec<Value> = envelope(&result)["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["path"].clone())
        .collect();
    assert_eq!(
        paths,
        [
            "name",
            "email",
            "homepage",
            "favourite_sku",
            "age",
            "tags",
            "seats"
        ]
    );
    assert_eq!(
        envelope(&result)["error"],
        "Invalid arguments for tool 'register': 7 problems."
    );
}

#[tokio::test]
async fn type_and_constraint_violations_are_reported_together() {
    let result = call(
        &server(),
        "register",
        json!({
            "name": "Al",
            "email": "ada@example.com",
            "homepage": "https://example.com",
            "favourite_sku": "ABC-0001",
            "age": "old",
            "tags": ["a"],
            "seats": 2
        }),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'name' must be between 3 and 20 characters long, but received 'Al' (2 characters).",
            "Argument 'age' expected an integer, but received 'old'.",
        ]
    );
}

// ---------------------------------------------------------------------------------------
// Enums and defaults
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn enum_violation_lists_allowed_values_and_suggests_the_closest() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "sort": "ascending"}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'sort' must be one of 'asc', 'desc', but received 'ascending'. Did you mean 'asc'?"
        ]
    );
    let violation = violation_at(&result, "sort");
    assert_eq!(violation["problem"], "not_allowed");
    assert_eq!(violation["allowed"], json!(["asc", "desc"]));
    assert_eq!(violation["suggestion"], "asc");
    assert_eq!(violation["received"], "ascending");
}

#[tokio::test]
async fn optional_enum_violation_lists_allowed_values_too() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "then_by": "DESC"}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'then_by' must be one of 'asc', 'desc', but received 'DESC'. Did you mean 'desc'?"
        ]
    );
}

#[tokio::test]
async fn enum_without_a_close_value_gives_no_suggestion() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "sort": "random"}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'sort' must be one of 'asc', 'desc', but received 'random'."]
    );
    assert!(violation_at(&result, "sort").get("suggestion").is_none());
}

#[tokio::test]
async fn defaults_are_applied_when_arguments_are_left_out() {
    let result = call(&server(), "search", json!({"query": "mug"})).await;
    assert_eq!(
        ok_text(&result),
        "mug sort=Asc limit=10 exact=false page=None then_by=None"
    );
}

#[tokio::test]
async fn given_values_override_defaults() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "sort": "desc", "limit": 3, "exact": true, "page": 2, "then_by": "asc"}),
    )
    .await;
    assert_eq!(
        ok_text(&result),
        "mug sort=Desc limit=3 exact=true page=Some(2) then_by=Some(Asc)"
    );
}

#[tokio::test]
async fn explicit_null_for_an_optional_argument_means_absent() {
    let result = call(&server(), "search", json!({"query": "mug", "page": null})).await;
    assert_eq!(
        ok_text(&result),
        "mug sort=Asc limit=10 exact=false page=None then_by=None"
    );
}

#[tokio::test]
async fn defaulted_arguments_are_still_validated() {
    let result = call(&server(), "search", json!({"query": "mug", "limit": 500})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'limit' must be between 1 and 50, but received 500."]
    );
}

#[test]
fn defaults_appear_in_the_schema_and_not_in_required() {
    let schema = input_schema("search");
    assert_eq!(schema["properties"]["limit"]["default"], 10);
    assert_eq!(schema["properties"]["exact"]["default"], false);
    assert_eq!(schema["properties"]["sort"]["default"], "asc");
    assert_eq!(schema["required"], json!(["query"]));
}

// ---------------------------------------------------------------------------------------
// The error envelope
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn bad_arguments_are_an_error_result_not_an_err() {
    let outcome = server()
        .call(
            "quote",
            Some(json!({"sku": "ABC-0001", "quantity": "five"})),
        )
        .await;
    let result = outcome.expect("bad arguments are a result, not a protocol error");
    assert_eq!(result.is_error, Some(true));
}

#[tokio::test]
async fn text_content_carries_the_full_message_and_a_valid_call() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": "five"}),
    )
    .await;
    assert_eq!(
        text(&result),
        "Invalid arguments for tool 'quote': 1 problem.\n\
         - Argument 'quantity' expected an integer, but received 'five'.\n\
         Valid call: quote(sku: a string of exactly 8 characters, quantity: an integer between 1 and 100)"
    );
}

#[tokio::test]
async fn envelope_of_invalid_arguments_has_every_field() {
    let result = call(
        &server(),
        "every_type",
        json!({"quantity": "five", "name": "Ada", "price": 1, "gift": true, "tags": [], "address": {"street": "x", "zip": 1}}),
    )
    .await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "invalid_arguments");
    assert_eq!(envelope["class"], "input");
    assert_eq!(
        envelope["error"],
        "Invalid arguments for tool 'every_type': 1 problem."
    );
    assert_eq!(envelope["retryable"], false);
    assert!(envelope.get("retryAfter").is_none());
    assert!(envelope.get("hint").is_none());
    assert!(is_correlation_id(&envelope["correlationId"]), "{envelope}");
    assert_eq!(
        envelope["violations"],
        json!([{
            "path": "quantity",
            "problem": "type_mismatch",
            "expected": "an integer",
            "received": "five",
            "message": "Argument 'quantity' expected an integer, but received 'five'."
        }])
    );
}

#[tokio::test]
async fn envelope_is_structured_content_when_the_tool_has_no_output_schema() {
    let result = call(&server(), "every_type", json!({"quantity": "five"})).await;
    let envelope = envelope(&result);
    assert_eq!(result.structured_content.as_ref(), Some(&envelope));
}

#[tokio::test]
async fn envelope_is_only_in_meta_when_the_tool_has_an_output_schema() {
    let server = server();
    assert!(published(&server, "quote").get("outputSchema").is_some());
    let result = call(
        &server,
        "quote",
        json!({"sku": "ABC-0001", "quantity": "five"}),
    )
    .await;
    assert_eq!(envelope(&result)["code"], "invalid_arguments");
    assert!(
        result.structured_content.is_none(),
        "structuredContent must match the outputSchema, so errors leave it out: {:#}",
        wire(&result)
    );
    let failed = call(&server, "throttled", json!({})).await;
    assert_eq!(envelope(&failed)["code"], "rate_limited");
    assert!(failed.structured_content.is_none());
}

#[tokio::test]
async fn each_error_gets_a_fresh_correlation_id() {
    let server = server();
    let first = envelope(&call(&server, "quote", json!({})).await);
    let second = envelope(&call(&server, "quote", json!({})).await);
    assert!(is_correlation_id(&first["correlationId"]));
    assert_ne!(first["correlationId"], second["correlationId"]);
}

// ---------------------------------------------------------------------------------------
// Error codes and builders
// ---------------------------------------------------------------------------------------

#[test]
fn error_code_table_has_stable_snake_case_names() {
    let names: Vec<&str> = ErrorCode::TABLE.iter().map(ErrorCode::as_str).collect();
    assert_eq!(
        names,
        [
            "invalid_arguments",
            "not_found",
            "conflict",
            "forbidden",
            "unauthenticated",
            "rate_limited",
            "at_capacity",
            "timeout",
            "unavailable",
            "upstream_error",
            "cancelled",
            "internal_error",
        ]
    );
    assert!(names.iter().all(|name| ErrorCode::is_valid_name(name)));
    for code in ErrorCode::TABLE {
        assert_eq!(ErrorCode::lookup(code.as_str()).as_ref(), Some(code));
    }
    assert_eq!(ErrorCode::lookup("no_such_code"), None);
}

#[test]
fn error_codes_carry_class_and_retryability() {
    let table = [
        (ErrorCode::INVALID_ARGUMENTS, ErrorClass::Input, false),
        (ErrorCode::NOT_FOUND, ErrorClass::Input, false),
        (ErrorCode::RATE_LIMITED, ErrorClass::System, true),
        (ErrorCode::TIMEOUT, ErrorClass::Dependency, true),
        (ErrorCode::INTERNAL_ERROR, ErrorClass::System, false),
    ];
    for (code, class, retryable) in table {
        assert_eq!(code.class(), class, "{code}");
        assert_eq!(code.default_retryable(), retryable, "{code}");
    }
}

#[test]
fn snake_case_names_are_checked() {
    assert!(ErrorCode::is_valid_name("out_of_stock"));
    assert!(ErrorCode::is_valid_name("e2"));
    for bad in [
        "",
        "OutOfStock",
        "out-of-stock",
        "_x",
        "2fast",
        "out of stock",
    ] {
        assert!(!ErrorCode::is_valid_name(bad), "{bad:?}");
    }
}

#[tokio::test]
async fn not_found_with_hint_reaches_the_model() {
    let result = call(&server(), "get_user", json!({"id": 9})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "not_found");
    assert_eq!(envelope["class"], "input");
    assert_eq!(envelope["error"], "No user with id 9.");
    assert_eq!(envelope["hint"], "Call list_users to see valid ids.");
    assert_eq!(envelope["retryable"], false);
    assert!(envelope.get("violations").is_none());
    assert_eq!(
        text(&result),
        "No user with id 9.\nHint: Call list_users to see valid ids."
    );
}

#[tokio::test]
async fn retry_after_is_whole_seconds_rounded_up() {
    let result = call(&server(), "throttled", json!({})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "rate_limited");
    assert_eq!(envelope["class"], "system");
    assert_eq!(envelope["retryable"], true);
    assert_eq!(envelope["retryAfter"], 2);
    assert_eq!(
        text(&result),
        "Too many reservations.\nThis is temporary: retry after 2 seconds."
    );
}

#[test]
fn retry_after_is_at_least_one_second() {
    for (wait, seconds) in [
        (Duration::ZERO, 1),
        (Duration::from_millis(1), 1),
        (Duration::from_secs(1), 1),
        (Duration::from_millis(1001), 2),
        (Duration::from_secs(30), 30),
    ] {
        let error = ToolError::not_found("gone").with_retry_after(wait);
        assert_eq!(error.retry_after(), Some(seconds), "{wait:?}");
        assert!(error.is_retryable(), "with_retry_after marks it retryable");
    }
}

#[tokio::test]
async fn one_second_retry_reads_in_the_singular() {
    let server = McpServer::builder(())
        .tool(slow_upstream_tool())
        .build()
        .unwrap();
    let result = call(&server, "slow_upstream", json!({})).await;
    assert_eq!(
        text(&result),
        "Slow upstream.\nThis is temporary: retry after 1 second."
    );
}

#[tokio::test]
async fn custom_codes_and_details_reach_the_envelope() {
    let result = call(&server(), "reserve", json!({"sku": "ABC-0001"})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "out_of_stock");
    assert_eq!(envelope["class"], "input");
    assert_eq!(envelope["retryable"], false);
    assert_eq!(envelope["error"], "'ABC-0001' is out of stock.");
    assert_eq!(
        envelope["details"],
        json!({"sku": "ABC-0001", "available": 0})
    );
    assert_eq!(text(&result), "'ABC-0001' is out of stock.");
}

#[test]
fn builders_set_what_they_name() {
    let error = ToolError::new(OUT_OF_STOCK, "None left.")
        .with_hint("Try tomorrow.")
        .with_details(json!({"left": 0}));
    assert_eq!(error.code(), &OUT_OF_STOCK);
    assert_eq!(error.code().as_str(), "out_of_stock");
    assert_eq!(error.message(), "None left.");
    assert_eq!(error.hint(), Some("Try tomorrow."));
    assert_eq!(error.details(), Some(&json!({"left": 0})));
    assert!(!error.is_retryable());
    assert!(!error.is_masked());
    assert!(ToolError::unavailable("down").is_retryable());
    assert!(
        !ToolError::unavailable("down")
            .with_retryable(false)
            .is_retryable()
    );
}

#[test]
fn from_code_uses_the_default_message() {
    let error = ToolError::from_code(ErrorCode::TIMEOUT);
    assert_eq!(error.message(), "The tool did not finish in time.");
    assert_eq!(ToolError::cancelled().code(), &ErrorCode::CANCELLED);
    assert_eq!(
        ToolError::from_code(OUT_OF_STOCK).message(),
        "The tool failed (out_of_stock)."
    );
}

// ---------------------------------------------------------------------------------------
// Masking
// ---------------------------------------------------------------------------------------

fn assert_masked(result: &CallToolResult, tool: &str, secrets: &[&str]) {
    let envelope = envelope(result);
    let id = envelope["correlationId"].as_str().unwrap().to_string();
    assert!(is_correlation_id(&envelope["correlationId"]));
    let expected = format!(
        "Tool '{tool}' failed because of an internal error on the server. The arguments were \
         accepted; the details were logged under correlation id {id}."
    );
    assert_eq!(envelope["code"], "internal_error");
    assert_eq!(envelope["class"], "system");
    assert_eq!(envelope["retryable"], false);
    assert_eq!(envelope["error"], expected);
    assert_eq!(text(result), expected);
    let everything = wire(result).to_string();
    for secret in secrets {
        assert!(
            !everything.contains(secret),
            "the model must not see {secret:?}: {everything}"
        );
    }
}

#[tokio::test]
async fn io_errors_are_masked() {
    let result = call(&server(), "read_secret", json!({})).await;
    assert_masked(
        &result,
        "read_secret",
        &["/etc/secret-token", "permission denied"],
    );
}

#[tokio::test]
async fn errors_converted_with_question_mark_are_masked() {
    let result = call(&server(), "load_with_question_mark", json!({})).await;
    assert_masked(
        &result,
        "load_with_question_mark",
        &["/run/secrets/db", "password"],
    );
}

#[tokio::test]
async fn method_errors_are_masked() {
    let result = call(&counter_server(), "broken", json!({})).await;
    assert_masked(&result, "broken", &["/dev/sda1", "method secret"]);
}

#[tokio::test]
async fn panics_are_masked() {
    let result = call(&server(), "explode", json!({"note": "hunter2"})).await;
    assert_masked(
        &result,
        "explode",
        &["secret panic detail", "hunter2", "panicked"],
    );
}

#[tokio::test]
async fn panics_after_an_await_are_masked() {
    let result = call(&server(), "explode_later", json!({})).await;
    assert_masked(&result, "explode_later", &["secret async panic detail"]);
}

#[test]
fn masked_errors_keep_the_cause_for_the_log_only() {
    let error = ToolError::from(std::io::Error::other("disk full at /var/db"));
    assert!(error.is_masked());
    assert_eq!(error.code(), &ErrorCode::INTERNAL_ERROR);
    assert_eq!(
        error.internal_detail().map(ToString::to_string).as_deref(),
        Some("disk full at /var/db")
    );
    let envelope = serde_json::to_value(error.envelope("t", "abc")).unwrap();
    assert!(!envelope.to_string().contains("/var/db"), "{envelope}");
}

#[test]
fn expose_is_the_explicit_opt_out_of_masking() {
    let error = ToolError::expose(&std::io::Error::other("the cache is warming up"));
    assert!(!error.is_masked());
    assert_eq!(error.code(), &ErrorCode::INTERNAL_ERROR);
    assert_eq!(error.message(), "the cache is warming up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_in_one_call_never_affects_concurrent_calls() {
    let server = server();
    let mut tasks = Vec::new();
    for i in 0..16_i64 {
        let server = server.clone();
        tasks.push(tokio::spawn(async move {
            if i % 4 == 0 {
                let result = server.call("explode_later", Some(json!({}))).await.unwrap();
                (i, None, result)
            } else {
                let result = server
                    .call("slow_add", Some(json!({"a": i, "b": 100})))
                    .await
                    .unwrap();
                (i, Some(i + 100), result)
            }
        }));
    }
    for task in tasks {
        let (i, sum, result) = task.await.expect("no task dies with the panic");
        match sum {
            Some(sum) => assert_eq!(ok_text(&result), sum.to_string(), "call {i}"),
            None => assert_masked(&result, "explode_later", &["secret async panic detail"]),
        }
    }
    // And the server keeps working afterwards.
    let result = call(&server, "slow_add", json!({"a": 1, "b": 2})).await;
    assert_eq!(ok_text(&result), "3");
}

#[tokio::test]
async fn a_panic_in_one_joined_call_never_affects_the_others_on_one_thread() {
    let server = server();
    let (boom, sum, hello) = tokio::join!(
        server.call("explode", Some(json!({}))),
        server.call("slow_add", Some(json!({"a": 2, "b": 3}))),
        server.call("hello", None),
    );
    assert_masked(&boom.unwrap(), "explode", &["secret panic detail"]);
    assert_eq!(ok_text(&sum.unwrap()), "5");
    assert_eq!(ok_text(&hello.unwrap()), "hello");
}

// ---------------------------------------------------------------------------------------
// Unknown tools
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn unknown_tool_is_an_err_that_suggests_and_lists() {
    let server = counter_server();
    let unknown = server
        .call("ad", Some(json!({})))
        .await
        .expect_err("an unknown tool is a protocol error");
    assert_eq!(unknown.name, "ad");
    assert_eq!(unknown.suggestions, ["add"]);
    assert_eq!(
        unknown.available,
        ["get", "add", "double", "broken", "hello"]
    );
    assert_eq!(
        unknown.to_string(),
        "Unknown tool 'ad'. Did you mean 'add'? Available tools: get, add, double, broken, hello."
    );
}

#[tokio::test]
async fn unknown_tool_with_several_close_names() {
    let unknown = server()
        .call("explod", None)
        .await
        .expect_err("unknown tool");
    assert_eq!(unknown.suggestions, ["explode", "explode_later"]);
    let message = unknown.to_string();
    assert!(
        message.starts_with(
            "Unknown tool 'explod'. Did you mean one of 'explode', 'explode_later'? Available tools: quote, every_type,"
        ),
        "{message}"
    );
}

#[tokio::test]
async fn unknown_tool_without_a_close_name_lists_the_available_ones() {
    let server = McpServer::builder(()).tool(hello_tool()).build().unwrap();
    let unknown = server.call("zzzzzz", None).await.unwrap_err();
    assert!(unknown.suggestions.is_empty());
    assert_eq!(
        unknown.to_string(),
        "Unknown tool 'zzzzzz'. Available tools: hello."
    );
}

#[tokio::test]
async fn unknown_tool_becomes_invalid_params_32602() {
    let unknown = counter_server().call("ad", None).await.unwrap_err();
    let message = unknown.to_string();
    let error = ErrorData::from(unknown);
    assert_eq!(error.code, RpcCode::INVALID_PARAMS);
    assert_eq!(error.code.0, -32602);
    assert_eq!(error.message, message);
    assert_eq!(
        error.data,
        Some(json!({
            "tool": "ad",
            "suggestions": ["add"],
            "available": ["get", "add", "double", "broken", "hello"]
        }))
    );
}

// ---------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------

#[test]
fn every_published_schema_is_portable_2020_12() {
    let server = server();
    for tool in server.registry().list() {
        let tool = tool_json(tool);
        let recursive = tool["name"] == "count_nodes";
        assert_portable(&tool["inputSchema"], recursive);
        // Closed at the root, except where the input's own type takes extra keys.
        let extra = if tool["name"] == "store_labels" {
            json!({"type": "string"})
        } else {
            json!(false)
        };
        assert_eq!(
            tool["inputSchema"]["additionalProperties"], extra,
            "{}",
            tool["name"]
        );
        if let Some(output) = tool.get("outputSchema") {
            assert_portable(output, false);
        }
    }
    for tool in counter_server().registry().list() {
        let tool = tool_json(tool);
        assert_portable(&tool["inputSchema"], false);
        assert_eq!(tool["inputSchema"]["additionalProperties"], false);
    }
}

#[test]
fn every_published_tool_has_a_description() {
    let server = server();
    for tool in server.registry().list() {
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(!description.trim().is_empty(), "{}", tool.name);
        assert!(!description.contains("# Arguments"), "{}", tool.name);
    }
}

#[test]
fn integer_formats_become_bounds() {
    let schema = input_schema("every_type");
    // An i64 takes exactly the i64 range: the schema says so (the schema issue's agreement).
    assert_eq!(
        schema["properties"]["quantity"],
        json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX})
    );
    assert_eq!(
        schema["properties"]["address"]["properties"]["zip"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295_u64})
    );
    assert_eq!(schema["properties"]["price"], json!({"type": "number"}));
    let register = input_schema("register");
    assert_eq!(register["properties"]["age"]["minimum"], 18);
    assert_eq!(register["properties"]["age"]["maximum"], 130);
    assert!(register["properties"]["age"].get("format").is_none());
}

#[test]
fn nested_types_are_inlined() {
    let schema = input_schema("every_type");
    let address = &schema["properties"]["address"];
    assert_eq!(address["type"], "object");
    assert_eq!(address["required"], json!(["street", "zip"]));
    assert!(schema.get("$defs").is_none());
}

#[test]
fn optional_arguments_are_not_required_and_not_nullable() {
    let schema = input_schema("search");
    assert_eq!(schema["required"], json!(["query"]));
    assert_eq!(
        schema["properties"]["page"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295_u64, "description": "Which page of results."})
    );
    let then_by = &schema["properties"]["then_by"];
    assert_eq!(then_by["enum"], json!(["asc", "desc"]));
    assert!(then_by.get("anyOf").is_none(), "{then_by}");
}

#[test]
fn a_tool_without_arguments_has_an_empty_closed_object() {
    let schema = input_schema("hello");
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
    assert!(
        schema["properties"]
            .as_object()
            .is_none_or(|p| p.is_empty()),
        "{schema}"
    );
    assert!(schema.get("required").is_none_or(|r| r == &json!([])));
}

#[test]
fn validation_constraints_appear_in_the_schema() {
    let schema = input_schema("register");
    let properties = &schema["properties"];
    assert_eq!(properties["name"]["minLength"], 3);
    assert_eq!(properties["name"]["maxLength"], 20);
    assert_eq!(properties["email"]["format"], "email");
    assert_eq!(properties["homepage"]["format"], "uri");
    assert_eq!(
        properties["favourite_sku"]["pattern"],
        "^[A-Z]{3}-[0-9]{4}$"
    );
    assert_eq!(properties["favourite_sku"]["examples"], json!(["ABC-0001"]));
    assert_eq!(properties["tags"]["minItems"], 1);
    assert_eq!(properties["tags"]["maxItems"], 3);
}

#[test]
fn recursive_types_keep_only_their_own_defs() {
    let schema = input_schema("count_nodes");
    let defs = schema["$defs"].as_object().expect("recursion needs $defs");
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["Tree"]);
    // The first level is inlined; only the recursion refers back.
    let tree = &schema["properties"]["tree"];
    assert_eq!(tree["type"], "object");
    assert_eq!(tree["properties"]["label"]["type"], "string");
    assert_eq!(
        tree["properties"]["children"]["items"]["$ref"],
        "#/$defs/Tree"
    );
    assert_valid_2020_12(&schema);
}

#[tokio::test]
async fn recursive_arguments_are_validated_with_paths() {
    let server = server();
    let ok = call(
        &server,
        "count_nodes",
        json!({"tree": {"label": "a", "children": [{"label": "b"}, {"label": "c", "children": [{"label": "d"}]}]}}),
    )
    .await;
    assert_eq!(ok_text(&ok), "a has 4 nodes");
    let bad = call(
        &server,
        "count_nodes",
        json!({"tree": {"label": "a", "children": [{"label": "b"}, {"label": "c", "children": [{"label": 4}]}]}}),
    )
    .await;
    assert_eq!(
        violation_messages(&bad),
        ["Argument 'tree.children[1].children[0].label' expected a string, but received 4."]
    );
}

#[test]
fn full_profile_publishes_the_canonical_schema() {
    let server = McpServer::builder(())
        .tool(every_type_tool())
        .schema_profile(SchemaProfile::Full)
        .build()
        .unwrap();
    let schema = published(&server, "every_type")["inputSchema"].clone();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["properties"]["address"]["$ref"], "#/$defs/Address");
    assert_valid_2020_12(&schema);
}

#[test]
fn object_outputs_are_not_wrapped() {
    let server = server();
    let output = published(&server, "quote")["outputSchema"].clone();
    assert_eq!(output["type"], "object");
    assert_eq!(output["required"], json!(["sku", "total_cents"]));
    assert_eq!(output["properties"]["total_cents"]["minimum"], 0);
}

#[test]
fn non_object_outputs_are_wrapped_in_result() {
    let output = published(&server(), "list_items")["outputSchema"].clone();
    assert_eq!(output["type"], "object");
    assert_eq!(output["required"], json!(["result"]));
    let items = &output["properties"]["result"];
    assert_eq!(items["type"], "array");
    assert_eq!(items["items"]["type"], "object");
    assert_eq!(items["items"]["required"], json!(["sku", "price_cents"]));
    assert_portable(&output, false);
}

#[tokio::test]
async fn non_object_results_are_wrapped_in_result() {
    let result = call(&server(), "list_items", json!({})).await;
    let expected = json!({"result": [
        {"sku": "ABC-0000", "price_cents": 0},
        {"sku": "ABC-0001", "price_cents": 100}
    ]});
    assert_eq!(result.structured_content.as_ref(), Some(&expected));
    let text: Value = serde_json::from_str(&ok_text(&result)).unwrap();
    assert_eq!(text, expected);
}

#[test]
fn tools_without_structured_output_have_no_output_schema() {
    let server = server();
    for name in [
        "hello",
        "noop",
        "pixel",
        "raw_result",
        "every_type",
        "read_secret",
    ] {
        assert!(
            published(&server, name).get("outputSchema").is_none(),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Descriptions, annotations, names, metadata
// ---------------------------------------------------------------------------------------

#[test]
fn arguments_section_moves_into_argument_descriptions() {
    let tool = published(&server(), "quote");
    assert_eq!(tool["description"], "Price a quantity of one catalog item.");
    let properties = &tool["inputSchema"]["properties"];
    assert_eq!(
        properties["sku"]["description"],
        "Catalog code such as \"ABC-0001\"."
    );
    assert_eq!(properties["quantity"]["description"], "How many to price.");
}

#[test]
fn description_attribute_overrides_the_doc_comment() {
    let tool = published(&server(), "described");
    assert_eq!(tool["description"], "Overrides the doc comment.");
}

#[test]
fn whole_input_fields_are_described_by_their_doc_comments() {
    let schema = input_schema("place_order");
    assert_eq!(
        schema["properties"]["customer"]["description"],
        "Who orders."
    );
    assert_eq!(
        schema["properties"]["items"]["items"]["properties"]["qty"]["description"],
        "How many."
    );
    assert_eq!(schema["required"], json!(["customer", "email", "items"]));
}

#[test]
fn annotations_title_name_and_meta_are_published() {
    let tool = published(&server(), "catalog.delete_item");
    assert_eq!(tool["name"], "catalog.delete_item");
    assert_eq!(tool["title"], "Delete a catalog item");
    assert_eq!(
        tool["annotations"],
        json!({
            "title": "Delete a catalog item",
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": true,
            "openWorldHint": false
        })
    );
    assert_eq!(tool["_meta"], json!({"team": "catalog", "version": 2}));
}

#[test]
fn flags_alone_set_only_their_hints() {
    let tool = published(&server(), "search");
    assert_eq!(
        tool["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true})
    );
    assert!(tool.get("title").is_none());
    assert!(tool.get("_meta").is_none());
}

#[test]
fn tools_without_hints_have_no_annotations() {
    let tool = published(&server(), "hello");
    assert!(tool.get("annotations").is_none(), "{tool}");
    assert_eq!(tool["description"], "Say hello.");
}

#[tokio::test]
async fn a_renamed_tool_is_called_by_its_new_name() {
    let server = server();
    let result = call(&server, "catalog.delete_item", json!({"sku": "ABC-0001"})).await;
    assert_eq!(ok_text(&result), "deleted ABC-0001");
    assert!(server.call("delete_item", None).await.is_err());
}

// ---------------------------------------------------------------------------------------
// Caching
// ---------------------------------------------------------------------------------------

#[test]
fn tool_definitions_are_built_once() {
    let first = quote_tool::<()>().info();
    let second = quote_tool::<()>().info();
    assert!(std::ptr::eq(first, second));
    // The definition does not depend on the state type.
    assert!(std::ptr::eq(first, quote_tool::<Counter>().info()));
    assert!(std::ptr::eq(
        first.input_schema(),
        quote_tool::<()>().info().input_schema()
    ));
}

#[test]
fn method_definitions_are_built_once() {
    let first = Counter::tools();
    let second = Counter::tools();
    assert_eq!(first.len(), second.len());
    for (a, b) in first.iter().zip(&second) {
        assert!(std::ptr::eq(a.info(), b.info()), "{}", a.info().name());
    }
}

#[test]
fn the_tool_list_is_built_once_per_server() {
    let server = server();
    let first = server.registry().list();
    let second = server.registry().list();
    assert!(std::ptr::eq(first, second));
    assert!(std::sync::Arc::ptr_eq(
        &first[0].input_schema,
        &server.registry().list()[0].input_schema
    ));
    assert!(std::ptr::eq(
        server.registry().published("quote").unwrap(),
        &first[0]
    ));
}

#[test]
fn the_list_keeps_registration_order() {
    let names: Vec<String> = counter_server()
        .registry()
        .list()
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(names, ["get", "add", "double", "broken", "hello"]);
}

// ---------------------------------------------------------------------------------------
// Return types
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn string_results_are_one_text_block() {
    let result = call(&server(), "slow_add", json!({"a": 2, "b": 40})).await;
    assert_eq!(
        wire(&result)["content"],
        json!([{"type": "text", "text": "42"}])
    );
    assert!(result.structured_content.is_none());
    assert_ne!(result.is_error, Some(true));
}

#[tokio::test]
async fn static_str_results_are_text() {
    assert_eq!(ok_text(&call(&server(), "hello", json!({})).await), "hello");
}

#[tokio::test]
async fn unit_results_say_the_tool_completed() {
    assert_eq!(
        ok_text(&call(&server(), "noop", json!({})).await),
        "Tool 'noop' completed."
    );
}

#[tokio::test]
async fn json_results_are_structured_content_with_a_text_copy() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": 4}),
    )
    .await;
    let expected = json!({"sku": "ABC-0001", "total_cents": 1000});
    assert_eq!(result.structured_content.as_ref(), Some(&expected));
    let text: Value = serde_json::from_str(&ok_text(&result)).unwrap();
    assert_eq!(text, expected);
}

#[tokio::test]
async fn content_blocks_are_passed_through() {
    let result = call(&server(), "pixel", json!({})).await;
    assert_ne!(result.is_error, Some(true));
    let content = wire(&result)["content"].clone();
    assert_eq!(content[0]["type"], "image");
    assert_eq!(content[0]["mimeType"], "image/png");
    assert_eq!(content[0]["data"], "iVBORw0KGgo=");
    assert_eq!(content[1], json!({"type": "text", "text": "a red pixel"}));
    assert!(result.structured_content.is_none());
}

#[tokio::test]
async fn call_tool_results_are_returned_as_built() {
    let result = call(&server(), "raw_result", json!({})).await;
    assert_eq!(
        result,
        CallToolResult::success(vec![ContentBlock::text("one"), ContentBlock::text("two")])
    );
}

#[tokio::test]
async fn ok_results_of_result_types_are_unwrapped() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "XYZ-9999", "quantity": 1}),
    )
    .await;
    assert_eq!(
        result.structured_content,
        Some(json!({"sku": "XYZ-9999", "total_cents": 250}))
    );
}

// ---------------------------------------------------------------------------------------
// Methods on a state type
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn sync_and_async_methods_share_the_state() {
    let server = counter_server();
    assert_eq!(ok_text(&call(&server, "get", json!({})).await), "0");
    let added = call(&server, "add", json!({"by": 3})).await;
    assert_eq!(added.structured_content, Some(json!({"total": 3})));
    let added = call(&server, "add", json!({"by": 4})).await;
    assert_eq!(added.structured_content, Some(json!({"total": 7})));
    assert_eq!(ok_text(&call(&server, "get", json!({})).await), "7");
    assert_eq!(server.state().value.load(Ordering::SeqCst), 7);
}

#[tokio::test]
async fn associated_functions_without_self_are_tools_too() {
    let result = call(&counter_server(), "double", json!({"n": 21})).await;
    assert_eq!(ok_text(&result), "42");
}

#[tokio::test]
async fn method_arguments_are_validated() {
    let server = counter_server();
    let result = call(&server, "add", json!({"by": 11})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'by' must be between 1 and 10, but received 11."]
    );
    assert_eq!(server.state().value.load(Ordering::SeqCst), 0);
    assert!(
        result.structured_content.is_none(),
        "add has an output schema"
    );
}

#[test]
fn method_tools_publish_their_docs() {
    let tool = published(&counter_server(), "add");
    assert_eq!(tool["description"], "Add to the counter.");
    assert_eq!(
        tool["inputSchema"]["properties"]["by"]["description"],
        "How much to add."
    );
    assert_eq!(
        published(&counter_server(), "get")["annotations"],
        json!({"readOnlyHint": true})
    );
}

#[tokio::test]
async fn free_tools_work_with_any_state() {
    let result = call(&counter_server(), "hello", json!({})).await;
    assert_eq!(ok_text(&result), "hello");
}

// ---------------------------------------------------------------------------------------
// Whole-input structs
// ---------------------------------------------------------------------------------------

fn valid_order() -> Value {
    json!({
        "customer": "Ada",
        "email": "ada@example.com",
        "items": [
            {"sku": "ABC-0001", "qty": 1},
            {"sku": "ABC-0002", "qty": 2},
            {"sku": "ABC-0003", "qty": 3}
        ]
    })
}

#[tokio::test]
async fn whole_input_struct_receives_the_arguments() {
    let result = call(&server(), "place_order", valid_order()).await;
    assert_eq!(ok_text(&result), "Ada ordered 3 lines");
}

#[tokio::test]
async fn nested_validation_reports_the_item_path() {
    let mut order = valid_order();
    order["items"][2]["qty"] = json!(500);
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'items[2].qty' must be between 1 and 99, but received 500."]
    );
    assert_eq!(
        violation_at(&result, "items[2].qty")["problem"],
        "out_of_range"
    );
}

#[tokio::test]
async fn nested_validation_reports_every_item() {
    let mut order = valid_order();
    order["customer"] = json!("");
    order["email"] = json!("ada");
    order["items"][0]["sku"] = json!("abc");
    order["items"][2]["qty"] = json!(0);
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'customer' must be between 1 and 40 characters long, but received '' (0 characters).",
            "Argument 'email' must be a valid email address, but received 'ada'.",
            "Argument 'items[0].sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$`, but received 'abc'.",
            "Argument 'items[2].qty' must be between 1 and 99, but received 0.",
        ]
    );
}

#[tokio::test]
async fn nested_type_mismatches_report_the_item_path() {
    let mut order = valid_order();
    order["items"][1]["qty"] = json!("two");
    order["items"][2] = json!({"sku": "ABC-0003"});
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'items[1].qty' expected an integer, but received 'two'.",
            "Missing required argument 'items[2].qty': expected an integer between 1 and 99.",
        ]
    );
}

#[tokio::test]
async fn whole_input_rejects_unknown_arguments_with_a_suggestion() {
    let mut order = valid_order();
    order["emial"] = json!("ada@example.com");
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Unknown argument 'emial'. Did you mean 'email'? Valid arguments here: customer, email, items."
        ]
    );
}

#[tokio::test]
async fn nested_validation_of_a_plain_argument_reports_the_item_path() {
    let server = server();
    let lines = json!([
        {"sku": "ABC-0001", "qty": 1},
        {"sku": "ABC-0002", "qty": 2},
        {"sku": "ABC-0003", "qty": 100}
    ]);
    let result = call(&server, "check_lines", json!({"lines": lines})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'lines[2].qty' must be between 1 and 99, but received 100."]
    );
    let ok = call(
        &server,
        "check_lines",
        json!({"lines": [{"sku": "ABC-0001", "qty": 1}]}),
    )
    .await;
    assert_eq!(ok_text(&ok), "1 lines");
}

#[tokio::test]
async fn nested_violations_are_ordered_by_index() {
    let items: Vec<Value> = (0..12)
        .map(|i| json!({"sku": "ABC-0001", "qty": if i == 2 || i == 10 { 0 } else { 1 }}))
        .collect();
    let mut order = valid_order();
    order["items"] = json!(items);
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'items[2].qty' must be between 1 and 99, but received 0.",
            "Argument 'items[10].qty' must be between 1 and 99, but received 0.",
        ]
    );
}

#[tokio::test]
async fn struct_level_checks_speak_about_the_arguments() {
    let server = server();
    assert_eq!(
        ok_text(&call(&server, "count_days", json!({"start": 3, "end": 5})).await),
        "3"
    );
    let result = call(&server, "count_days", json!({"start": 9, "end": 5})).await;
    assert_eq!(
        violation_messages(&result),
        ["The arguments are invalid: 'start' must not be after 'end'."]
    );
    assert_eq!(violation_at(&result, "")["problem"], "custom");
}

#[tokio::test]
async fn whole_input_with_a_flattened_map_accepts_extra_keys() {
    let server = server();
    let result = call(
        &server,
        "store_labels",
        json!({"name": "mug", "color": "red"}),
    )
    .await;
    assert_eq!(ok_text(&result), r#"mug {"color": "red"}"#);
    let result = call(&server, "store_labels", json!({"name": "mug", "size": 5})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'size' expected a string, but received 5."]
    );
}

#[test]
fn whole_input_schema_is_closed_and_portable() {
    let schema = input_schema("place_order");
    assert_eq!(schema["additionalProperties"], false);
    assert_portable(&schema, false);
    assert_eq!(
        schema["properties"]["items"]["items"]["properties"]["sku"]["pattern"],
        "^[A-Z]{3}-[0-9]{4}$"
    );
}

#[tokio::test]
async fn whole_input_works_with_the_runtimes_validator_reexport() {
    let server = server();
    assert_eq!(
        ok_text(&call(&server, "rename", json!({"new_name": "Bob"})).await),
        "Bob"
    );
    let result = call(&server, "rename", json!({"new_name": "B"})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'new_name' must be at least 2 characters long, but received 'B' (1 character)."]
    );
}

// ---------------------------------------------------------------------------------------
// Registry errors
// ---------------------------------------------------------------------------------------

#[test]
fn duplicate_free_tool_names_are_rejected() {
    let error = McpServer::builder(())
        .tool(a_tool())
        .tool(a2_tool())
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::DuplicateTool {
            name: "a".to_string()
        }
    );
    assert_eq!(
        error.to_string(),
        "two tools are named 'a': tool names must be unique within a server (rename one with #[mcp_tool(name = \"...\")])"
    );
}

#[test]
fn registering_the_same_tool_twice_is_rejected() {
    let error = McpServer::builder(Counter::default())
        .tool_set()
        .tool_set()
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::DuplicateTool {
            name: "get".to_string()
        }
    );
}

//! A corpus of tools, one per argument and return type the framework must describe: every
//! integer and float width, text, containers, nested and recursive structs, every serde enum
//! representation, serde attributes, dates, ids, free JSON and a hand-written `JsonSchema`.
//!
//! Most tools echo their one argument back as `Json<T>`, so each type is both an argument
//! (input schema) and a return type (output schema). The checks in `tests/` publish every
//! tool under every profile and hand the schemas to Ajv, python-jsonschema, the Inspector
//! and the profile rule checkers of [`rules`].

pub mod rules;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use mcp_tool_runtime::{Json, McpServer, SchemaProfile, ToolDef, mcp_tool};
use regex::Regex;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A line of an order.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Line {
    /// Catalog code.
    pub sku: String,
    /// How many.
    pub quantity: u32,
}

/// A postal address.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Address {
    /// Street and number.
    pub street: String,
    /// City.
    pub city: String,
    /// Postal code, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zip: Option<String>,
}

/// An order: nested structs and a list of them.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Order {
    /// Where it goes.
    pub ship_to: Address,
    /// What is in it.
    pub lines: Vec<Line>,
    /// A note for the courier.
    pub note: Option<String>,
}

/// A recursive type: a labelled tree.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Tree {
    /// The node's label.
    pub label: String,
    /// Sub-trees.
    #[serde(default)]
    pub children: Vec<Tree>,
}

/// A singly linked list: recursion through `Option<Box<_>>`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Chain {
    /// This link's value.
    pub value: i32,
    /// The rest of the chain.
    pub next: Option<Box<Chain>>,
}

/// A unit enum.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// Red.
    Red,
    /// Dark green.
    DarkGreen,
    /// Blue.
    Blue,
}

/// An externally tagged enum (serde's default).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub enum Shape {
    /// A circle.
    Circle {
        /// Its radius.
        radius: f64,
    },
    /// A square.
    Square(f64),
    /// A point.
    Point,
}

/// An internally tagged enum.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A click.
    Click {
        /// Horizontal position.
        x: i32,
        /// Vertical position.
        y: i32,
    },
    /// A key press.
    Key {
        /// The key.
        key: String,
    },
}

/// An adjacently tagged enum.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(tag = "type", content = "data")]
pub enum Message {
    /// Text.
    Text(String),
    /// A number.
    Number(i64),
}

/// An untagged enum.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum Either {
    /// A count.
    Count(u16),
    /// A name.
    Name(String),
}

/// serde's `rename`, `rename_all`, `default` and `skip`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    /// Renamed to `userName`.
    pub user_name: String,
    /// Renamed explicitly.
    #[serde(rename = "ID")]
    pub identifier: u32,
    /// Defaults to 0 when left out.
    #[serde(default)]
    pub retry_count: u8,
    /// Never on the wire.
    #[serde(skip)]
    pub cache: Option<String>,
}

/// Fields shared by several records, flattened into them.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Audit {
    /// Who made it.
    pub created_by: String,
    /// Version counter.
    pub version: u32,
}

/// A record with a flattened struct.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Document {
    /// Title.
    pub title: String,
    /// Audit fields, flattened.
    #[serde(flatten)]
    pub audit: Audit,
}

/// A percentage with a hand-written schema: an integer from 0 to 100.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
#[serde(try_from = "i64")]
pub struct Percent(pub u8);

impl TryFrom<i64> for Percent {
    type Error = String;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        u8::try_from(value)
            .ok()
            .filter(|v| *v <= 100)
            .map(Percent)
            .ok_or_else(|| format!("{value} is not between 0 and 100"))
    }
}

impl JsonSchema for Percent {
    fn schema_name() -> Cow<'static, str> {
        "Percent".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
            "description": "A percentage."
        })
    }
}

static SKU: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("^[A-Z]{3}-[0-9]{4}$").expect("a valid pattern"));

/// Constraints from `validator` on struct fields.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, validator::Validate)]
pub struct Signup {
    /// Between 3 and 20 characters.
    #[validate(length(min = 3, max = 20))]
    pub handle: String,
    /// 13 to 130.
    #[validate(range(min = 13, max = 130))]
    pub age: u8,
}

macro_rules! echo_tools {
    ($($name:ident, $tool:ident: $ty:ty, $doc:tt;)*) => {
        $(
            #[doc = $doc]
            ///
            /// # Arguments
            /// * `value` - The value to echo.
            #[mcp_tool(read_only)]
            pub fn $name(value: $ty) -> Json<$ty> {
                Json(value)
            }
        )*

        /// Every echo tool, in declaration order.
        fn echo_tools() -> Vec<ToolDef<()>> {
            vec![$($tool()),*]
        }
    };
}

echo_tools! {
    echo_i8, echo_i8_tool: i8, "Echo a value of type `i8`.";
    echo_i16, echo_i16_tool: i16, "Echo a value of type `i16`.";
    echo_i32, echo_i32_tool: i32, "Echo a value of type `i32`.";
    echo_i64, echo_i64_tool: i64, "Echo a value of type `i64`.";
    echo_i128, echo_i128_tool: i128, "Echo a value of type `i128`.";
    echo_isize, echo_isize_tool: isize, "Echo a value of type `isize`.";
    echo_u8, echo_u8_tool: u8, "Echo a value of type `u8`.";
    echo_u16, echo_u16_tool: u16, "Echo a value of type `u16`.";
    echo_u32, echo_u32_tool: u32, "Echo a value of type `u32`.";
    echo_u64, echo_u64_tool: u64, "Echo a value of type `u64`.";
    echo_u128, echo_u128_tool: u128, "Echo a value of type `u128`.";
    echo_usize, echo_usize_tool: usize, "Echo a value of type `usize`.";
    echo_f32, echo_f32_tool: f32, "Echo a value of type `f32`.";
    echo_f64, echo_f64_tool: f64, "Echo a value of type `f64`.";
    echo_bool, echo_bool_tool: bool, "Echo a value of type `bool`.";
    echo_char, echo_char_tool: char, "Echo a value of type `char`.";
    echo_string, echo_string_tool: String, "Echo a value of type `String`.";
    echo_option, echo_option_tool: Option<i32>, "Echo a value of type `Option<i32>`.";
    echo_vec, echo_vec_tool: Vec<String>, "Echo a value of type `Vec<String>`.";
    echo_vec_of_options, echo_vec_of_options_tool: Vec<Option<i32>>, "Echo a value of type `Vec<Option<i32>>`.";
    echo_nested_vec, echo_nested_vec_tool: Vec<Vec<i16>>, "Echo a value of type `Vec<Vec<i16>>`.";
    echo_array, echo_array_tool: [u8; 3], "Echo a value of type `[u8; 3]`.";
    echo_hash_set, echo_hash_set_tool: HashSet<u8>, "Echo a value of type `HashSet<u8>`.";
    echo_btree_map, echo_btree_map_tool: BTreeMap<String, i32>, "Echo a value of type `BTreeMap<String, i32>`.";
    echo_hash_map_of_json, echo_hash_map_of_json_tool: HashMap<String, Value>, "Echo a value of type `HashMap<String, Value>`.";
    echo_tuple, echo_tuple_tool: (i32, String), "Echo a value of type `(i32, String)`.";
    echo_box, echo_box_tool: Box<Line>, "Echo a value of type `Box<Line>`.";
    echo_order, echo_order_tool: Order, "Echo a value of type `Order`.";
    echo_tree, echo_tree_tool: Tree, "Echo a value of type `Tree`.";
    echo_chain, echo_chain_tool: Chain, "Echo a value of type `Chain`.";
    echo_color, echo_color_tool: Color, "Echo a value of type `Color`.";
    echo_colors, echo_colors_tool: Option<Vec<Color>>, "Echo a value of type `Option<Vec<Color>>`.";
    echo_shape, echo_shape_tool: Shape, "Echo a value of type `Shape`.";
    echo_shapes, echo_shapes_tool: Vec<Shape>, "Echo a value of type `Vec<Shape>`.";
    echo_event, echo_event_tool: Event, "Echo a value of type `Event`.";
    echo_message, echo_message_tool: Message, "Echo a value of type `Message`.";
    echo_either, echo_either_tool: Either, "Echo a value of type `Either`.";
    echo_renamed, echo_renamed_tool: Renamed, "Echo a value of type `Renamed`.";
    echo_document, echo_document_tool: Document, "Echo a value of type `Document`.";
    echo_json, echo_json_tool: Value, "Echo a value of type `Value`.";
    echo_percent, echo_percent_tool: Percent, "Echo a value of type `Percent`.";
    echo_signup, echo_signup_tool: Signup, "Echo a value of type `Signup`.";
    echo_address_map, echo_address_map_tool: BTreeMap<String, Address>, "Echo a value of type `BTreeMap<String, Address>`.";
}

#[cfg(feature = "chrono")]
mod dates {
    use mcp_tool_runtime::{Json, mcp_tool};

    /// Echo a calendar date.
    ///
    /// # Arguments
    /// * `value` - A date such as 2024-02-29.
    #[mcp_tool(read_only)]
    pub fn echo_date(value: chrono::NaiveDate) -> Json<chrono::NaiveDate> {
        Json(value)
    }

    /// Echo an instant.
    ///
    /// # Arguments
    /// * `value` - An RFC 3339 date and time.
    #[mcp_tool(read_only)]
    pub fn echo_datetime(
        value: chrono::DateTime<chrono::Utc>,
    ) -> Json<chrono::DateTime<chrono::Utc>> {
        Json(value)
    }
}

#[cfg(feature = "uuid")]
mod ids {
    use mcp_tool_runtime::{Json, mcp_tool};

    /// Echo a UUID.
    ///
    /// # Arguments
    /// * `value` - A UUID such as 67e55044-10b1-426f-9247-bb680e5fe0c8.
    #[mcp_tool(read_only)]
    pub fn echo_uuid(value: uuid::Uuid) -> Json<uuid::Uuid> {
        Json(value)
    }
}

/// A tool with many arguments: required, optional, defaulted, constrained.
///
/// # Arguments
/// * `sku` - Catalog code such as "ABC-0001".
/// * `quantity` - How many.
/// * `price` - Unit price, above zero.
/// * `color` - A color, if it matters.
/// * `tags` - Free labels.
/// * `limit` - At most this many results.
/// * `express` - Ship express.
#[mcp_tool(read_only)]
#[allow(clippy::too_many_arguments)]
pub fn place_order(
    #[validate(regex(path = *SKU))] sku: String,
    #[validate(range(min = 1, max = 100))] quantity: u32,
    #[validate(range(exclusive_min = 0.0))] price: f64,
    color: Option<Color>,
    #[validate(length(max = 5))] tags: Option<Vec<String>>,
    #[arg(default = 10)] limit: u32,
    #[arg(default)] express: bool,
) -> String {
    format!("{sku} {quantity} {price} {color:?} {tags:?} {limit} {express}")
}

/// A tool whose whole input is one validated struct.
///
/// # Arguments
/// * `signup` - The new account.
#[mcp_tool]
pub fn sign_up(#[arg(input)] signup: Signup) -> Json<Signup> {
    Json(signup)
}

/// A tool without arguments.
#[mcp_tool(read_only)]
pub fn ping() -> String {
    "pong".into()
}

/// Every tool of the corpus.
pub fn tools() -> Vec<ToolDef<()>> {
    let mut tools = echo_tools();
    #[cfg(feature = "chrono")]
    tools.extend([dates::echo_date_tool(), dates::echo_datetime_tool()]);
    #[cfg(feature = "uuid")]
    tools.push(ids::echo_uuid_tool());
    tools.extend([place_order_tool(), sign_up_tool(), ping_tool()]);
    tools
}

/// The corpus as a server publishing under `profile`.
pub fn server(profile: SchemaProfile) -> McpServer<()> {
    McpServer::builder(())
        .tools(tools())
        .implementation("mcp-tool-corpus", env!("CARGO_PKG_VERSION"))
        .schema_profile(profile)
        .build()
        .expect("the corpus tools have unique, portable names")
}

//! Benchmarks of mcp-tool against the two things a user would otherwise write: hand-written
//! serde + `validator` code, and rmcp's own `#[tool]` router.
//!
//! Every benchmark measures one tool, `add_item`, implemented three ways (modules
//! [`ours`], [`handwritten`] and [`rmcp_tool`]). It takes a string with a regex, an integer
//! with a range and an optional string, and returns structured JSON. The goals and how each is
//! measured are in `BENCHMARKS.md` at the repository root.

use std::future::Future;
use std::pin::pin;
use std::sync::LazyLock;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use validator::Validate;

pub mod compile;
pub mod http_load;
pub mod instructions;
pub mod measure;
pub mod process;
pub mod tokens;

/// Catalog codes: three capital letters, a dash, four digits.
pub static SKU: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("^[A-Z]{3}-[0-9]{4}$").expect("fixed pattern compiles"));

/// What every implementation of `add_item` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartLine {
    /// The catalog code that was added.
    pub sku: String,
    /// How many were added.
    pub quantity: u32,
    /// The note, if any.
    pub note: Option<String>,
    /// Price of the line in cents.
    pub total_cents: u64,
}

/// The tool's logic, shared by all three implementations so that only the layer around it
/// differs.
pub fn add_item_logic(sku: String, quantity: u32, note: Option<String>) -> CartLine {
    CartLine {
        sku,
        quantity,
        note,
        total_cents: 250 * u64::from(quantity),
    }
}

/// The arguments struct a user writes by hand for the hand-written and rmcp versions.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct AddItemArgs {
    /// Catalog code such as "ABC-0001".
    #[validate(regex(path = *SKU))]
    pub sku: String,
    /// How many to add.
    #[validate(range(min = 1, max = 100))]
    pub quantity: u32,
    /// A note for this cart line.
    #[validate(length(max = 200))]
    pub note: Option<String>,
}

/// Valid arguments of `add_item`.
pub fn valid_arguments() -> Value {
    json!({"sku": "ABC-0001", "quantity": 3, "note": "gift wrap, please"})
}

/// Arguments with three problems that serde and the schema find: a wrong pattern, a wrong
/// type, an unknown key (the README's example).
pub fn invalid_arguments() -> Value {
    json!({"sku": "abc", "quantity": "five", "quantiy": 3})
}

/// Arguments with three problems that only `validator` finds (every type is right).
pub fn invalid_constraints() -> Value {
    json!({"sku": "abc", "quantity": 500, "note": "x".repeat(201)})
}

/// `add_item` with `#[mcp_tool]`.
pub mod ours {
    use mcp_tool_runtime::{Json, McpServer, mcp_tool};

    use super::{CartLine, SKU, add_item_logic};

    /// Add an item to the shopping cart.
    ///
    /// # Arguments
    /// * `sku` - Catalog code such as "ABC-0001".
    /// * `quantity` - How many to add.
    /// * `note` - A note for this cart line.
    // `async` because the benchmarks measure dispatch: a sync tool would add the thread it
    // runs on (the price of not stalling the server), which `P1s` measures on its own.
    #[mcp_tool]
    pub async fn add_item(
        #[validate(regex(path = *SKU))] sku: String,
        #[validate(range(min = 1, max = 100))] quantity: u32,
        #[validate(length(max = 200))] note: Option<String>,
    ) -> Json<CartLine> {
        Json(add_item_logic(sku, quantity, note))
    }

    /// `add_item` as a sync function, which runs on a thread of its own.
    #[mcp_tool]
    pub fn add_item_sync(
        #[validate(regex(path = *SKU))] sku: String,
        #[validate(range(min = 1, max = 100))] quantity: u32,
        #[validate(length(max = 200))] note: Option<String>,
    ) -> Json<CartLine> {
        Json(add_item_logic(sku, quantity, note))
    }

    /// A server with `add_item`, and its sync twin for `P1s`.
    pub fn server() -> McpServer<()> {
        builder().build().expect("one tool builds")
    }

    /// The same server with one middleware around every call (`P1m`, `P1t`, `P5m`).
    pub fn server_with(middleware: impl mcp_tool_runtime::middleware::Middleware) -> McpServer<()> {
        builder()
            .middleware(middleware)
            .build()
            .expect("one tool builds")
    }

    fn builder() -> mcp_tool_runtime::ServerBuilder<()> {
        McpServer::builder(())
            .tool(add_item_tool())
            .tool(add_item_sync_tool())
            .implementation("bench-ours", "0.1.0")
    }
}

/// A middleware that only passes the call on: what the chain itself costs (one boxed future
/// per call).
pub struct Noop;

impl mcp_tool_runtime::middleware::Middleware for Noop {
    async fn handle(
        &self,
        request: mcp_tool_runtime::middleware::ToolRequest<'_>,
        next: mcp_tool_runtime::middleware::Next<'_>,
    ) -> Result<mcp_tool_runtime::middleware::CallOutcome, mcp_tool_runtime::ToolError> {
        Ok(next.run(request).await)
    }
}

/// `add_item` by hand: `serde_json::from_value`, `validate()`, `to_value`.
pub mod handwritten {
    use rmcp::model::{CallToolResult, ContentBlock};
    use serde_json::Value;
    use validator::Validate;

    use super::{AddItemArgs, add_item_logic};

    /// One call, from JSON arguments to the tool result an MCP server returns.
    pub fn call(arguments: Value) -> CallToolResult {
        let args: AddItemArgs = match serde_json::from_value(arguments) {
            Ok(args) => args,
            Err(error) => {
                return CallToolResult::error(vec![ContentBlock::text(error.to_string())]);
            }
        };
        if let Err(errors) = args.validate() {
            return CallToolResult::error(vec![ContentBlock::text(errors.to_string())]);
        }
        let line = add_item_logic(args.sku, args.quantity, args.note);
        match serde_json::to_value(line) {
            Ok(value) => CallToolResult::structured(value),
            Err(error) => CallToolResult::error(vec![ContentBlock::text(error.to_string())]),
        }
    }
}

/// `add_item` with rmcp's `#[tool]`, the router kept in the server (rmcp's fastest setup: the
/// default `#[tool_handler]` rebuilds the router on every call).
pub mod rmcp_tool {
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::{Json, Parameters};
    use rmcp::{tool, tool_handler, tool_router};
    use validator::Validate;

    use super::{AddItemArgs, CartLine, add_item_logic};

    /// The rmcp server.
    #[derive(Clone)]
    pub struct RmcpServer {
        tool_router: ToolRouter<Self>,
    }

    impl Default for RmcpServer {
        fn default() -> Self {
            Self {
                tool_router: Self::tool_router(),
            }
        }
    }

    #[tool_router]
    impl RmcpServer {
        /// Add an item to the shopping cart.
        #[tool(description = "Add an item to the shopping cart.")]
        pub fn add_item(
            &self,
            Parameters(args): Parameters<AddItemArgs>,
        ) -> Result<Json<CartLine>, String> {
            args.validate().map_err(|errors| errors.to_string())?;
            Ok(Json(add_item_logic(args.sku, args.quantity, args.note)))
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl rmcp::ServerHandler for RmcpServer {}

    /// The same tool as rmcp's quick start writes it (`#[tool_router(server_handler)]`),
    /// which builds the router on every call.
    #[derive(Clone, Default)]
    pub struct RmcpQuickStartServer;

    #[tool_router(server_handler)]
    impl RmcpQuickStartServer {
        /// Add an item to the shopping cart.
        #[tool(description = "Add an item to the shopping cart.")]
        pub fn add_item(
            &self,
            Parameters(args): Parameters<AddItemArgs>,
        ) -> Result<Json<CartLine>, String> {
            args.validate().map_err(|errors| errors.to_string())?;
            Ok(Json(add_item_logic(args.sku, args.quantity, args.note)))
        }
    }
}

/// Two hundred tools of the same shape as `add_item`, for the `tools/list` benchmark.
pub mod many {
    use mcp_tool_runtime::{Json, McpServer, mcp_tool};

    use super::{CartLine, SKU, add_item_logic};

    macro_rules! many_tools {
        ($($name:ident $definition:ident)*) => {
            $(
                /// One of many tools of the same shape.
                ///
                /// # Arguments
                /// * `sku` - Catalog code such as "ABC-0001".
                /// * `quantity` - How many to add.
                /// * `note` - A note for this cart line.
                #[mcp_tool]
                pub fn $name(
                    #[validate(regex(path = *SKU))] sku: String,
                    #[validate(range(min = 1, max = 100))] quantity: u32,
                    #[validate(length(max = 200))] note: Option<String>,
                ) -> Json<CartLine> {
                    Json(add_item_logic(sku, quantity, note))
                }
            )*

            /// A server with all 200 tools.
            pub fn server() -> McpServer<()> {
                McpServer::builder(())
                    $(.tool($definition()))*
                    .build()
                    .expect("200 distinct tools build")
            }

            /// The same server with a no-op middleware (`P4m`).
            pub fn server_with_noop() -> McpServer<()> {
                McpServer::builder(())
                    $(.tool($definition()))*
                    .middleware(crate::Noop)
                    .build()
                    .expect("200 distinct tools build")
            }
        };
    }

    many_tools!(
    t000 t000_tool t001 t001_tool t002 t002_tool t003 t003_tool t004 t004_tool t005 t005_tool t006 t006_tool t007 t007_tool t008 t008_tool t009 t009_tool
    t010 t010_tool t011 t011_tool t012 t012_tool t013 t013_tool t014 t014_tool t015 t015_tool t016 t016_tool t017 t017_tool t018 t018_tool t019 t019_tool
    t020 t020_tool t021 t021_tool t022 t022_tool t023 t023_tool t024 t024_tool t025 t025_tool t026 t026_tool t027 t027_tool t028 t028_tool t029 t029_tool
    t030 t030_tool t031 t031_tool t032 t032_tool t033 t033_tool t034 t034_tool t035 t035_tool t036 t036_tool t037 t037_tool t038 t038_tool t039 t039_tool
    t040 t040_tool t041 t041_tool t042 t042_tool t043 t043_tool t044 t044_tool t045 t045_tool t046 t046_tool t047 t047_tool t048 t048_tool t049 t049_tool
    t050 t050_tool t051 t051_tool t052 t052_tool t053 t053_tool t054 t054_tool t055 t055_tool t056 t056_tool t057 t057_tool t058 t058_tool t059 t059_tool
    t060 t060_tool t061 t061_tool t062 t062_tool t063 t063_tool t064 t064_tool t065 t065_tool t066 t066_tool t067 t067_tool t068 t068_tool t069 t069_tool
    t070 t070_tool t071 t071_tool t072 t072_tool t073 t073_tool t074 t074_tool t075 t075_tool t076 t076_tool t077 t077_tool t078 t078_tool t079 t079_tool
    t080 t080_tool t081 t081_tool t082 t082_tool t083 t083_tool t084 t084_tool t085 t085_tool t086 t086_tool t087 t087_tool t088 t088_tool t089 t089_tool
    t090 t090_tool t091 t091_tool t092 t092_tool t093 t093_tool t094 t094_tool t095 t095_tool t096 t096_tool t097 t097_tool t098 t098_tool t099 t099_tool
    t100 t100_tool t101 t101_tool t102 t102_tool t103 t103_tool t104 t104_tool t105 t105_tool t106 t106_tool t107 t107_tool t108 t108_tool t109 t109_tool
    t110 t110_tool t111 t111_tool t112 t112_tool t113 t113_tool t114 t114_tool t115 t115_tool t116 t116_tool t117 t117_tool t118 t118_tool t119 t119_tool
    t120 t120_tool t121 t121_tool t122 t122_tool t123 t123_tool t124 t124_tool t125 t125_tool t126 t126_tool t127 t127_tool t128 t128_tool t129 t129_tool
    t130 t130_tool t131 t131_tool t132 t132_tool t133 t133_tool t134 t134_tool t135 t135_tool t136 t136_tool t137 t137_tool t138 t138_tool t139 t139_tool
    t140 t140_tool t141 t141_tool t142 t142_tool t143 t143_tool t144 t144_tool t145 t145_tool t146 t146_tool t147 t147_tool t148 t148_tool t149 t149_tool
    t150 t150_tool t151 t151_tool t152 t152_tool t153 t153_tool t154 t154_tool t155 t155_tool t156 t156_tool t157 t157_tool t158 t158_tool t159 t159_tool
    t160 t160_tool t161 t161_tool t162 t162_tool t163 t163_tool t164 t164_tool t165 t165_tool t166 t166_tool t167 t167_tool t168 t168_tool t169 t169_tool
    t170 t170_tool t171 t171_tool t172 t172_tool t173 t173_tool t174 t174_tool t175 t175_tool t176 t176_tool t177 t177_tool t178 t178_tool t179 t179_tool
    t180 t180_tool t181 t181_tool t182 t182_tool t183 t183_tool t184 t184_tool t185 t185_tool t186 t186_tool t187 t187_tool t188 t188_tool t189 t189_tool
    t190 t190_tool t191 t191_tool t192 t192_tool t193 t193_tool t194 t194_tool t195 t195_tool t196 t196_tool t197 t197_tool t198 t198_tool t199 t199_tool
    );
}

/// Runs a future that never waits (every tool here is synchronous) without an executor, so
/// that no scheduler cost is added to what is measured.
pub fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    for _ in 0..1000 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
    panic!("a benchmarked future kept waiting; it needs a real executor")
}

/// Times `f` for about `budget` and returns nanoseconds per call (the caller takes medians).
pub fn per_call_ns(iterations: u64, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    start.elapsed().as_nanos() as f64 / iterations as f64
}

/// How many iterations of `f` take about `target`.
pub fn calibrate(target: Duration, mut f: impl FnMut()) -> u64 {
    let mut iterations = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iterations {
            f();
        }
        let elapsed = start.elapsed();
        if elapsed >= target / 4 || iterations >= 1 << 30 {
            let scaled = target.as_nanos() * u128::from(iterations) / elapsed.as_nanos().max(1);
            return u64::try_from(scaled).unwrap_or(u64::MAX).max(1);
        }
        iterations *= 2;
    }
}

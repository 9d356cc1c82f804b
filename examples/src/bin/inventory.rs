//! `inventory`: an MCP server for a small shop, over stdio or Streamable HTTP.
//!
//! ```text
//! inventory                                   # stdio
//! inventory --http 127.0.0.1:8080             # Streamable HTTP at http://127.0.0.1:8080/mcp
//! inventory --http 127.0.0.1:8080 --stateless # no sessions: GET and DELETE get 405
//! inventory --http 127.0.0.1:8080 --apps      # with the cart view of MCP Apps
//! ```
//!
//! Options:
//! - `--max-body-bytes N`: HTTP body limit (default 256 KiB).
//! - `--max-connections N`: HTTP connections served at once (default 512).
//! - `--max-sessions N`: HTTP sessions alive at once (default 10 000); past it, `initialize`
//!   gets 503.
//! - `--session-idle-timeout-ms N`: how long an HTTP session may go without a message before
//!   it is closed (default 300 000 ms).
//! - `--header-timeout-ms N`, `--body-timeout-ms N`: how long an HTTP request's header (or an
//!   idle connection) and its body may take (default 30 000 ms each).
//! - `--max-message-bytes N`: stdio message limit (default 4 MiB).
//! - `--max-array-items N`, `--max-object-keys N`, `--max-values N`: the largest array and
//!   object a message may hold, and the most values in all (default 100 000, 10 000 and
//!   200 000, stdio and HTTP alike); a call over them is refused before it is parsed.
//! - `--grace-period-ms N`: after SIGTERM or SIGINT, how long calls in flight get to finish
//!   (default 10 000 ms, stdio and HTTP alike); the server then exits 0.
//! - `--reservation-window-ms N`: the window of `reserve_stock`'s rate limit (5 calls per
//!   window, default 60 000 ms). Tests shorten it so that they need not wait a minute.
//! - `--apps`: adds `show_cart`, its cart view (`ui://inventory/cart`, MCP Apps) and the
//!   view-only `remove_cart_line`, for clients that declare the extension.
//! - `--schema-profile NAME`: how schemas are published: `portable` (default), `strict`
//!   (OpenAI), `gemini` or `full` (stdio and HTTP alike).
//!
//! - `--redis URL`: keep tasks and `reserve_stock`'s rate limit in this Redis, shared by every
//!   instance started with it (behind a load balancer).
//! - `--request-state-key HEX`: the key (at least 32 bytes) that seals multi-round-trip state,
//!   the same for every instance.
//!
//! HTTP also reads `MCP_ALLOWED_HOSTS`, `MCP_ALLOWED_ORIGINS` and `MCP_AUTH_TOKEN`.

use std::process::ExitCode;
use std::time::Duration;

use mcp_tool_examples::inventory::{
    Inventory, RESERVATION_WINDOW, RESERVATIONS_PER_WINDOW, cart_view,
};
use mcp_tool_examples::logging;
use mcp_tool_examples::shared::Sharing;
use mcp_tool_runtime::middleware::RateLimit;
use mcp_tool_runtime::{HttpOptions, InputLimits, McpServer, SchemaProfile, StdioOptions};

/// The command line.
struct Args {
    http: Option<String>,
    stateless: bool,
    max_body_bytes: Option<usize>,
    max_connections: Option<usize>,
    max_sessions: Option<usize>,
    session_idle_timeout: Option<Duration>,
    header_timeout: Option<Duration>,
    body_timeout: Option<Duration>,
    max_message_bytes: Option<usize>,
    limits: InputLimits,
    grace_period: Option<Duration>,
    window: Duration,
    schema_profile: SchemaProfile,
    sharing: Sharing,
    apps: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        http: None,
        stateless: false,
        max_body_bytes: None,
        max_connections: None,
        max_sessions: None,
        session_idle_timeout: None,
        header_timeout: None,
        body_timeout: None,
        max_message_bytes: None,
        limits: InputLimits::default(),
        grace_period: None,
        window: RESERVATION_WINDOW,
        schema_profile: SchemaProfile::default(),
        sharing: Sharing::default(),
        apps: false,
    };
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        let mut value = |name: &str| words.next().ok_or(format!("{name} needs a value"));
        let number = |name: &str, text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{name} takes a whole number, not '{text}'"))
        };
        match word.as_str() {
            "--http" => args.http = Some(value("--http")?),
            "--stateless" => args.stateless = true,
            "--apps" => args.apps = true,
            "--max-body-bytes" => {
                let text = value("--max-body-bytes")?;
                args.max_body_bytes = Some(number("--max-body-bytes", text)? as usize);
            }
            "--max-connections" => {
                let text = value("--max-connections")?;
                args.max_connections = Some(number("--max-connections", text)? as usize);
            }
            "--max-sessions" => {
                let text = value("--max-sessions")?;
                args.max_sessions = Some(number("--max-sessions", text)? as usize);
            }
            "--session-idle-timeout-ms" => {
                let text = value("--session-idle-timeout-ms")?;
                let millis = number("--session-idle-timeout-ms", text)?;
                args.session_idle_timeout = Some(Duration::from_millis(millis));
            }
            "--header-timeout-ms" => {
                let text = value("--header-timeout-ms")?;
                let millis = number("--header-timeout-ms", text)?;
                args.header_timeout = Some(Duration::from_millis(millis));
            }
            "--body-timeout-ms" => {
                let text = value("--body-timeout-ms")?;
                let millis = number("--body-timeout-ms", text)?;
                args.body_timeout = Some(Duration::from_millis(millis));
            }
            "--max-message-bytes" => {
                let text = value("--max-message-bytes")?;
                args.max_message_bytes = Some(number("--max-message-bytes", text)? as usize);
            }
            "--max-array-items" => {
                let text = value("--max-array-items")?;
                let items = number("--max-array-items", text)? as usize;
                args.limits = args.limits.max_array_items(items);
            }
            "--max-object-keys" => {
                let text = value("--max-object-keys")?;
                let keys = number("--max-object-keys", text)? as usize;
                args.limits = args.limits.max_object_keys(keys);
            }
            "--max-values" => {
                let text = value("--max-values")?;
                let values = number("--max-values", text)? as usize;
                args.limits = args.limits.max_values(values);
            }
            "--grace-period-ms" => {
                let text = value("--grace-period-ms")?;
                let millis = number("--grace-period-ms", text)?;
                args.grace_period = Some(Duration::from_millis(millis));
            }
            "--reservation-window-ms" => {
                let text = value("--reservation-window-ms")?;
                args.window = Duration::from_millis(number("--reservation-window-ms", text)?);
            }
            "--schema-profile" => {
                let name = value("--schema-profile")?;
                args.schema_profile = name.parse().map_err(|e| format!("{e}"))?;
            }
            other => {
                if !args.sharing.read(other, &mut words)? {
                    return Err(format!("unknown option '{other}'"));
                }
            }
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    logging::init_stderr();
    let code = run();
    // Log lines go through a queue (so that an unread stderr never blocks a call): let the
    // last ones out before the process ends.
    logging::flush();
    code
}

fn run() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(error) => {
            tracing::error!(%error, "usage: inventory [--http ADDR [--stateless] [--max-body-bytes N] [--max-connections N] [--max-sessions N] [--session-idle-timeout-ms N] [--header-timeout-ms N] [--body-timeout-ms N]] [--max-message-bytes N] [--max-array-items N] [--max-object-keys N] [--max-values N] [--grace-period-ms N] [--reservation-window-ms N] [--schema-profile portable|strict|gemini|full] [--redis URL] [--request-state-key HEX] [--apps]");
            return ExitCode::FAILURE;
        }
    };
    let inventory = match Inventory::open_with_window(args.window) {
        Ok(inventory) => inventory,
        Err(error) => {
            tracing::error!(%error, "could not create the inventory database");
            return ExitCode::FAILURE;
        }
    };
    // stdio serves one client whose work here is a few SQLite statements: one thread runs it
    // all, starts faster and keeps the allocator to one arena, so peak memory settles after
    // the first calls (BENCHMARKS.md, P7). HTTP serves many clients at once and gets a worker
    // per core.
    let runtime = match args.http {
        Some(_) => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build(),
        None => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
    };
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        match build(inventory, &args).await {
            Ok(server) => serve(server, args).await,
            Err(error) => {
                tracing::error!(%error, "cannot build the server");
                ExitCode::FAILURE
            }
        }
    })
}

/// The server, its rate limit and tasks in the shared store when `--redis` names one.
async fn build(inventory: Inventory, args: &Args) -> Result<McpServer<Inventory>, String> {
    let mut builder = McpServer::builder(inventory)
        .tool_set()
        .implementation("inventory", env!("CARGO_PKG_VERSION"))
        .instructions("A small shop: search the catalog, manage a cart, look up users.")
        .schema_profile(args.schema_profile)
        .input_limits(args.limits);
    if args.apps {
        builder = builder
            .tools(Inventory::cart_app())
            .ui_resource(cart_view());
    }
    if let Some(store) = args.sharing.store().await? {
        // The tool's own limit counts this process's calls; behind a load balancer the same
        // limit is kept for all instances together, in the store.
        let calls = u32::try_from(RESERVATIONS_PER_WINDOW).unwrap_or(u32::MAX);
        let limit = RateLimit::new(calls, args.window)
            .only(["reserve_stock"])
            .in_store(store.clone());
        builder = builder.middleware(limit).shared_store(store);
    }
    if let Some(key) = args.sharing.request_state_key.clone() {
        builder = builder.request_state_key(key);
    }
    builder.build().map_err(|error| error.to_string())
}

/// Serves `server` over the transport `args` choose until the client goes away.
async fn serve(server: McpServer<Inventory>, args: Args) -> ExitCode {
    let served = match args.http.clone() {
        Some(addr) => {
            let options = http_options(&args);
            match tokio::net::TcpListener::bind(&addr).await {
                Ok(listener) => {
                    let local = listener.local_addr().map(|a| a.to_string()).unwrap_or(addr);
                    tracing::info!("inventory serving MCP at http://{local}/mcp");
                    server.serve_http_on(listener, options).await
                }
                Err(error) => {
                    tracing::error!(%error, %addr, "cannot listen");
                    return ExitCode::FAILURE;
                }
            }
        }
        None => {
            let mut options = StdioOptions::default();
            if let Some(bytes) = args.max_message_bytes {
                options = options.max_message_bytes(bytes);
            }
            if let Some(limit) = args.grace_period {
                options = options.grace_period(limit);
            }
            tracing::info!("inventory serving MCP on stdio");
            server.serve_stdio_with(options).await
        }
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server stopped");
            ExitCode::FAILURE
        }
    }
}

/// The HTTP options the command line sets.
fn http_options(args: &Args) -> HttpOptions {
    let mut options = HttpOptions::from_env().stateless(args.stateless);
    if let Some(bytes) = args.max_body_bytes {
        options = options.max_body_bytes(bytes);
    }
    if let Some(connections) = args.max_connections {
        options = options.max_connections(connections);
    }
    if let Some(sessions) = args.max_sessions {
        options = options.max_sessions(sessions);
    }
    if let Some(limit) = args.session_idle_timeout {
        options = options.session_idle_timeout(limit);
    }
    if let Some(limit) = args.header_timeout {
        options = options.header_timeout(limit);
    }
    if let Some(limit) = args.body_timeout {
        options = options.body_timeout(limit);
    }
    if let Some(limit) = args.grace_period {
        options = options.grace_period(limit);
    }
    options
}

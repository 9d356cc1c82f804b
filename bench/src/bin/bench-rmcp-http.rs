//! The P8 baseline: the inventory's `get_user` written with rmcp's `#[tool]`, doing the same
//! SQLite work, served by rmcp's own `StreamableHttpService` on a plain hyper loop. Its
//! `search_items` takes the inventory's `query` and `tags`, so that the memory bench can
//! measure what rmcp's own path takes for the same large call.
//!
//! ```text
//! bench-rmcp-http --http 127.0.0.1:8080 [--stateless]
//! ```
//!
//! Stateful: rmcp's default config with its `LocalSessionManager`. Stateless: sessions off and
//! JSON answers, the config `inventory --stateless` gives rmcp too. Connections get
//! `TCP_NODELAY`, as ours do: without it every SSE answer waits for a delayed ACK (40 ms),
//! and the baseline would measure Nagle's algorithm rather than rmcp.

use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router};
use rusqlite::{Connection, OptionalExtension};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;
use validator::Validate;

/// The users table of the `inventory` example, as it seeds it.
const SCHEMA: &str = "
    CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
    INSERT INTO users VALUES
        (1, 'Ada Lovelace', 'ada@example.com'),
        (2, 'Grace Hopper', 'grace@example.com'),
        (3, 'Katherine Johnson', 'katherine@example.com');
";

/// A registered user.
#[derive(Debug, Serialize, JsonSchema)]
struct User {
    /// User id.
    id: i64,
    /// Full name.
    name: String,
    /// Email address.
    email: String,
}

/// The arguments of `get_user`, with the inventory's rule.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
struct GetUserArgs {
    /// The user's numeric id.
    #[validate(range(min = 1))]
    user_id: i64,
}

/// The arguments of `search_items`: the inventory's `query` and `tags`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
struct SearchArgs {
    /// Text to look for in user names (case-insensitive).
    #[validate(length(min = 1, max = 100))]
    query: String,
    /// Only users that have every one of these tags.
    #[serde(default)]
    tags: Vec<String>,
}

/// What `search_items` found.
#[derive(Debug, Serialize, JsonSchema)]
struct Found {
    /// The matching users.
    users: Vec<User>,
}

/// One connection for the process, as the inventory keeps it; the router is built once and
/// cloned into each session (or each stateless request), rmcp's fastest setup.
#[derive(Clone)]
struct Shop {
    db: Arc<Mutex<Connection>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Shop {
    /// Look up one user by id.
    #[tool(description = "Look up one user by id.")]
    fn get_user(&self, Parameters(args): Parameters<GetUserArgs>) -> Result<Json<User>, String> {
        args.validate().map_err(|errors| errors.to_string())?;
        let db = self.db.lock().unwrap_or_else(PoisonError::into_inner);
        let user = db
            .query_row(
                "SELECT id, name, email FROM users WHERE id = ?1",
                [args.user_id],
                |row| {
                    Ok(User {
                        id: row.get(0)?,
                        name: row.get(1)?,
                        email: row.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(|error| error.to_string())?;
        user.map(Json)
            .ok_or_else(|| format!("No user has id {}.", args.user_id))
    }

    /// Search users by name; users carry no tags, so a call with tags finds none.
    #[tool(description = "Search users by name.")]
    fn search_items(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<Json<Found>, String> {
        args.validate().map_err(|errors| errors.to_string())?;
        if !args.tags.is_empty() {
            return Ok(Json(Found { users: Vec::new() }));
        }
        let db = self.db.lock().unwrap_or_else(PoisonError::into_inner);
        let mut statement = db
            .prepare("SELECT id, name, email FROM users WHERE instr(lower(name), lower(?1)) > 0")
            .map_err(|error| error.to_string())?;
        let users = statement
            .query_map([&args.query], |row| {
                Ok(User {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    email: row.get(2)?,
                })
            })
            .and_then(Iterator::collect)
            .map_err(|error| error.to_string())?;
        Ok(Json(Found { users }))
    }
}

#[tool_handler(router = self.tool_router)]
impl rmcp::ServerHandler for Shop {}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut words = std::env::args().skip(1);
    let (mut addr, mut stateless) = (None, false);
    while let Some(word) = words.next() {
        match word.as_str() {
            "--http" => addr = words.next(),
            "--stateless" => stateless = true,
            other => return Err(format!("unknown option '{other}'").into()),
        }
    }
    let addr = addr.ok_or("usage: bench-rmcp-http --http ADDR [--stateless]")?;
    let db = Connection::open_in_memory()?;
    db.execute_batch(SCHEMA)?;
    let shop = Shop {
        db: Arc::new(Mutex::new(db)),
        tool_router: Shop::tool_router(),
    };
    // A worker per core, as the inventory's HTTP runtime has.
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(shop, &addr, stateless))
}

async fn serve(shop: Shop, addr: &str, stateless: bool) -> Result<(), Box<dyn std::error::Error>> {
    let mut config = StreamableHttpServerConfig::default();
    if stateless {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(shop.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    let listener = TcpListener::bind(addr).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        let service = Arc::clone(&service);
        tokio::spawn(async move {
            let handle = service_fn(move |request| {
                let service = Arc::clone(&service);
                async move { Ok::<_, Infallible>(service.handle(request).await) }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handle)
                .await;
        });
    }
}

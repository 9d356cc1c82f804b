//! An axum app with its own routes (`/health`) and the MCP endpoint mounted at `/mcp`,
//! behind API keys: what a team that already runs an axum service writes.
//!
//! `mcp-tool-example-axum --http 127.0.0.1:8080 [--api-key KEY=NAME[:SCOPE,...]]...`.
//! Without `--api-key`, the endpoint takes no token. A key must carry the `notes` scope.

mod telemetry;

use std::collections::HashMap;
use std::sync::Mutex;

use axum::Router;
use axum::routing::get;
use mcp_tool_runtime::{
    HttpOptions, McpServer, Principal, ToolContext, ToolError,
    http::{BoxFuture, TokenRejection, TokenVerifier},
    mcp_tool, mcp_tools,
};
use rusqlite::Connection;

/// The notes, in SQLite.
struct Notes {
    db: Mutex<Connection>,
}

impl Notes {
    fn open() -> rusqlite::Result<Self> {
        let db = Connection::open_in_memory()?;
        db.execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);")?;
        Ok(Self { db: Mutex::new(db) })
    }
}

#[mcp_tools]
impl Notes {
    /// Save a note.
    ///
    /// # Arguments
    /// * `text` - What to remember.
    #[mcp_tool]
    fn add_note(
        &self,
        #[validate(length(min = 1, max = 500))] text: String,
    ) -> Result<String, ToolError> {
        let db = self
            .db
            .lock()
            .map_err(|_| ToolError::unavailable("the notes are locked"))?;
        db.execute("INSERT INTO notes (text) VALUES (?1)", [&text])
            .map_err(ToolError::internal)?;
        Ok(format!("note {} saved", db.last_insert_rowid()))
    }

    /// Who is calling, as the API key says.
    #[mcp_tool(read_only)]
    async fn whoami(&self, ctx: ToolContext) -> String {
        ctx.principal()
            .map_or("nobody", |caller| caller.subject())
            .to_string()
    }

    /// Every note, oldest first, one per line.
    #[mcp_tool(read_only)]
    fn list_notes(&self) -> Result<String, ToolError> {
        let db = self
            .db
            .lock()
            .map_err(|_| ToolError::unavailable("the notes are locked"))?;
        let mut query = db
            .prepare("SELECT id, text FROM notes ORDER BY id")
            .map_err(ToolError::internal)?;
        let rows = query
            .query_map([], |row| {
                Ok(format!(
                    "{}: {}",
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?
                ))
            })
            .map_err(ToolError::internal)?;
        let lines: Result<Vec<String>, _> = rows.collect();
        Ok(lines.map_err(ToolError::internal)?.join("\n"))
    }
}

/// API keys, each held by a named caller with scopes; the endpoint needs `notes`.
struct ApiKeys(HashMap<String, (String, Vec<String>)>);

const REQUIRED_SCOPE: &str = "notes";

impl TokenVerifier for ApiKeys {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, TokenRejection>> {
        let verdict = match self.0.get(token) {
            None => Err(TokenRejection::invalid("unknown API key")),
            Some((_, scopes)) if !scopes.iter().any(|scope| scope == REQUIRED_SCOPE) => {
                Err(TokenRejection::insufficient_scope(REQUIRED_SCOPE))
            }
            Some((name, scopes)) => {
                Ok(Principal::new(name.as_str()).with_claim("scopes", scopes.clone()))
            }
        };
        Box::pin(async move { verdict })
    }
}

/// `KEY=NAME[:SCOPE,...]`.
fn parse_key(spec: &str) -> Option<(String, (String, Vec<String>))> {
    let (key, holder) = spec.split_once('=')?;
    let (name, scopes) = holder.split_once(':').unwrap_or((holder, ""));
    let scopes = scopes
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    Some((key.to_string(), (name.to_string(), scopes)))
}

struct Args {
    addr: String,
    keys: HashMap<String, (String, Vec<String>)>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut addr = "127.0.0.1:8080".to_string();
    let mut keys = HashMap::new();
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--http" => addr = value,
            "--api-key" => {
                let (key, holder) = parse_key(&value).ok_or("--api-key KEY=NAME[:SCOPE,...]")?;
                keys.insert(key, holder);
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(Args { addr, keys })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let telemetry = telemetry::Telemetry::from_env()?;
    let server = McpServer::builder(Notes::open()?)
        .tool_set()
        .middleware(mcp_tool_runtime::middleware::CallMetrics::new())
        .middleware(mcp_tool_runtime::middleware::TraceCalls::new())
        .build()?;
    let mut options = HttpOptions::from_env();
    if !args.keys.is_empty() {
        options = options.token_verifier(ApiKeys(args.keys));
    }
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .nest_service("/mcp", server.http_service(options));
    let listener = tokio::net::TcpListener::bind(&args.addr).await?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    if let Some(telemetry) = telemetry {
        telemetry.shutdown().await;
    }
    Ok(())
}

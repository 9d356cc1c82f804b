//! An axum app with its own routes (`/health`) and the MCP endpoint mounted at `/mcp`,
//! behind API keys and OAuth access tokens: what a team that already runs an axum service
//! writes.
//!
//! `mcp-tool-example-axum --http 127.0.0.1:8080 [--api-key KEY=NAME[:SCOPE,...]]...
//! [--oauth-issuer URL [--oauth-audience URL] [--oauth-root-cert PEM-FILE]]`.
//!
//! - `--api-key`: a key must carry the `notes` scope, which grants `notes:read` and
//!   `notes:write`.
//! - `--oauth-issuer`: the app is an OAuth 2.1 resource server for that authorization
//!   server. It publishes its protected-resource metadata at
//!   `/.well-known/oauth-protected-resource/mcp` (and the root form), and accepts JWT access
//!   tokens signed with the issuer's keys whose audience is `--oauth-audience` (default: the
//!   endpoint's URL, `http://ADDR/mcp`). `list_notes` and `whoami` need `notes:read`,
//!   `add_note` needs `notes:write`. An `https://` issuer's certificate must chain to a root
//!   of the system's trust store, or to one in `--oauth-root-cert` (a private CA).
//!
//! Without either, the endpoint takes no token.

mod telemetry;

use std::collections::HashMap;
use std::sync::Mutex;

use axum::Router;
use axum::routing::get;
use mcp_tool_runtime::{
    HttpOptions, McpServer, Principal, ToolContext, ToolError,
    http::{
        BoxFuture, HttpsFetcher, JwtVerifier, ProtectedResource, TokenRejection, TokenVerifier,
    },
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
    #[mcp_tool(scopes = ["notes:write"])]
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

    /// Who is calling, as the API key or the access token says.
    #[mcp_tool(read_only, scopes = ["notes:read"])]
    async fn whoami(&self, ctx: ToolContext) -> String {
        ctx.principal()
            .map_or("nobody", |caller| caller.subject())
            .to_string()
    }

    /// Every note, oldest first, one per line.
    #[mcp_tool(read_only, scopes = ["notes:read"])]
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

impl ApiKeys {
    /// The holder of `key`, `None` for a key not in the table (maybe an access token).
    fn holder(&self, key: &str) -> Option<Result<Principal, TokenRejection>> {
        let (name, scopes) = self.0.get(key)?;
        if !scopes.iter().any(|scope| scope == REQUIRED_SCOPE) {
            return Some(Err(TokenRejection::insufficient_scope(REQUIRED_SCOPE)));
        }
        // `notes` is the key's word for both scopes the tools ask for.
        let principal = Principal::new(name.as_str())
            .with_claim("scopes", scopes.clone())
            .with_scopes(["notes:read", "notes:write"]);
        Some(Ok(principal))
    }
}

/// The app's credentials: an API key from the table, or else an access token from the
/// OAuth issuer, when one is configured.
struct Credentials {
    keys: ApiKeys,
    tokens: Option<JwtVerifier>,
}

impl TokenVerifier for Credentials {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, TokenRejection>> {
        if let Some(verdict) = self.keys.holder(token) {
            return Box::pin(std::future::ready(verdict));
        }
        match &self.tokens {
            Some(tokens) => tokens.verify(token),
            None => Box::pin(std::future::ready(Err(TokenRejection::invalid(
                "unknown API key",
            )))),
        }
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
    issuer: Option<String>,
    audience: Option<String>,
    root_cert: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut addr = "127.0.0.1:8080".to_string();
    let mut keys = HashMap::new();
    let (mut issuer, mut audience, mut root_cert) = (None, None, None);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--http" => addr = value,
            "--api-key" => {
                let (key, holder) = parse_key(&value).ok_or("--api-key KEY=NAME[:SCOPE,...]")?;
                keys.insert(key, holder);
            }
            "--oauth-issuer" => issuer = Some(value),
            "--oauth-audience" => audience = Some(value),
            "--oauth-root-cert" => root_cert = Some(value),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if (audience.is_some() || root_cert.is_some()) && issuer.is_none() {
        return Err("--oauth-audience and --oauth-root-cert need --oauth-issuer".into());
    }
    Ok(Args {
        addr,
        keys,
        issuer,
        audience,
        root_cert,
    })
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
    let listener = tokio::net::TcpListener::bind(&args.addr).await?;
    let mut options = HttpOptions::from_env();
    let mut resource = None;
    let mut tokens = None;
    if let Some(issuer) = &args.issuer {
        let audience = match &args.audience {
            Some(audience) => audience.clone(),
            None => format!("http://{}/mcp", listener.local_addr()?),
        };
        let mut verifier = JwtVerifier::new(issuer.as_str(), audience.as_str());
        if let Some(path) = &args.root_cert {
            let pem = std::fs::read(path).map_err(|error| format!("{path}: {error}"))?;
            verifier = verifier.fetcher(HttpsFetcher::with_root_certificates(&pem)?);
        }
        // The keys now, so that the first call does not wait for them; an issuer not up
        // yet is asked again when a token comes.
        if let Err(error) = verifier.refresh().await {
            eprintln!("warning: the issuer's keys are not available yet: {error}");
        }
        tokens = Some(verifier);
        let published = ProtectedResource::new(audience)
            .authorization_server(issuer.as_str())
            .name("Notes");
        options = options.protected_resource(published.clone());
        resource = Some(published);
    }
    if !args.keys.is_empty() || tokens.is_some() {
        options = options.token_verifier(Credentials {
            keys: ApiKeys(args.keys),
            tokens,
        });
    }
    let mcp = server.http_service(options);
    let mut app = Router::new().route("/health", get(|| async { "ok" }));
    // The metadata lives at the app's root, not under the endpoint's path.
    if let (Some(resource), Some(metadata)) = (&resource, mcp.resource_metadata()) {
        for path in resource.metadata_paths() {
            app = app.route_service(&path, metadata.clone());
        }
    }
    let app = app.nest_service("/mcp", mcp);
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

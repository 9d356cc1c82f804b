//! The server as an OAuth 2.1 resource server: its protected-resource metadata (RFC 9728),
//! where that is published, and the challenges that point to it.

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::{HeaderValue, Method, Request, StatusCode, header};
use serde_json::json;
use tower_service::Service;

use super::reply::{HttpResponse, json_reply, reject};
use super::text;
use crate::tool::BoxFuture;

/// The well-known path of protected-resource metadata (RFC 9728 §3).
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// What a client needs to get a token for this server: the server's canonical URI and the
/// authorization servers that issue tokens for it, published as protected-resource metadata
/// (RFC 9728) and named in every `WWW-Authenticate` challenge (`resource_metadata="…"`), as
/// the MCP authorization spec requires of a server that takes tokens.
///
/// Set it with [`HttpOptions::protected_resource`](crate::HttpOptions::protected_resource).
/// [`McpServer::serve_http`](crate::McpServer::serve_http) then answers `GET` at both
/// well-known paths, the path-aware one (`/.well-known/oauth-protected-resource/mcp` for
/// `https://host/mcp`) and the root one; in an app of your own, mount
/// [`HttpService::resource_metadata`](crate::http::HttpService::resource_metadata) at
/// [`ProtectedResource::metadata_paths`], at the app's root.
///
/// ```
/// use mcp_tool_runtime::http::ProtectedResource;
///
/// let resource = ProtectedResource::new("https://notes.example.com/mcp")
///     .authorization_server("https://auth.example.com");
/// assert_eq!(
///     resource.metadata_url(),
///     "https://notes.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct ProtectedResource {
    resource: String,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
    name: Option<String>,
    documentation: Option<String>,
}

impl ProtectedResource {
    /// The resource at `resource`, its canonical URI: the endpoint's URL as clients reach it
    /// (`https://notes.example.com/mcp`), which tokens must name as their audience (RFC 8707).
    pub fn new(resource: impl Into<String>) -> Self {
        let resource = resource.into();
        // RFC 8707 §2: a resource indicator has no fragment; a trailing slash is one
        // spelling of the same resource that clients do not send.
        let resource = resource.split('#').next().unwrap_or_default();
        let resource = match resource.strip_suffix('/') {
            Some(bare) if bare.matches('/').count() > 2 => bare,
            _ => resource,
        };
        Self {
            resource: resource.to_string(),
            authorization_servers: Vec::new(),
            scopes: Vec::new(),
            name: None,
            documentation: None,
        }
    }

    /// One more authorization server (its issuer URL) whose tokens this server accepts.
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// Scopes to publish in `scopes_supported` besides those of the tools
    /// (`#[mcp_tool(scopes = [...])]`), which are always published.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// A name for people (`resource_name`).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// A page about the server for developers (`resource_documentation`).
    pub fn documentation(mut self, url: impl Into<String>) -> Self {
        self.documentation = Some(url.into());
        self
    }

    /// The canonical URI, which tokens must name as their audience.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The metadata's URL, the path-aware form (RFC 9728 §3.1): the well-known prefix is put
    /// between the host and the resource's path.
    pub fn metadata_url(&self) -> String {
        let (origin, path) = split_origin(&self.resource);
        format!("{origin}{WELL_KNOWN}{path}")
    }

    /// The paths at which the metadata is served: the path-aware one, then the root one
    /// (clients try both, in that order). One path when the resource has none.
    pub fn metadata_paths(&self) -> Vec<String> {
        let (_, path) = split_origin(&self.resource);
        let mut paths = vec![format!("{WELL_KNOWN}{path}")];
        if !path.is_empty() {
            paths.push(WELL_KNOWN.to_string());
        }
        paths
    }

    /// The metadata document, with `tool_scopes` published beside the configured ones.
    pub(super) fn document(&self, tool_scopes: Vec<String>) -> serde_json::Value {
        let mut scopes = self.scopes.clone();
        scopes.extend(tool_scopes);
        scopes.sort();
        scopes.dedup();
        let mut document = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "scopes_supported": scopes,
            "bearer_methods_supported": ["header"],
        });
        if let Some(name) = &self.name {
            document["resource_name"] = json!(name);
        }
        if let Some(documentation) = &self.documentation {
            document["resource_documentation"] = json!(documentation);
        }
        document
    }
}

/// `https://host:8080/mcp` as `("https://host:8080", "/mcp")`; the path is empty for `/`.
fn split_origin(resource: &str) -> (&str, &str) {
    let after_scheme = resource.find("://").map_or(0, |at| at + 3);
    match resource[after_scheme..].find('/') {
        Some(at) => {
            let (origin, path) = resource.split_at(after_scheme + at);
            (
                origin,
                path.split('?')
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches('/'),
            )
        }
        None => (resource, ""),
    }
}

/// The scopes of the tools a server serves now, for `scopes_supported`.
pub(super) type ToolScopes = Arc<dyn Fn() -> Vec<String> + Send + Sync>;

/// The protected-resource metadata as a tower `Service`: it answers `GET` (and `HEAD`) on
/// any path with the document, for a router that mounts it at
/// [`ProtectedResource::metadata_paths`]:
///
/// ```no_run
/// use axum::Router;
/// use mcp_tool_runtime::http::ProtectedResource;
/// use mcp_tool_runtime::{HttpOptions, McpServer, mcp_tool};
///
/// /// Add two numbers.
/// #[mcp_tool(scopes = ["math"])]
/// fn add(a: i64, b: i64) -> String { (a + b).to_string() }
///
/// # async fn run(verifier: mcp_tool_runtime::http::StaticToken) -> Result<(), Box<dyn std::error::Error>> {
/// let resource = ProtectedResource::new("http://127.0.0.1:8080/mcp")
///     .authorization_server("http://127.0.0.1:9000");
/// let options = HttpOptions::default()
///     .token_verifier(verifier)
///     .protected_resource(resource.clone());
/// let mcp = McpServer::builder(()).tool(add_tool()).build()?.http_service(options);
/// let mut app: Router = Router::new();
/// if let Some(metadata) = mcp.resource_metadata() {
///     for path in resource.metadata_paths() {
///         app = app.route_service(&path, metadata.clone());
///     }
/// }
/// let app = app.nest_service("/mcp", mcp);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct ResourceMetadata {
    resource: Arc<ProtectedResource>,
    tool_scopes: ToolScopes,
}

impl std::fmt::Debug for ResourceMetadata {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceMetadata")
            .field("resource", &self.resource)
            .finish_non_exhaustive()
    }
}

impl ResourceMetadata {
    pub(super) fn new(resource: Arc<ProtectedResource>, tool_scopes: ToolScopes) -> Self {
        Self {
            resource,
            tool_scopes,
        }
    }

    /// Whether `path` is one of the metadata's paths.
    pub(super) fn serves(&self, path: &str) -> bool {
        self.resource
            .metadata_paths()
            .iter()
            .any(|served| served == path)
    }

    /// The answer to a request for the metadata.
    pub(super) fn answer(&self, method: &Method) -> HttpResponse {
        if *method != Method::GET && *method != Method::HEAD {
            return reject(
                StatusCode::METHOD_NOT_ALLOWED,
                rmcp::model::ErrorCode::INVALID_REQUEST,
                text::http_method_not_metadata(method.as_str()),
                json!({"allowedMethods": "GET"}),
                &[(header::ALLOW, "GET, HEAD".to_string())],
            );
        }
        let document = self.resource.document((self.tool_scopes)());
        let mut response = json_reply(StatusCode::OK, &document);
        // Any web client may read it (RFC 9728 leaves that open; browsers-based MCP
        // clients need it), and it holds nothing private.
        response.headers_mut().insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        response
    }
}

impl<B> Service<Request<B>> for ResourceMetadata {
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<HttpResponse, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let answer = self.answer(request.method());
        Box::pin(std::future::ready(Ok(answer)))
    }
}

/// What a `WWW-Authenticate` challenge of this server says besides its `error`: the realm,
/// and the metadata's URL when the server is a resource server.
#[derive(Clone, Debug)]
pub(super) struct Challenge {
    pub(super) realm: String,
    pub(super) resource_metadata: Option<String>,
}

impl Challenge {
    /// `Bearer realm="…"`, then each of `params` (`error`, `scope`), then
    /// `resource_metadata="…"`.
    pub(super) fn header(&self, params: &[(&str, &str)]) -> String {
        let mut challenge = format!("Bearer realm=\"{}\"", self.realm);
        for (name, value) in params {
            challenge.push_str(&format!(", {name}=\"{value}\""));
        }
        if let Some(url) = &self.resource_metadata {
            challenge.push_str(&format!(", resource_metadata=\"{url}\""));
        }
        challenge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_paths_follow_the_resource_path() {
        let resource = ProtectedResource::new("http://127.0.0.1:8080/mcp/");
        assert_eq!(resource.resource(), "http://127.0.0.1:8080/mcp");
        assert_eq!(
            resource.metadata_paths(),
            [
                "/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource"
            ]
        );
        let root = ProtectedResource::new("https://mcp.example.com");
        assert_eq!(
            root.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            root.metadata_paths(),
            ["/.well-known/oauth-protected-resource"]
        );
    }
}

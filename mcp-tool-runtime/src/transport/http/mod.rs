//! Streamable HTTP: rmcp's server, behind a guard that enforces the transport rules.
//!
//! A request goes through the stages in this order, one file each: `listen` (connections,
//! the path), `guard` (Host, Origin, the token through `auth`, method, version, the body's
//! limits), `endpoint` (the JSON-RPC screen, sessions, rmcp's service). The rules are
//! documented on [`HttpOptions`], where users read them.

// A stage's `Err` is the answer to send (an `http::Response`, 128 bytes): it is made once,
// on a request's way out, and boxing it would only add an allocation to that.
#![allow(clippy::result_large_err)]

mod auth;
mod authority;
mod endpoint;
mod guard;
mod headers;
mod in_flight;
mod listen;
#[cfg(feature = "oauth")]
mod oauth;
mod options;
mod release;
mod reply;
mod resource;
mod screen;
mod sessions;
mod text;
mod watchdog;

/// The header naming a request's session, as a name made once: looked up by a `&str`, a
/// header name is parsed again on every request.
const SESSION_HEADER: http::HeaderName = http::HeaderName::from_static("mcp-session-id");

pub use auth::{StaticToken, TokenRejection, TokenVerifier};
pub use endpoint::HttpService;
pub use guard::{HttpGuard, HttpGuardLayer};
#[cfg(feature = "oauth")]
pub use oauth::{
    FetchError, Fetcher, HttpsFetcher, IntrospectionVerifier, JwsAlgorithm, JwtVerifier,
};
pub use options::HttpOptions;
pub use reply::HttpResponse;
pub use resource::{ProtectedResource, ResourceMetadata};

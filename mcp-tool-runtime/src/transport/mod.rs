//! The transports: newline-delimited JSON-RPC (stdio, or any reader and writer) and
//! Streamable HTTP. Each checks every message before rmcp sees it (`jsonrpc`), and each
//! owns its `McpServer::serve_*` methods.

#[cfg(feature = "http")]
mod http;
mod jsonrpc;
mod oversized;
mod release;
mod shutdown;
mod stdio;

#[cfg(feature = "oauth")]
pub use http::{
    FetchError, Fetcher, HttpsFetcher, IntrospectionVerifier, JwsAlgorithm, JwtVerifier,
};
#[cfg(feature = "http")]
pub use http::{
    HttpGuard, HttpGuardLayer, HttpOptions, HttpResponse, HttpService, ProtectedResource,
    ResourceMetadata, StaticToken, TokenRejection, TokenVerifier,
};
pub use stdio::{LineTransport, StdinReader, StdioOptions};

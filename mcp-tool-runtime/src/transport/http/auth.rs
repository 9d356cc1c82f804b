//! Bearer tokens: reading the one `Authorization` header, and asking a [`TokenVerifier`]
//! whose token it is.

use http::request::Parts;
use http::{StatusCode, header};
use serde_json::json;
use subtle::ConstantTimeEq;

use super::headers::single_header;
use super::reply::{HttpResponse, UNAUTHORIZED_CODE, reject, reject_request};
use super::resource::Challenge;
use super::text;
use crate::tool::{BoxFuture, Principal};

/// Decides whether a bearer token is good, and whose it is: a static token, a table of API
/// keys, a JWT check or an introspection call.
///
/// ```
/// use mcp_tool_runtime::http::{BoxFuture, TokenRejection, TokenVerifier};
/// use mcp_tool_runtime::{HttpOptions, Principal};
///
/// /// API keys from a table; each names its owner.
/// struct ApiKeys(Vec<(String, String)>);
///
/// impl TokenVerifier for ApiKeys {
///     fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, TokenRejection>> {
///         let owner = self.0.iter().find(|(key, _)| key == token).map(|(_, owner)| owner);
///         let verdict = match owner {
///             Some(owner) => Ok(Principal::new(owner.as_str()).with_claim("scope", "read")),
///             None => Err(TokenRejection::invalid("unknown API key")),
///         };
///         Box::pin(async move { verdict })
///     }
/// }
///
/// let options = HttpOptions::default()
///     .token_verifier(ApiKeys(vec![("k-1".into(), "alice".into())]));
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// The caller `token` belongs to, or why it is refused.
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, TokenRejection>>;
}

/// Why a [`TokenVerifier`] refused a token. What the client is told is fixed by the kind;
/// the reason goes to the log only, so that a verifier's internals never reach the client.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenRejection {
    /// Unknown, expired or revoked: 401 with `error="invalid_token"`.
    Invalid {
        /// Why, for the log.
        reason: String,
    },
    /// Valid, but without a scope the server requires: 403 with
    /// `error="insufficient_scope"` and the scope.
    InsufficientScope {
        /// The scope the token lacks.
        scope: String,
    },
}

impl TokenRejection {
    /// An unknown, expired or revoked token.
    pub fn invalid(reason: impl Into<String>) -> Self {
        Self::Invalid {
            reason: reason.into(),
        }
    }

    /// A valid token without `scope`.
    pub fn insufficient_scope(scope: impl Into<String>) -> Self {
        Self::InsufficientScope {
            scope: scope.into(),
        }
    }
}

/// One token, compared in constant time; its holder is the principal `token`, or the one
/// set with [`StaticToken::for_principal`].
pub struct StaticToken {
    token: String,
    principal: Principal,
}

impl StaticToken {
    /// Accepts exactly `token`.
    pub fn new(token: impl Into<String>) -> Self {
        Self {
            token: token.into(),
            principal: Principal::new("token"),
        }
    }

    /// The same token, held by `principal`.
    pub fn for_principal(mut self, principal: Principal) -> Self {
        self.principal = principal;
        self
    }
}

impl TokenVerifier for StaticToken {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, TokenRejection>> {
        let verdict = if bool::from(token.as_bytes().ct_eq(self.token.as_bytes())) {
            Ok(self.principal.clone())
        } else {
            Err(TokenRejection::invalid("not the configured token"))
        };
        Box::pin(std::future::ready(verdict))
    }
}

/// The principal of a request whose token `verifier` accepts, or its 400, 401 or 403.
pub(super) async fn authenticate(
    verifier: &dyn TokenVerifier,
    parts: &Parts,
    challenge: &Challenge,
) -> Result<Principal, HttpResponse> {
    if token_in_query(parts) {
        return Err(reject(
            StatusCode::BAD_REQUEST,
            UNAUTHORIZED_CODE,
            text::HTTP_TOKEN_IN_QUERY.to_string(),
            json!({"scheme": "Bearer"}),
            &[(
                header::WWW_AUTHENTICATE,
                challenge.header(&[("error", "invalid_request")]),
            )],
        ));
    }
    let token = bearer(parts)
        .map_err(|(message, error)| unauthorized(challenge, message.to_string(), error))?;
    match verifier.verify(token).await {
        Ok(principal) => Ok(principal),
        Err(TokenRejection::Invalid { reason }) => {
            tracing::info!(%reason, "refused a bearer token");
            let message = text::HTTP_TOKEN_INVALID.to_string();
            Err(unauthorized(challenge, message, Some("invalid_token")))
        }
        Err(TokenRejection::InsufficientScope { scope }) => Err(insufficient_scope(
            challenge,
            &scope,
            None,
            text::http_insufficient_scope(&scope),
        )),
    }
}

/// The 403 scope challenge of the MCP spec for a token without `scope` (space-separated
/// scopes), for the request with `id` when it is known.
#[cold]
pub(super) fn insufficient_scope(
    challenge: &Challenge,
    scope: &str,
    id: Option<&serde_json::Value>,
    message: String,
) -> HttpResponse {
    let header = challenge.header(&[("error", "insufficient_scope"), ("scope", scope)]);
    reject_request(
        id,
        StatusCode::FORBIDDEN,
        UNAUTHORIZED_CODE,
        message,
        json!({"scheme": "Bearer", "scope": scope}),
        &[(header::WWW_AUTHENTICATE, header)],
    )
}

fn unauthorized(challenge: &Challenge, message: String, error: Option<&str>) -> HttpResponse {
    let header = match error {
        Some(error) => challenge.header(&[("error", error)]),
        None => challenge.header(&[]),
    };
    reject(
        StatusCode::UNAUTHORIZED,
        UNAUTHORIZED_CODE,
        message,
        json!({"scheme": "Bearer"}),
        &[(header::WWW_AUTHENTICATE, header)],
    )
}

/// Whether the query string carries an `access_token` (RFC 6750 §2.3), which the MCP spec
/// forbids a server to accept: a URL ends up in logs, histories and `Referer` headers.
fn token_in_query(parts: &Parts) -> bool {
    parts.uri.query().is_some_and(|query| {
        query
            .split('&')
            .any(|pair| pair.split('=').next() == Some("access_token"))
    })
}

/// The token of the one `Authorization: Bearer <token>` header: one space, then a token
/// with no whitespace. `Err` is the sentence and the RFC 6750 `error` of the challenge.
fn bearer(parts: &Parts) -> Result<&str, (&'static str, Option<&'static str>)> {
    let value = match single_header(parts, header::AUTHORIZATION) {
        Ok(Some(value)) => value,
        Ok(None) => return Err((text::HTTP_TOKEN_MISSING, None)),
        Err(_) => return Err((text::HTTP_TOKEN_DUPLICATE, Some("invalid_request"))),
    };
    let (scheme, rest) = value.split_at(value.find(char::is_whitespace).unwrap_or(value.len()));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err((text::HTTP_TOKEN_MISSING, None));
    }
    let token = rest.strip_prefix(' ').unwrap_or_default();
    // A header value is visible ASCII, space and tab (`single_header` reads it as text):
    // those two are its only whitespace, found by `memchr` in a JWT's hundreds of bytes.
    if token.is_empty() || memchr::memchr2(b' ', b'\t', token.as_bytes()).is_some() {
        return Err((text::HTTP_TOKEN_MALFORMED, Some("invalid_request")));
    }
    Ok(token)
}

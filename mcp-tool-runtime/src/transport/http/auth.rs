//! Bearer tokens: reading the one `Authorization` header, and asking a [`TokenVerifier`]
//! whose token it is.

use http::request::Parts;
use http::{StatusCode, header};
use serde_json::json;
use subtle::ConstantTimeEq;

use super::headers::single_header;
use super::reply::{HttpResponse, UNAUTHORIZED_CODE, reject};
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

/// The principal of a request whose token `verifier` accepts, or its 401 or 403.
pub(super) async fn authenticate(
    verifier: &dyn TokenVerifier,
    parts: &Parts,
    realm: &str,
) -> Result<Principal, HttpResponse> {
    let token = bearer(parts).map_err(|(message, error)| {
        unauthorized(realm, message.to_string(), error.map(str::to_string))
    })?;
    match verifier.verify(token).await {
        Ok(principal) => Ok(principal),
        Err(TokenRejection::Invalid { reason }) => {
            tracing::info!(%reason, "refused a bearer token");
            let error = Some("invalid_token".to_string());
            Err(unauthorized(
                realm,
                text::HTTP_TOKEN_INVALID.to_string(),
                error,
            ))
        }
        Err(TokenRejection::InsufficientScope { scope }) => {
            let challenge = format!(
                "Bearer realm=\"{realm}\", error=\"insufficient_scope\", scope=\"{scope}\""
            );
            Err(reject(
                StatusCode::FORBIDDEN,
                UNAUTHORIZED_CODE,
                text::http_insufficient_scope(&scope),
                json!({"scheme": "Bearer", "scope": scope}),
                &[(header::WWW_AUTHENTICATE, challenge)],
            ))
        }
    }
}

fn unauthorized(realm: &str, message: String, error: Option<String>) -> HttpResponse {
    let mut challenge = format!("Bearer realm=\"{realm}\"");
    if let Some(error) = error {
        challenge.push_str(&format!(", error=\"{error}\""));
    }
    reject(
        StatusCode::UNAUTHORIZED,
        UNAUTHORIZED_CODE,
        message,
        json!({"scheme": "Bearer"}),
        &[(header::WWW_AUTHENTICATE, challenge)],
    )
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
    if token.is_empty() || token.contains(char::is_whitespace) {
        return Err((text::HTTP_TOKEN_MALFORMED, Some("invalid_request")));
    }
    Ok(token)
}

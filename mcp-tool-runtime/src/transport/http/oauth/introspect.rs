//! Opaque access tokens, asked about at the authorization server's introspection endpoint
//! (RFC 7662).

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;

use serde_json::{Map, Value};

use super::cache::{TokenCache, now};
use super::fetch::{Fetcher, HttpsFetcher, form_encode};
use super::principal_from_claims;
use crate::http::{TokenRejection, TokenVerifier};
use crate::tool::{BoxFuture, Principal};

/// How long an active token is taken on the endpoint's word before it is asked again, by
/// default: a revoked token is refused at most this long after.
const DEFAULT_TTL: Duration = Duration::from_secs(60);

/// Checks opaque access tokens by asking the authorization server (RFC 7662): a token is
/// accepted when the endpoint says it is `active`, was issued for this server (`aud` names
/// the audience; an answer without `aud` is refused unless
/// [`IntrospectionVerifier::audience_optional`]), by the configured issuer (`iss`, when
/// given) and has not expired. The [`Principal`] is made as [`JwtVerifier`](crate::http::JwtVerifier)
/// makes it: `sub` (or `client_id`), `scope`, every field of the answer as claims.
///
/// An accepted token is remembered for at most [`IntrospectionVerifier::cache_ttl`]
/// (default 60 s, never past its `exp`), so that a revocation reaches the server within
/// that time while most calls cost no request.
///
/// ```
/// use mcp_tool_runtime::http::IntrospectionVerifier;
///
/// let verifier = IntrospectionVerifier::new(
///     "http://auth.internal:9000/introspect",
///     "https://notes.example.com/mcp",
/// )
/// .client_credentials("notes-server", "s3cret");
/// ```
pub struct IntrospectionVerifier {
    endpoint: String,
    audience: String,
    issuer: Option<String>,
    authorization: Option<String>,
    audience_required: bool,
    ttl: Duration,
    fetcher: Arc<dyn Fetcher>,
    cache: TokenCache,
}

impl std::fmt::Debug for IntrospectionVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionVerifier")
            .field("endpoint", &self.endpoint)
            .field("audience", &self.audience)
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

impl IntrospectionVerifier {
    /// Asks `endpoint` about each token, accepting those issued for `audience` (this
    /// server's canonical URI).
    pub fn new(endpoint: impl Into<String>, audience: impl Into<String>) -> Self {
        Self {
            endpoint: endpoint.into(),
            audience: audience.into(),
            issuer: None,
            authorization: None,
            audience_required: true,
            ttl: DEFAULT_TTL,
            fetcher: HttpsFetcher::shared(),
            cache: TokenCache::new(10_000),
        }
    }

    /// Authenticates to the endpoint as the client `id` with `secret` (HTTP Basic, RFC 7662
    /// §2.1: the endpoint must not answer just anyone).
    pub fn client_credentials(mut self, id: &str, secret: &str) -> Self {
        let pair = format!("{}:{}", form_encode(id), form_encode(secret));
        let encoded = base64::engine::general_purpose::STANDARD.encode(pair.as_bytes());
        self.authorization = Some(format!("Basic {encoded}"));
        self
    }

    /// Refuses answers whose `iss` is not `issuer` (an answer without `iss` is accepted: the
    /// endpoint speaks for its own server).
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// Accepts answers without `aud` (some servers leave it out): only for an endpoint that
    /// issues tokens for this server alone.
    pub fn audience_optional(mut self) -> Self {
        self.audience_required = false;
        self
    }

    /// How long an accepted token is remembered (default 60 s; zero asks on every call).
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Makes the requests with `fetcher`: an [`HttpsFetcher`](crate::http::HttpsFetcher)
    /// trusting a private CA, or a proxy.
    pub fn fetcher(mut self, fetcher: impl super::Fetcher) -> Self {
        self.fetcher = Arc::new(fetcher);
        self
    }

    async fn check(&self, token: &str) -> Result<(Principal, u64), TokenRejection> {
        let answer = self
            .fetcher
            .post_form(
                &self.endpoint,
                &[("token", token), ("token_type_hint", "access_token")],
                self.authorization.as_deref(),
            )
            .await
            .map_err(|error| TokenRejection::invalid(format!("introspection failed: {error}")))?;
        let Value::Object(fields) = answer else {
            return Err(TokenRejection::invalid(
                "the introspection answer is not an object",
            ));
        };
        self.judge(fields)
    }

    /// The principal of an introspection answer, and until when it may be remembered.
    fn judge(&self, fields: Map<String, Value>) -> Result<(Principal, u64), TokenRejection> {
        if fields.get("active") != Some(&Value::Bool(true)) {
            return Err(TokenRejection::invalid("the token is not active"));
        }
        let now = now();
        let expires = fields.get("exp").and_then(Value::as_u64);
        if expires.is_some_and(|exp| exp <= now) {
            return Err(TokenRejection::invalid("the token has expired"));
        }
        if let Some(issuer) = &self.issuer
            && fields
                .get("iss")
                .is_some_and(|iss| iss.as_str() != Some(issuer.as_str()))
        {
            return Err(TokenRejection::invalid("the token is from another issuer"));
        }
        let audience_named = match fields.get("aud") {
            Some(Value::String(aud)) => *aud == self.audience,
            Some(Value::Array(auds)) => auds.iter().any(|aud| aud.as_str() == Some(&self.audience)),
            Some(_) => false,
            None => !self.audience_required,
        };
        if !audience_named {
            return Err(TokenRejection::invalid(
                "the token was not issued for this server",
            ));
        }
        let until = now.saturating_add(self.ttl.as_secs());
        let until = expires.map_or(until, |exp| exp.min(until));
        Ok((principal_from_claims(fields)?, until))
    }
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, TokenRejection>> {
        if let Some(principal) = self.cache.get(token) {
            return Box::pin(std::future::ready(Ok(principal)));
        }
        Box::pin(async move {
            let (principal, until) = self.check(token).await?;
            self.cache.insert(token, principal.clone(), until);
            Ok(principal)
        })
    }
}

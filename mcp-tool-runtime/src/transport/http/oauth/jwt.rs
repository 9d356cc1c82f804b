//! JWT access tokens (RFC 9068) from one issuer, checked against its published keys.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::{Algorithm, Header, Validation, decode, decode_header};
use serde_json::{Map, Value};

use super::cache::TokenCache;
use super::discovery::IssuerMetadata;
use super::fetch::{FetchError, Fetcher, HttpsFetcher};
use super::keys::{KeyPolicy, KeyStore};
use super::principal_from_claims;
use crate::http::{TokenRejection, TokenVerifier};
use crate::tool::{BoxFuture, Principal};

/// A signature algorithm a [`JwtVerifier`] may accept. Only asymmetric ones exist here:
/// `none` and the HMAC family (`HS256`…) cannot be named, so that no token is ever checked
/// with a public key used as a shared secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JwsAlgorithm {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    RS256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    RS384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    RS512,
    /// RSASSA-PSS with SHA-256.
    PS256,
    /// RSASSA-PSS with SHA-384.
    PS384,
    /// RSASSA-PSS with SHA-512.
    PS512,
    /// ECDSA on P-256 with SHA-256.
    ES256,
    /// ECDSA on P-384 with SHA-384.
    ES384,
    /// Ed25519.
    EdDSA,
}

impl JwsAlgorithm {
    /// Every algorithm, the default allowlist.
    pub const ALL: [JwsAlgorithm; 9] = [
        Self::RS256,
        Self::RS384,
        Self::RS512,
        Self::PS256,
        Self::PS384,
        Self::PS512,
        Self::ES256,
        Self::ES384,
        Self::EdDSA,
    ];

    fn algorithm(self) -> Algorithm {
        match self {
            Self::RS256 => Algorithm::RS256,
            Self::RS384 => Algorithm::RS384,
            Self::RS512 => Algorithm::RS512,
            Self::PS256 => Algorithm::PS256,
            Self::PS384 => Algorithm::PS384,
            Self::PS512 => Algorithm::PS512,
            Self::ES256 => Algorithm::ES256,
            Self::ES384 => Algorithm::ES384,
            Self::EdDSA => Algorithm::EdDSA,
        }
    }
}

/// Checks JWT access tokens (RFC 9068) issued for this server by one authorization server:
/// the signature with the issuer's published keys, `iss`, `aud` (this server's canonical
/// URI, RFC 8707), `exp` (required), `nbf`, with a small leeway for clocks. The
/// [`Principal`] is the token's `sub` (or `client_id` for a token without one), with its
/// `scope` as [`Principal::scopes`] and every claim as [`Principal::claims`].
///
/// The keys are found through the issuer's metadata (RFC 8414, or OpenID Connect
/// discovery) and kept: a token whose key id (`kid`) is not among them makes the verifier
/// fetch them again (at most once per [`JwtVerifier::refetch_cooldown`]), which is how a
/// rotation reaches it; keys older than [`JwtVerifier::keys_max_age`] are fetched again in
/// the background; while the issuer cannot be reached, the keys held stay in use. A token
/// accepted once is kept (up to [`JwtVerifier::cache_capacity`] of them) until it expires,
/// so that it costs no second signature check. Nothing is fetched on a call's path but
/// for a key id not held.
///
/// ```no_run
/// use mcp_tool_runtime::HttpOptions;
/// use mcp_tool_runtime::http::{JwtVerifier, ProtectedResource};
///
/// # async fn run() {
/// let resource = ProtectedResource::new("https://notes.example.com/mcp")
///     .authorization_server("https://auth.example.com/");
/// let verifier = JwtVerifier::new("https://auth.example.com/", resource.resource());
/// // Optional: fetch the keys now rather than on the first token.
/// if let Err(error) = verifier.refresh().await {
///     eprintln!("the issuer's keys are not available yet: {error}");
/// }
/// let options = HttpOptions::default()
///     .token_verifier(verifier)
///     .protected_resource(resource);
/// # }
/// ```
///
/// The built-in fetcher is [`HttpsFetcher`](crate::http::HttpsFetcher): the system's roots,
/// and a private CA's given to it; [`JwtVerifier::fetcher`] replaces it.
///
#[doc = include_str!("../../../../docs/oauth.md")]
pub struct JwtVerifier {
    keys: Arc<KeyStore>,
    audience: String,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    require_at_jwt: bool,
    cache: TokenCache,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.keys.issuer.issuer)
            .field("audience", &self.audience)
            .field("algorithms", &self.algorithms)
            .field("leeway", &self.leeway)
            .finish_non_exhaustive()
    }
}

/// The default leeway on `exp` and `nbf`: clocks of well-run hosts agree within seconds.
const DEFAULT_LEEWAY: Duration = Duration::from_secs(30);
/// The default least time between two fetches of the keys that tokens cause.
const DEFAULT_COOLDOWN: Duration = Duration::from_secs(30);
/// The default age past which the keys are fetched again, in the background.
const DEFAULT_MAX_AGE: Duration = Duration::from_secs(3600);
/// The default number of accepted tokens kept.
const DEFAULT_CACHE_CAPACITY: usize = 10_000;

impl JwtVerifier {
    /// Accepts tokens whose `iss` is exactly `issuer` (as its metadata spells it) and whose
    /// `aud` names `audience`, this server's canonical URI (`https://host/mcp`).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        Self::build(issuer.into(), audience.into(), HttpsFetcher::shared())
    }

    fn build(issuer: String, audience: String, fetcher: Arc<dyn Fetcher>) -> Self {
        let policy = KeyPolicy {
            cooldown: DEFAULT_COOLDOWN,
            max_age: DEFAULT_MAX_AGE,
        };
        let issuer = Arc::new(IssuerMetadata::new(issuer));
        Self {
            keys: Arc::new(KeyStore::new(issuer, fetcher, policy)),
            audience,
            algorithms: JwsAlgorithm::ALL
                .iter()
                .map(|alg| alg.algorithm())
                .collect(),
            leeway: DEFAULT_LEEWAY,
            require_at_jwt: false,
            cache: TokenCache::new(DEFAULT_CACHE_CAPACITY),
        }
    }

    /// Rebuilds the verifier's state with `change` applied to its key policy.
    fn with_policy(mut self, change: impl FnOnce(&mut KeyPolicy)) -> Self {
        let (issuer, fetcher, mut policy) = self.keys.parts();
        change(&mut policy);
        self.keys = Arc::new(KeyStore::new(issuer, fetcher, policy));
        self
    }

    /// Fetches the keys from `uri` instead of the one the issuer's metadata names.
    pub fn jwks_uri(self, uri: impl Into<String>) -> Self {
        self.keys.issuer.set_jwks_uri(uri.into());
        self
    }

    /// Makes the verifier's requests (metadata, keys) with `fetcher`: an
    /// [`HttpsFetcher`](crate::http::HttpsFetcher) trusting a private CA, or a proxy.
    pub fn fetcher(self, fetcher: impl Fetcher) -> Self {
        let fetcher: Arc<dyn Fetcher> = Arc::new(fetcher);
        let (issuer, _, policy) = self.keys.parts();
        Self {
            keys: Arc::new(KeyStore::new(issuer, fetcher, policy)),
            ..self
        }
    }

    /// The algorithms accepted (default: all of [`JwsAlgorithm::ALL`]).
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = JwsAlgorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .map(JwsAlgorithm::algorithm)
            .collect();
        self
    }

    /// The leeway on `exp` and `nbf` for clocks that disagree (default 30 s).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// Requires the header `typ: at+jwt` of RFC 9068 (default off: many issuers send `JWT`
    /// for access tokens; the audience check already refuses their ID tokens).
    pub fn require_at_jwt(mut self, required: bool) -> Self {
        self.require_at_jwt = required;
        self
    }

    /// The least time between two fetches of the keys caused by tokens whose key is not
    /// held (default 30 s).
    pub fn refetch_cooldown(self, cooldown: Duration) -> Self {
        self.with_policy(|policy| policy.cooldown = cooldown)
    }

    /// The age past which the keys are fetched again in the background (default 1 hour):
    /// how long a key the issuer withdrew may still be used.
    pub fn keys_max_age(self, age: Duration) -> Self {
        self.with_policy(|policy| policy.max_age = age)
    }

    /// How many accepted tokens are kept until they expire (default 10,000; 0 keeps none).
    pub fn cache_capacity(mut self, capacity: usize) -> Self {
        self.cache = TokenCache::new(capacity);
        self
    }

    /// Fetches the issuer's metadata (if needed) and keys now. Call it at startup to take
    /// the first fetch off the first call's path and to learn early of a misconfigured
    /// issuer; a failure leaves the verifier to try again when a token comes.
    pub async fn refresh(&self) -> Result<(), FetchError> {
        self.keys.refresh().await
    }

    /// The checks of a token not in the cache: its principal and expiry.
    async fn check(&self, token: &str) -> Result<(Principal, u64), TokenRejection> {
        let header = decode_header(token)
            .map_err(|error| TokenRejection::invalid(format!("not a JWT we accept: {error}")))?;
        self.check_header(&header)?;
        self.keys.refresh_if_old();
        let kid = header.kid.as_deref();
        let mut candidates = self.keys.current().candidates(kid, header.alg);
        if candidates.is_empty() {
            candidates = self
                .keys
                .refetch_for_unknown()
                .await
                .candidates(kid, header.alg);
        }
        if candidates.is_empty() {
            return Err(TokenRejection::invalid(format!(
                "no key of the issuer for kid {kid:?} and {:?}",
                header.alg
            )));
        }
        let validation = self.validation(header.alg);
        let mut last = None;
        for key in candidates {
            match decode::<Map<String, Value>>(token, &key.key, &validation) {
                Ok(data) => return self.principal(data.claims),
                Err(error) => last = Some(error),
            }
        }
        let reason = last.map_or_else(String::new, |error| error.to_string());
        Err(TokenRejection::invalid(format!("JWT refused: {reason}")))
    }

    fn check_header(&self, header: &Header) -> Result<(), TokenRejection> {
        if !self.algorithms.contains(&header.alg) {
            return Err(TokenRejection::invalid(format!(
                "algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let typ = header.typ.as_deref().map(str::to_ascii_lowercase);
        let at_jwt = matches!(typ.as_deref(), Some("at+jwt" | "application/at+jwt"));
        if self.require_at_jwt && !at_jwt {
            return Err(TokenRejection::invalid("the token's typ is not at+jwt"));
        }
        Ok(())
    }

    fn validation(&self, alg: Algorithm) -> Validation {
        let mut validation = Validation::new(alg);
        validation.leeway = self.leeway.as_secs();
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.validate_aud = true;
        validation.set_issuer(&[&self.keys.issuer.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.required_spec_claims = HashSet::from(["exp", "iss", "aud"].map(str::to_string));
        validation
    }

    fn principal(&self, claims: Map<String, Value>) -> Result<(Principal, u64), TokenRejection> {
        let expires = claims
            .get("exp")
            .and_then(Value::as_u64)
            .ok_or_else(|| TokenRejection::invalid("exp is not a number of seconds"))?;
        let principal = principal_from_claims(claims)?;
        Ok((principal, expires.saturating_add(self.leeway.as_secs())))
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, TokenRejection>> {
        if let Some(principal) = self.cache.get(token) {
            return Box::pin(std::future::ready(Ok(principal)));
        }
        Box::pin(async move {
            let (principal, expires) = self.check(token).await?;
            self.cache.insert(token, principal.clone(), expires);
            Ok(principal)
        })
    }
}

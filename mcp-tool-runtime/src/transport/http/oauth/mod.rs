//! Access tokens from an OAuth 2.1 authorization server (feature `oauth`): JWTs checked
//! against the issuer's keys (`jwt`), opaque tokens asked about at its introspection
//! endpoint (`introspect`). Both make a [`Principal`] of the token's claims alike.

mod cache;
mod discovery;
mod fetch;
mod introspect;
mod jwt;
mod keys;

use serde_json::{Map, Value};

use super::auth::TokenRejection;
use crate::tool::Principal;

pub use fetch::{FetchError, Fetcher, HttpsFetcher};
pub use introspect::IntrospectionVerifier;
pub use jwt::{JwsAlgorithm, JwtVerifier};

/// The caller a token's claims name: `sub`, or `client_id` for a token issued to a client
/// on its own behalf; with the scopes of `scope` (space-separated, RFC 9068 and RFC 7662)
/// or `scp` (a list, as some issuers write it), and every claim.
fn principal_from_claims(claims: Map<String, Value>) -> Result<Principal, TokenRejection> {
    let subject = ["sub", "client_id"]
        .iter()
        .find_map(|name| claims.get(*name).and_then(Value::as_str))
        .ok_or_else(|| TokenRejection::invalid("the token names no subject (sub)"))?
        .to_string();
    let scopes: Vec<String> = match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(scope)), _) => scope.split_whitespace().map(str::to_string).collect(),
        (_, Some(Value::Array(list))) => list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        (_, Some(Value::String(scp))) => scp.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let mut principal = Principal::new(subject).with_scopes(scopes);
    for (name, value) in claims {
        principal = principal.with_claim(name, value);
    }
    Ok(principal)
}

//! The issuer's metadata: where its keys are, read from RFC 8414 authorization-server
//! metadata or OpenID Connect discovery, once.

use std::sync::Mutex;

use serde_json::Value;

use super::fetch::{FetchError, Fetcher};

/// An issuer, and what its metadata says (read on first need, then kept).
pub(super) struct IssuerMetadata {
    pub(super) issuer: String,
    found: Mutex<Found>,
}

/// The endpoints known so far: given by the user, or read from the metadata.
#[derive(Default, Clone)]
struct Found {
    jwks_uri: Option<String>,
}

impl IssuerMetadata {
    pub(super) fn new(issuer: String) -> Self {
        Self {
            issuer,
            found: Mutex::default(),
        }
    }

    /// Uses `uri` for the keys, without reading the metadata.
    pub(super) fn set_jwks_uri(&self, uri: String) {
        self.lock().jwks_uri = Some(uri);
    }

    /// The key set's URL (`jwks_uri`).
    pub(super) async fn jwks_uri(&self, fetcher: &dyn Fetcher) -> Result<String, FetchError> {
        if let Some(uri) = self.lock().jwks_uri.clone() {
            return Ok(uri);
        }
        let found = self.discover(fetcher).await?;
        found
            .jwks_uri
            .ok_or_else(|| FetchError::BadAnswer("the issuer's metadata has no jwks_uri".into()))
    }

    /// Reads the first metadata document the issuer serves, in the order the MCP spec
    /// gives, and keeps its endpoints. Its `issuer` must be this issuer (RFC 8414 §3.3):
    /// otherwise another server could name itself and its keys.
    async fn discover(&self, fetcher: &dyn Fetcher) -> Result<Found, FetchError> {
        let mut last = FetchError::BadAnswer("no metadata URL".into());
        for url in metadata_urls(&self.issuer) {
            let document = match fetcher.get_json(&url).await {
                Ok(document) => document,
                Err(error) => {
                    last = error;
                    continue;
                }
            };
            if document.get("issuer").and_then(Value::as_str) != Some(self.issuer.as_str()) {
                return Err(FetchError::BadAnswer(format!(
                    "{url}: its `issuer` is not {}",
                    self.issuer
                )));
            }
            let text = |name: &str| {
                document
                    .get(name)
                    .and_then(Value::as_str)
                    .map(str::to_string)
            };
            let mut found = self.lock();
            found.jwks_uri = found.jwks_uri.take().or_else(|| text("jwks_uri"));
            return Ok(found.clone());
        }
        Err(last)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Found> {
        self.found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Where an issuer's metadata may be, in the order the MCP spec has clients try them: RFC
/// 8414 (the well-known part inserted before the issuer's path), then OpenID Connect
/// discovery with the same insertion, then appended to the path.
fn metadata_urls(issuer: &str) -> Vec<String> {
    let issuer = issuer.trim_end_matches('/');
    let after_scheme = issuer.find("://").map_or(0, |at| at + 3);
    let (origin, path) = match issuer[after_scheme..].find('/') {
        Some(at) => issuer.split_at(after_scheme + at),
        None => (issuer, ""),
    };
    let mut urls = vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
    ];
    if !path.is_empty() {
        urls.push(format!("{issuer}/.well-known/openid-configuration"));
    }
    urls
}

#[cfg(test)]
mod tests {
    use super::metadata_urls;

    #[test]
    fn metadata_is_looked_for_where_the_spec_says() {
        assert_eq!(
            metadata_urls("https://auth.example.com/tenant1"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("http://127.0.0.1:9000/"),
            [
                "http://127.0.0.1:9000/.well-known/oauth-authorization-server",
                "http://127.0.0.1:9000/.well-known/openid-configuration",
            ]
        );
    }
}

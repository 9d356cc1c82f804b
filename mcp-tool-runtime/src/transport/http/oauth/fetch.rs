//! The verifiers' own HTTP requests: the issuer's metadata, its keys, its introspection
//! endpoint. hyper-util's client, already in the build, with hyper-rustls for `https://`
//! (every real identity provider); a [`Fetcher`] of the user's own replaces it (a proxy,
//! another TLS stack).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};
use serde_json::Value;

use crate::tool::BoxFuture;

/// The longest an issuer may take to answer one request.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest document read from an issuer: key sets and metadata are a few KiB.
const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;

/// Makes the HTTP requests of [`JwtVerifier`](crate::http::JwtVerifier) and
/// [`IntrospectionVerifier`](crate::http::IntrospectionVerifier): a `GET` of a JSON document,
/// and a form `POST` answered with JSON. The built-in one is [`HttpsFetcher`]; implement
/// this to go through a proxy or the HTTP client your service already uses.
pub trait Fetcher: Send + Sync + 'static {
    /// The JSON document at `url`, or why there is none.
    fn get_json<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Value, FetchError>>;

    /// The JSON answer to `form` (pairs, form-encoded) posted to `url` with the header
    /// `Authorization: authorization` when given.
    fn post_form<'a>(
        &'a self,
        url: &'a str,
        form: &'a [(&'a str, &'a str)],
        authorization: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Value, FetchError>>;
}

/// Why an issuer's document could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FetchError {
    /// The URL is not one this fetcher can reach (the built-in one: neither `http://` nor
    /// `https://`).
    Unsupported(String),
    /// No answer: refused, reset, or slower than the time limit.
    Unreachable(String),
    /// An answer that is not a 200 with a JSON document of at most 1 MiB.
    BadAnswer(String),
    /// A root certificate given to [`HttpsFetcher::with_root_certificates`] that is not one.
    BadCertificate(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unsupported(why) => write!(f, "cannot fetch: {why}"),
            Self::Unreachable(why) => write!(f, "issuer unreachable: {why}"),
            Self::BadAnswer(why) => write!(f, "unusable answer: {why}"),
            Self::BadCertificate(why) => write!(f, "unusable root certificate: {why}"),
        }
    }
}

impl std::error::Error for FetchError {}

/// The built-in [`Fetcher`]: hyper-util's pooled client, `http://` and `https://` (rustls,
/// TLS 1.2 and 1.3). A server certificate must chain to a root of the operating system's
/// trust store, or to one given to [`HttpsFetcher::with_root_certificates`] (a private CA).
///
/// ```no_run
/// # fn main() -> Result<(), mcp_tool_runtime::http::FetchError> {
/// use mcp_tool_runtime::http::{HttpsFetcher, JwtVerifier};
///
/// let private_ca = std::fs::read("/etc/notes/auth-ca.pem").unwrap_or_default();
/// let verifier = JwtVerifier::new("https://auth.internal/", "https://notes.internal/mcp")
///     .fetcher(HttpsFetcher::with_root_certificates(&private_ca)?);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct HttpsFetcher {
    /// The client, or why TLS could not be set up (told by every fetch, never a panic).
    client: Result<Client<HttpsConnector<HttpConnector>, Full<Bytes>>, FetchError>,
}

impl std::fmt::Debug for HttpsFetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpsFetcher").finish_non_exhaustive()
    }
}

impl Default for HttpsFetcher {
    fn default() -> Self {
        Self::new()
    }
}

impl HttpsFetcher {
    /// Trusts the operating system's roots (a host without any reaches `http://` issuers
    /// only).
    pub fn new() -> Self {
        Self::trusting(os_roots())
    }

    /// Trusts the operating system's roots and every certificate of `pem` (one or more
    /// `BEGIN CERTIFICATE` blocks): a private CA's, or a test issuer's own.
    pub fn with_root_certificates(pem: &[u8]) -> Result<Self, FetchError> {
        let mut roots = os_roots();
        let mut added = 0;
        for certificate in CertificateDer::pem_slice_iter(pem) {
            let certificate =
                certificate.map_err(|error| FetchError::BadCertificate(error.to_string()))?;
            roots
                .add(certificate)
                .map_err(|error| FetchError::BadCertificate(error.to_string()))?;
            added += 1;
        }
        if added == 0 {
            return Err(FetchError::BadCertificate(
                "no PEM certificate (BEGIN CERTIFICATE) found".into(),
            ));
        }
        Ok(Self::trusting(roots))
    }

    fn trusting(roots: RootCertStore) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(FETCH_TIMEOUT));
        connector.set_nodelay(true);
        // The TLS connector below takes `https://` URLs: the TCP one must let them through.
        connector.enforce_http(false);
        let tls =
            ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .map(|config| config.with_root_certificates(roots).with_no_client_auth());
        let tls = tls.map_err(|error| FetchError::Unsupported(format!("TLS: {error}")));
        let client = tls.map(|tls| {
            let connector = HttpsConnectorBuilder::new()
                .with_tls_config(tls)
                .https_or_http()
                .enable_http1()
                .wrap_connector(connector);
            Client::builder(TokioExecutor::new()).build(connector)
        });
        Self { client }
    }

    pub(super) fn shared() -> Arc<dyn Fetcher> {
        Arc::new(Self::new())
    }

    async fn send(&self, request: Request<Full<Bytes>>) -> Result<Value, FetchError> {
        let url = request.uri().to_string();
        if !matches!(request.uri().scheme_str(), Some("http" | "https")) {
            return Err(FetchError::Unsupported(format!(
                "{url}: the built-in fetcher speaks http and https only"
            )));
        }
        let client = self.client.as_ref().map_err(Clone::clone)?;
        let exchange = async {
            let response = client
                .request(request)
                .await
                .map_err(|error| FetchError::Unreachable(format!("{url}: {error}")))?;
            if response.status() != StatusCode::OK {
                let status = response.status();
                return Err(FetchError::BadAnswer(format!("{url}: status {status}")));
            }
            let body = Limited::new(response.into_body(), MAX_DOCUMENT_BYTES)
                .collect()
                .await
                .map_err(|error| FetchError::BadAnswer(format!("{url}: {error}")))?
                .to_bytes();
            serde_json::from_slice(&body)
                .map_err(|error| FetchError::BadAnswer(format!("{url}: not JSON: {error}")))
        };
        match tokio::time::timeout(FETCH_TIMEOUT, exchange).await {
            Ok(answer) => answer,
            Err(_) => Err(FetchError::Unreachable(format!(
                "{url}: no answer within {} s",
                FETCH_TIMEOUT.as_secs()
            ))),
        }
    }
}

impl Fetcher for HttpsFetcher {
    fn get_json<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Value, FetchError>> {
        Box::pin(async move {
            let request = Request::builder()
                .method(Method::GET)
                .uri(url)
                .header(header::ACCEPT, "application/json")
                .body(Full::default())
                .map_err(|error| FetchError::Unsupported(format!("{url}: {error}")))?;
            self.send(request).await
        })
    }

    fn post_form<'a>(
        &'a self,
        url: &'a str,
        form: &'a [(&'a str, &'a str)],
        authorization: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Value, FetchError>> {
        Box::pin(async move {
            let body = form
                .iter()
                .map(|(name, value)| format!("{}={}", form_encode(name), form_encode(value)))
                .collect::<Vec<_>>()
                .join("&");
            let mut request = Request::builder()
                .method(Method::POST)
                .uri(url)
                .header(header::ACCEPT, "application/json")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
            if let Some(authorization) = authorization {
                request = request.header(header::AUTHORIZATION, authorization);
            }
            let request = request
                .body(Full::new(Bytes::from(body)))
                .map_err(|error| FetchError::Unsupported(format!("{url}: {error}")))?;
            self.send(request).await
        })
    }
}

/// The operating system's trust store; certificates it cannot parse are left out, as a
/// browser leaves them out, rather than refusing every issuer.
fn os_roots() -> RootCertStore {
    let mut roots = RootCertStore::empty();
    let found = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(found.certs);
    roots
}

/// `text` as `application/x-www-form-urlencoded` writes it.
pub(super) fn form_encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::{FetchError, HttpsFetcher};

    #[test]
    fn a_root_that_is_no_certificate_is_refused_when_given() {
        for pem in [
            &b"not a certificate"[..],
            b"",
            b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        ] {
            let error = HttpsFetcher::with_root_certificates(pem).err();
            assert!(
                matches!(error, Some(FetchError::BadCertificate(_))),
                "{:?}: {error:?}",
                String::from_utf8_lossy(pem)
            );
        }
    }
}

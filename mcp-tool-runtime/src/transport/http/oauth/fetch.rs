//! The verifiers' own HTTP requests: the issuer's metadata, its keys, its introspection
//! endpoint. hyper-util's client, already in the build, over plain TCP: an `https://`
//! issuer is reached through a [`Fetcher`] of the user's own (with the TLS stack they
//! already run), so that this crate does not choose one for every user.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

use crate::tool::BoxFuture;

/// The longest an issuer may take to answer one request.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest document read from an issuer: key sets and metadata are a few KiB.
const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;

/// Makes the HTTP requests of [`JwtVerifier`](crate::http::JwtVerifier) and
/// [`IntrospectionVerifier`](crate::http::IntrospectionVerifier): a `GET` of a JSON document,
/// and a form `POST` answered with JSON. The built-in one speaks plain HTTP only (fine for an
/// issuer on localhost or inside a private network); implement this over the HTTPS client
/// your service already uses (reqwest, hyper-rustls) for an `https://` issuer.
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
    /// The URL is not one this fetcher can reach (the built-in one: not `http://`).
    Unsupported(String),
    /// No answer: refused, reset, or slower than the time limit.
    Unreachable(String),
    /// An answer that is not a 200 with a JSON document of at most 1 MiB.
    BadAnswer(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unsupported(why) => write!(f, "cannot fetch: {why}"),
            Self::Unreachable(why) => write!(f, "issuer unreachable: {why}"),
            Self::BadAnswer(why) => write!(f, "unusable answer: {why}"),
        }
    }
}

impl std::error::Error for FetchError {}

/// The built-in [`Fetcher`]: hyper-util's pooled client, plain HTTP.
pub(super) struct PlainHttp {
    client: Client<HttpConnector, Full<Bytes>>,
}

impl PlainHttp {
    pub(super) fn shared() -> Arc<dyn Fetcher> {
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(FETCH_TIMEOUT));
        connector.set_nodelay(true);
        Arc::new(Self {
            client: Client::builder(TokioExecutor::new()).build(connector),
        })
    }

    async fn send(&self, request: Request<Full<Bytes>>) -> Result<Value, FetchError> {
        let url = request.uri().to_string();
        if request.uri().scheme_str() != Some("http") {
            return Err(FetchError::Unsupported(format!(
                "{url}: the built-in fetcher speaks plain http only; give the verifier a \
                 Fetcher with TLS for https"
            )));
        }
        let exchange = async {
            let response = self
                .client
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

impl Fetcher for PlainHttp {
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

/// `text` as `application/x-www-form-urlencoded` writes it.
pub(super) fn form_encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

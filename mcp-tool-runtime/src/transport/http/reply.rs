//! The HTTP answers the guard and the endpoint make themselves: every rejection carries a
//! JSON-RPC error body.

use std::convert::Infallible;

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use rmcp::model::ErrorCode;
use serde_json::{Value, json};

use super::super::jsonrpc;

/// An answer, as rmcp's service gives it and as the guard and the endpoint return it.
pub type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

// The answers built here are all rejections: `#[cold]` keeps them, and the sentences and
// JSON their callers build for them, out of the lines of code every request runs through.

/// The code of 503 answers, from the range JSON-RPC leaves to servers.
pub(super) const OVERLOADED_CODE: ErrorCode = ErrorCode(-32000);
/// The code of 401 and 403 rejections, from the range JSON-RPC leaves to servers.
pub(super) const UNAUTHORIZED_CODE: ErrorCode = ErrorCode(-32001);

pub(super) fn full(bytes: impl Into<Bytes>) -> BoxBody<Bytes, Infallible> {
    Full::new(bytes.into()).boxed()
}

/// A rejection: `status`, a JSON-RPC error body without an id, and any extra headers.
#[cold]
pub(super) fn reject(
    status: StatusCode,
    code: ErrorCode,
    message: String,
    data: Value,
    headers: &[(header::HeaderName, String)],
) -> HttpResponse {
    reject_request(None, status, code, message, data, headers)
}

/// A rejection of the request with `id` (`None` when it is not known).
#[cold]
pub(super) fn reject_request(
    id: Option<&Value>,
    status: StatusCode,
    code: ErrorCode,
    message: String,
    mut data: Value,
    headers: &[(header::HeaderName, String)],
) -> HttpResponse {
    if let Some(object) = data.as_object_mut() {
        object.insert("httpStatus".into(), json!(status.as_u16()));
    }
    let body = jsonrpc::error_response(id, code, message, Some(data));
    let mut response = json_reply(status, &body);
    for (name, value) in headers {
        if let Ok(value) = HeaderValue::from_str(value) {
            response.headers_mut().insert(name.clone(), value);
        }
    }
    response
}

/// `body` as a JSON answer with `status`.
#[cold]
pub(super) fn json_reply(status: StatusCode, body: &Value) -> HttpResponse {
    let mut response = Response::new(full(body.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A 403 with a JSON-RPC error body.
#[cold]
pub(super) fn forbidden(message: String, data: Value) -> HttpResponse {
    reject(StatusCode::FORBIDDEN, UNAUTHORIZED_CODE, message, data, &[])
}

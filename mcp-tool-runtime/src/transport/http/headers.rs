//! Reading a request's headers as the rules want them.

use http::request::Parts;
use http::{HeaderMap, HeaderName, HeaderValue, header};

use super::super::jsonrpc;
use super::SESSION_HEADER;

/// The one value of header `name` (`None` when absent), or how many there are when there
/// are several: a check that reads the first of two lets the second through to whoever
/// reads the last.
pub(super) fn single_header(
    parts: &Parts,
    name: header::HeaderName,
) -> Result<Option<&str>, usize> {
    let mut single = Single::default();
    for value in parts.headers.get_all(name) {
        single.add(value);
    }
    single.read()
}

/// A header's value as the checks read it.
fn text(value: &HeaderValue) -> &str {
    value.to_str().unwrap_or("<not text>")
}

static HOST: HeaderName = header::HOST;
static ORIGIN: HeaderName = header::ORIGIN;
static CONTENT_LENGTH: HeaderName = header::CONTENT_LENGTH;
static PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
static SESSION_ID: HeaderName = SESSION_HEADER;

/// The headers the transport's rules read on every request, found in one pass over them.
/// Looking each up by name hashed the name every time: the seven lookups of a call cost
/// about 1,600 instructions, the pass about 450 (callgrind, `get_user` over HTTP).
pub(super) struct Head<'p> {
    /// `Host`, as [`single_header`] reads it.
    pub(super) host: Result<Option<&'p str>, usize>,
    /// `Origin`, as [`single_header`] reads it.
    pub(super) origin: Result<Option<&'p str>, usize>,
    /// The first `MCP-Protocol-Version`.
    pub(super) version: Option<&'p str>,
    /// The first `Content-Length`.
    pub(super) content_length: Option<&'p HeaderValue>,
    /// The first `Mcp-Session-Id`: the session the request names.
    pub(super) session: Option<&'p HeaderValue>,
}

impl<'p> Head<'p> {
    pub(super) fn read(headers: &'p HeaderMap) -> Self {
        let mut host = Single::default();
        let mut origin = Single::default();
        let mut head = Head {
            host: Ok(None),
            origin: Ok(None),
            version: None,
            content_length: None,
            session: None,
        };
        for (name, value) in headers {
            // Against names made once (statics), where a standard name compares as a small
            // number: the pass took 455 and 503 instructions of P8's stateless and stateful
            // calls matching the names' text, 418 and 447 so (callgrind). `HeaderName`
            // constants in their place are built and dropped again for every header.
            if *name == HOST {
                host.add(value);
            } else if *name == ORIGIN {
                origin.add(value);
            } else if *name == CONTENT_LENGTH {
                head.content_length.get_or_insert(value);
            } else if *name == PROTOCOL_VERSION {
                head.version.get_or_insert(text(value));
            } else if *name == SESSION_ID {
                head.session.get_or_insert(value);
            }
        }
        head.host = host.read();
        head.origin = origin.read();
        head
    }

    /// What the endpoint behind the guard needs of the headers.
    pub(super) fn flags(&self) -> HeadFlags {
        HeadFlags {
            version_is_stateless: self.version.is_some_and(jsonrpc::is_stateless),
            session: self.session.cloned(),
        }
    }
}

/// What the endpoint needs of a request's headers, read with the guard's (see [`Head`]).
pub(super) struct HeadFlags {
    /// `MCP-Protocol-Version` names a revision without the handshake (2026-07-28 or later).
    pub(super) version_is_stateless: bool,
    /// The first `Mcp-Session-Id`, which the claim of a request's id reads: a copy shares
    /// the request's bytes. Looking the header up again hashed its name, and the claim
    /// copied its text: the claim took 940 instructions, now 642, and a stateful call
    /// 180,200 on average, now 179,850 (callgrind, four alternating runs each, ±500 a run).
    pub(super) session: Option<HeaderValue>,
}

impl HeadFlags {
    pub(super) fn of(headers: &HeaderMap) -> Self {
        Head::read(headers).flags()
    }
}

/// The values of one header seen so far: its first, and how many (see [`single_header`]).
#[derive(Default)]
struct Single<'p> {
    first: Option<&'p HeaderValue>,
    count: usize,
}

impl<'p> Single<'p> {
    fn add(&mut self, value: &'p HeaderValue) {
        self.first.get_or_insert(value);
        self.count += 1;
    }

    fn read(self) -> Result<Option<&'p str>, usize> {
        match self.count {
            0 | 1 => Ok(self.first.map(text)),
            count => Err(count),
        }
    }
}

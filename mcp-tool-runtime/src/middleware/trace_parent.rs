//! The W3C trace context a client sends in `_meta.traceparent` (SEP-414): a leaf, read by
//! the request (`ToolRequest::trace_parent`) and by the tracing span.

use std::fmt;

/// A W3C `traceparent` (Trace Context, level 1), as a client sends it in a request's
/// `_meta.traceparent` (SEP-414): the trace the call belongs to and the client's span that
/// made it.
///
/// ```
/// use mcp_tool_runtime::middleware::TraceParent;
///
/// let parent = TraceParent::parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
///     .expect("well formed");
/// assert_eq!(parent.trace_id()[0], 0x0a);
/// assert!(parent.sampled());
/// assert_eq!(parent.to_string(), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
/// assert_eq!(TraceParent::parse("00-00000000000000000000000000000000-b7ad6b7169203331-01"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceParent {
    pub(super) trace_id: [u8; 16],
    pub(super) parent_id: [u8; 8],
    flags: u8,
}

impl TraceParent {
    /// Reads a `traceparent` value: `version-traceid-parentid-flags` in lowercase hex. `None`
    /// when it is malformed, when either id is all zeros, or for version `ff`, as the
    /// specification requires; a later version is read by its first four fields.
    pub fn parse(value: &str) -> Option<Self> {
        let bytes = value.as_bytes();
        let version = hex_byte(bytes.get(0..2)?)?;
        let exact = version == 0;
        if version == 0xff
            || bytes.len() < 55
            || (exact && bytes.len() != 55)
            || (!exact && bytes.len() > 55 && bytes[55] != b'-')
            || [bytes[2], bytes[35], bytes[52]] != [b'-'; 3]
        {
            return None;
        }
        let mut trace_id = [0; 16];
        for (at, byte) in trace_id.iter_mut().enumerate() {
            *byte = hex_byte(&bytes[3 + 2 * at..5 + 2 * at])?;
        }
        let mut parent_id = [0; 8];
        for (at, byte) in parent_id.iter_mut().enumerate() {
            *byte = hex_byte(&bytes[36 + 2 * at..38 + 2 * at])?;
        }
        let flags = hex_byte(&bytes[53..55])?;
        if trace_id == [0; 16] || parent_id == [0; 8] {
            return None;
        }
        Some(Self {
            trace_id,
            parent_id,
            flags,
        })
    }

    /// The trace's id.
    pub fn trace_id(&self) -> [u8; 16] {
        self.trace_id
    }

    /// The id of the client's span that made the call: the parent of the server's span.
    pub fn parent_id(&self) -> [u8; 8] {
        self.parent_id
    }

    /// The trace flags.
    pub fn flags(&self) -> u8 {
        self.flags
    }

    /// Whether the client records this trace (flag `01`).
    pub fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }
}

/// The header value, version `00`.
impl fmt::Display for TraceParent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "00-{}-{}-{:02x}",
            Hex(&self.trace_id),
            Hex(&self.parent_id),
            self.flags
        )
    }
}

/// Bytes as lowercase hex, written without allocating.
pub(super) struct Hex<'a>(pub(super) &'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// Two lowercase hex digits.
fn hex_byte(pair: &[u8]) -> Option<u8> {
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    match pair {
        [high, low] => Some(digit(*high)? << 4 | digit(*low)?),
        _ => None,
    }
}

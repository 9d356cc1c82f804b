//! The quick read of an HTTP body: its envelope only, nothing built.
//!
//! rmcp's HTTP service parses every body itself, so reading it whole here as well (into a
//! `Value`, then into rmcp's message to learn whether rmcp could read it) doubled the work
//! of a call (BENCHMARKS.md, P8). Most bodies are plain requests: this reads the top-level
//! members once, skipping the rest without building it, and says whether the body is one of
//! those. Anything else (a notification, a response, an unusual id, non-object `arguments`,
//! a surrogate escape, a duplicate member) takes the full check (`classify`) instead, and
//! so does a body rmcp then fails to read (`transport/http/endpoint.rs`). The read also says
//! where a call's object `arguments` stand: the endpoint reads long ones itself and leaves
//! them out of what rmcp reads (`transport/http/screen.rs`).
//!
//! The same pass tallies the structure it steps over (`tally`), which bounds what the limit
//! pass would count.

use std::ops::Range;

use rmcp::model::{NumberOrString, RequestId};

use super::ends::{ends_scalar, quote_or_backslash};
use super::revision::{PROTOCOL_VERSION_KEY, removed_method, served_stateless};
use super::tally::Tally;
use crate::input::InputLimits;
use crate::server::{SUPPORTED_METHODS, TOOLS_CALL};

/// What the quick read learned of a plain request.
#[derive(Debug, PartialEq)]
pub(crate) struct QuickRequest<'b> {
    /// Its id.
    pub(crate) id: RequestId,
    /// Whether it is `initialize`.
    pub(crate) initialize: bool,
    /// Whether its `_meta` names a protocol revision, as requests of 2026-07-28 do.
    pub(crate) names_revision: bool,
    /// The tool a `tools/call` names, as it stands in the body: its bytes, which are UTF-8
    /// unless rmcp then refuses the body (`Screened::tool` reads them only for a token's
    /// scopes; checking them here cost 106 instructions of every call, callgrind).
    pub(crate) tool: Option<&'b [u8]>,
    /// Where the object `arguments` of a `tools/call` stand in the body, brackets included.
    pub(crate) arguments: Option<Range<usize>>,
}

/// The id and method of `bytes` when it is a plain request of a supported method: a JSON
/// object with `"jsonrpc": "2.0"`, a string or i64 `id`, a `method`, object `params` (if
/// any) whose `arguments` (if any) is an object, and a method that the revision its `_meta`
/// names has (see `revision`); and whether it is surely within `limits` (when it is not
/// sure, the limit pass says). `None` sends it to the full check.
pub(crate) fn quick_request<'b>(
    bytes: &'b [u8],
    limits: &InputLimits,
) -> Option<(QuickRequest<'b>, bool)> {
    // Tallying the structure cost the screening of a 1 KiB call of 60 strings 930
    // instructions more (10,017 against 9,086, callgrind: the tallies are saved and
    // restored around every string's `memchr` call), and a body this short is within the
    // limits anyway: it is read without them.
    if limits.within_by_length(bytes.len()) {
        let (request, _) = read::<false>(bytes)?;
        return Some((request, true));
    }
    let (request, tally) = read::<true>(bytes)?;
    Some((request, limits.admits(tally.bound())))
}

/// The quick read, tallying the structure when `TALLY`.
pub(super) fn read<const TALLY: bool>(bytes: &[u8]) -> Option<(QuickRequest<'_>, Tally)> {
    let mut scan = ByteCursor::<TALLY> {
        bytes,
        at: 0,
        tally: Tally::default(),
        nesting: 0,
    };
    let envelope = scan.envelope()?;
    scan.blank();
    if scan.at != bytes.len() {
        return None;
    }
    Some((envelope.into_request()?, scan.tally))
}

/// The envelope's members as they stand in the body, borrowed.
#[derive(Default)]
struct PlainEnvelope<'b> {
    version_ok: bool,
    id: Option<RequestId>,
    /// The method, when it is one this server supports.
    method: Option<&'static str>,
    revision: Option<&'b str>,
    /// `params.name`, when it is a plain string.
    name: Option<&'b [u8]>,
    /// Where `params.arguments` stands, when it is an object.
    arguments: Option<Range<usize>>,
}

impl<'b> PlainEnvelope<'b> {
    fn into_request(self) -> Option<QuickRequest<'b>> {
        let (true, Some(id), Some(method)) = (self.version_ok, self.id, self.method) else {
            return None;
        };
        if self.revision.and_then(served_stateless).is_some() && removed_method(method) {
            return None;
        }
        Some(QuickRequest {
            id,
            initialize: method == "initialize",
            names_revision: self.revision.is_some(),
            tool: self.name.filter(|_| method == TOOLS_CALL),
            arguments: self.arguments.filter(|_| method == TOOLS_CALL),
        })
    }
}

/// The supported method `method` names. Nearly every request over HTTP is a call: looked
/// for first, it is found with one comparison, where the search through the list compared
/// it with the two others of its length first (the quick read of a `get_user` call: 2,001
/// instructions before, 1,877 now, callgrind).
fn supported_method(method: &[u8]) -> Option<&'static str> {
    if method == TOOLS_CALL.as_bytes() {
        return Some(TOOLS_CALL);
    }
    SUPPORTED_METHODS
        .iter()
        .find(|supported| supported.as_bytes() == method)
        .copied()
}

/// How deep the scan follows nested arrays and objects: serde_json's own limit (it refuses
/// the 128th level), past which rmcp could not read the body either.
const MAX_DEPTH: usize = 127;

/// A reading position in a body. Every method returns `None` for anything it does not
/// expect, which sends the body to the full check: the scan only has to recognise plain
/// requests, and rmcp, which parses every body it is given, still refuses malformed JSON
/// in the parts skipped here (the full check then answers in its place).
struct ByteCursor<'b, const TALLY: bool> {
    bytes: &'b [u8],
    at: usize,
    /// The structure stepped over so far.
    tally: Tally,
    /// Whether each container `skip_value` is in is an array, one bit each, the innermost
    /// lowest (the scan follows at most 127 levels).
    nesting: u128,
}

impl<'b, const TALLY: bool> ByteCursor<'b, TALLY> {
    /// The top-level object, member by member. A member given twice is read differently by
    /// different parsers, and a name with an escape is left to the full check.
    fn envelope(&mut self) -> Option<PlainEnvelope<'b>> {
        let mut envelope = PlainEnvelope::default();
        let mut seen = [false; 4];
        self.members(|scan, name| {
            let slot = match name {
                b"jsonrpc" => 0,
                b"id" => 1,
                b"method" => 2,
                b"params" => 3,
                b"result" | b"error" => return None,
                _ => return scan.skip_value(1),
            };
            if std::mem::replace(&mut seen[slot], true) {
                return None;
            }
            match slot {
                0 => envelope.version_ok = scan.plain_string()? == b"2.0",
                1 => envelope.id = Some(scan.id()?),
                2 => {
                    envelope.method = supported_method(scan.plain_string()?);
                }
                _ => scan.params(&mut envelope)?,
            }
            Some(())
        })?;
        Some(envelope)
    }

    /// `params`: an object whose `arguments`, if any, is an object too (rmcp types it so;
    /// `classify` moves any other value aside), the revision its `_meta` names, and its
    /// `name` (a `tools/call`'s tool) when that is a string without escapes.
    fn params(&mut self, envelope: &mut PlainEnvelope<'b>) -> Option<()> {
        self.members(|scan, name| match name {
            b"name" if scan.peek() == Some(b'"') => {
                envelope.name = Some(scan.plain_string()?);
                Some(())
            }
            b"arguments" if scan.peek() == Some(b'{') => {
                let start = scan.at;
                scan.skip_value(2)?;
                envelope.arguments = Some(start..scan.at);
                Some(())
            }
            b"arguments" => None,
            b"_meta" if scan.peek() == Some(b'{') => {
                envelope.revision = None;
                scan.members(|scan, name| {
                    if name == PROTOCOL_VERSION_KEY.as_bytes() && scan.peek() == Some(b'"') {
                        envelope.revision = Some(std::str::from_utf8(scan.plain_string()?).ok()?);
                        return Some(());
                    }
                    scan.skip_value(3)
                })
            }
            _ => scan.skip_value(2),
        })
    }

    /// Reads an object, calling `member` with each name, positioned at its value, which
    /// `member` must read.
    fn members(&mut self, mut member: impl FnMut(&mut Self, &'b [u8]) -> Option<()>) -> Option<()> {
        self.blank();
        self.eat(b'{')?;
        self.blank();
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            self.blank();
            let name = self.plain_string()?;
            self.blank();
            self.eat(b':')?;
            if TALLY {
                self.tally.leads += 1;
            }
            self.blank();
            member(self, name)?;
            self.blank();
            match self.next()? {
                b',' => {
                    if TALLY {
                        self.tally.key_commas += 1;
                    }
                }
                b'}' => return Some(()),
                _ => return None,
            }
        }
    }

    /// The bytes of a string without escapes, borrowed; `None` for any other value.
    fn plain_string(&mut self) -> Option<&'b [u8]> {
        self.eat(b'"')?;
        let rest = self.bytes.get(self.at..)?;
        let end = quote_or_backslash(rest)?;
        if rest[end] != b'"' {
            return None;
        }
        self.at += end + 1;
        Some(&rest[..end])
    }

    /// A request id rmcp holds as it was sent: a string, or an integer within i64.
    fn id(&mut self) -> Option<RequestId> {
        if self.peek() == Some(b'"') {
            let text = std::str::from_utf8(self.plain_string()?).ok()?;
            return Some(NumberOrString::String(text.into()));
        }
        // Read digit by digit: `from_utf8` and `parse` took 120 instructions of every call
        // (callgrind). A negative id is summed downwards, so that `i64::MIN` fits.
        let sign = if self.eat(b'-').is_some() { -1 } else { 1 };
        let start = self.at;
        let mut id: i64 = 0;
        while let Some(digit) = self.peek().filter(u8::is_ascii_digit) {
            id = id
                .checked_mul(10)?
                .checked_add(sign * i64::from(digit - b'0'))?;
            self.at += 1;
        }
        // A fraction or an exponent makes it a float, which no request id is.
        if self.at == start || matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        Some(NumberOrString::Number(id))
    }

    /// Skips one value whose container is `depth` deep, without reading it: strings to
    /// their closing quote, containers to their matching bracket, anything else to the next
    /// delimiter; and tallies the structure it steps over.
    fn skip_value(&mut self, depth: usize) -> Option<()> {
        let mut open = 0usize;
        loop {
            self.blank();
            match self.next()? {
                b'"' => self.skip_string_rest()?,
                bracket @ (b'{' | b'[') => {
                    open += 1;
                    if depth + open > MAX_DEPTH {
                        return None;
                    }
                    if TALLY {
                        let array = bracket == b'[';
                        self.nesting = (self.nesting << 1) | u128::from(array);
                        // An object's first member follows its colon; an array's first
                        // item follows only the bracket.
                        self.tally.leads += usize::from(array);
                    }
                    continue;
                }
                b'}' | b']' => {
                    open = open.checked_sub(1)?;
                    if TALLY {
                        self.nesting >>= 1;
                    }
                }
                b',' if open > 0 => {
                    if TALLY && self.nesting & 1 == 1 {
                        self.tally.item_commas += 1;
                    } else if TALLY {
                        self.tally.key_commas += 1;
                    }
                    continue;
                }
                b':' if open > 0 => {
                    if TALLY {
                        self.tally.leads += 1;
                    }
                    continue;
                }
                // Outside a string a backslash is not JSON, and may start the escape of a
                // lone surrogate, which only the full check answers.
                b'\\' => return None,
                // A number or a literal, to the next byte that ends it (`ends_scalar`).
                _ => {
                    while self.peek().is_some_and(|byte| !ends_scalar(byte)) {
                        self.at += 1;
                    }
                }
            }
            if open == 0 {
                return Some(());
            }
        }
    }

    /// Skips the rest of a string whose opening quote was read, escapes included. A `\\uD…`
    /// escape may be half of a lone surrogate, which only the full check repairs: it stops
    /// the scan here, where a pass of its own over the whole body looked for it before (the
    /// P8 call's screening: 2,243 instructions then, 2,195 now, callgrind).
    fn skip_string_rest(&mut self) -> Option<()> {
        loop {
            let rest = self.bytes.get(self.at..)?;
            let found = quote_or_backslash(rest)?;
            self.at += found + 1;
            if rest[found] == b'"' {
                return Some(());
            }
            if rest.get(found + 1) == Some(&b'u')
                && matches!(rest.get(found + 2), Some(b'd' | b'D'))
            {
                return None;
            }
            // The escaped character, whatever it is.
            self.at += 1;
        }
    }

    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn eat(&mut self, expected: u8) -> Option<()> {
        (self.peek() == Some(expected)).then(|| self.at += 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick(body: &str) -> Option<QuickRequest<'_>> {
        quick_request(body.as_bytes(), &InputLimits::default()).map(|(request, _)| request)
    }

    #[test]
    fn plain_requests_are_read_quickly() {
        let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":"c"}]}}}"#;
        assert_eq!(
            quick(call),
            Some(QuickRequest {
                id: NumberOrString::Number(7),
                initialize: false,
                names_revision: false,
                tool: Some(b"x".as_slice()),
                arguments: Some(79..98),
            })
        );
        let init = r#"{"method":"initialize","params":{},"id":"a","jsonrpc":"2.0"}"#;
        assert_eq!(
            quick(init),
            Some(QuickRequest {
                id: NumberOrString::String("a".into()),
                initialize: true,
                names_revision: false,
                tool: None,
                arguments: None,
            })
        );
        let list = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"a":[1],"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(
            quick(list),
            Some(QuickRequest {
                id: NumberOrString::Number(3),
                initialize: false,
                names_revision: true,
                tool: None,
                arguments: None,
            })
        );
    }

    #[test]
    fn integer_ids_are_read_to_the_ends_of_i64() {
        for id in [i64::MIN, -1, 0, 7, i64::MAX] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            let quick = quick(&body).unwrap_or_else(|| panic!("read quickly: {body}"));
            assert_eq!(quick.id, NumberOrString::Number(id));
            assert_agrees_with_the_full_check(&body, &quick);
        }
        for id in [
            "-9223372036854775809",
            "9223372036854775808",
            "-",
            "--1",
            "1-",
        ] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            assert_eq!(quick(&body), None, "{body}");
        }
    }

    #[test]
    fn a_method_the_named_revision_removed_takes_the_full_check() {
        let body = |method: &str, revision: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{revision}"}}}}}}"#
            )
        };
        for method in ["initialize", "ping", "logging/setLevel"] {
            assert_eq!(quick(&body(method, "2026-07-28")), None, "{method}");
            let old = body(method, "2025-11-25");
            let old = quick(&old).expect("read quickly");
            assert!(old.names_revision, "{method}");
        }
        assert!(quick(&body("tools/list", "2026-07-28")).is_some());
    }

    #[test]
    fn anything_unusual_takes_the_full_check() {
        for body in [
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","result":{}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/unknown"}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":5}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[1]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\ud800"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"} trailing"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping""#,
        ] {
            assert_eq!(quick(body), None, "{body}");
        }
    }

    #[test]
    fn skipped_values_may_hold_anything_json_allows() {
        let bodies = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s":"a\"}{[","t":[{"u":"\\"},[],{}],"n":-1.5e3,"b":[true,false,null]},"note":"]"},"extra":{"k":["}"]}}"#,
            "{ \"jsonrpc\" : \"2.0\" ,\n\t\"id\" : -4 ,\r\n \"method\" : \"ping\" , \"params\" : { } }\n",
            r#"{"jsonrpc":"2.0","id":"é-1","method":"tools/list","params":{"cursor":"\u00e9"}}"#,
        ];
        for body in bodies {
            let quick = quick(body).unwrap_or_else(|| panic!("read quickly: {body}"));
            assert_agrees_with_the_full_check(body, &quick);
        }
    }

    #[test]
    fn the_scan_stops_where_serde_json_does() {
        // The top level, `params` and `arguments` are three levels; serde_json refuses 128.
        let nested = |levels: usize| {
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{}1{}}}}}}}"#,
                "[".repeat(levels),
                "]".repeat(levels)
            )
        };
        let deepest = nested(124);
        assert!(serde_json::from_str::<serde_json::Value>(&deepest).is_ok());
        assert!(quick(&deepest).is_some());
        let too_deep = nested(125);
        assert!(serde_json::from_str::<serde_json::Value>(&too_deep).is_err());
        assert_eq!(quick(&too_deep), None);
    }

    #[test]
    fn escaped_names_and_envelope_strings_take_the_full_check() {
        for body in [
            r#"{"jsonrpc":"2.0","\u0069d":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"pin\u0067"}"#,
            r#"{"jsonrpc":"2.0","id":"a\"b","method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"\u005fmeta":{}}}"#,
            r#"{"jsonrpc":"2.0","id":01e2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping",}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"arguments":"x"}}"#,
        ] {
            assert_eq!(quick(body), None, "{body}");
        }
    }

    /// A body the quick read passes is one the full check delivers, with the same id.
    fn assert_agrees_with_the_full_check(body: &str, quick: &QuickRequest) {
        let super::super::Inbound::Deliver(message) = super::super::classify(body.as_bytes())
        else {
            panic!("the full check refused {body}");
        };
        let rmcp::model::JsonRpcMessage::Request(request) = *message else {
            panic!("not a request: {body}");
        };
        assert_eq!(request.id, quick.id, "{body}");
    }

    #[test]
    fn surrogate_escapes_and_batches_take_the_full_check_in_the_same_pass() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s":"\ud83d"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s":"\uDE00"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"\ud83d\ude00":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[tr\ud800ue]}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"k":"\uD800"}}}"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
        ] {
            assert_eq!(quick(body), None, "{body}");
        }
        // Other escapes are read past; an escaped backslash before `ud` is no surrogate.
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s":"\u00e9\n\"\\"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s":"\\ud800"}}}"#,
        ] {
            let quick = quick(body).unwrap_or_else(|| panic!("read quickly: {body}"));
            assert_agrees_with_the_full_check(body, &quick);
        }
    }
}

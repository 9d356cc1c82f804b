//! What "large" means: every size past which an input is treated differently, in one place.
//!
//! Parsed JSON costs far more than its text (some 300 to 500 bytes a value while a message
//! is parsed; `0,` is two bytes on the wire and a `Value` of tens), and a bad input costs
//! more again to explain than a good one costs to accept (BENCHMARKS.md). So the sizes below
//! go from the message as it arrives to the memory it leaves behind, each smaller than the
//! one that refuses what it handles:
//!
//! 1. **Too large to read.** A message over the transport's size limit is discarded unread:
//!    `StdioOptions::max_message_bytes` (4 MiB) and `HttpOptions::max_body_bytes` (256 KiB),
//!    the user's options. Within it, an array, an object or a message over the
//!    [`InputLimits`](crate::InputLimits) ([`DEFAULT_MAX_ARRAY_ITEMS`],
//!    [`DEFAULT_MAX_OBJECT_KEYS`], [`DEFAULT_MAX_VALUES`]) is refused from its raw bytes before
//!    anything is parsed (`transport/oversized.rs`): a `tools/call` is answered with an
//!    `isError` result through the server, which the transport hands the refusal
//!    (`server/handoff.rs`), any other request with -32602.
//! 2. **Large to read.** An HTTP body over `LARGE_BODY_BYTES` (64 KiB) is screened on the
//!    sync tools' threads rather than on the executor, and read whole, once, so that rmcp
//!    reads it without its arguments (`transport/http/endpoint.rs`). Below it a body gets only
//!    a quick read of its envelope: the common small call pays for one parse, rmcp's.
//! 3. **Large to check.** Arguments of more than [`LARGE_INPUT_VALUES`] (10,000) values, a
//!    twentieth of [`DEFAULT_MAX_VALUES`] and tens of KiB of JSON (about the size of a large
//!    body above), are parsed off the executor (`tool/call.rs`) and take the large-input
//!    path (`input/large/`): their schema's rules first, then their long lists' items
//!    [`LIST_PART_ITEMS`] at a time, before `validator` checks them whole; a bad one costs a
//!    few milliseconds rather than hundreds of megabytes of `validator` errors.
//! 4. **Large enough to leave memory behind.** An input (a line or a body) of at least
//!    [`COUNTED_INPUT_BYTES`] (16 KiB, a quarter of a large body) counts towards giving freed
//!    memory back; a smaller one's memory is reused by the next. Freed memory is given back
//!    once [`RELEASE_AFTER_LINE_BYTES`] (256 KiB) of counted lines were read over stdio, whose
//!    one client sends its large calls one at a time, or `RELEASE_AFTER_BODY_BYTES` (4 MiB)
//!    of counted bodies or `RELEASE_AFTER_CLOSED_SESSIONS` closed sessions over HTTP, whose
//!    many clients would otherwise make a steady load trim every few seconds.
//!
//! # Giving memory back is the library's default
//!
//! glibc's allocator keeps what a process frees for reuse, spread over one arena per thread:
//! after 2,000 sessions expired the HTTP server still held 124 MB where it had started at
//! 11, and after one valid 400 KB stdio call the process held 17 MB more than before it
//! (BENCHMARKS.md). The transports give it back (`malloc_trim`, `transport/release.rs`)
//! without being asked, and no option turns it off: only the library knows when a parse of
//! a large input or the end of many sessions has left memory free, a server that is not
//! told holds its peak for good, and the cost is bounded (one look every 5 s; a trim only
//! after the amounts above, never under a steady load of small calls, whose page faults it
//! would multiply, P8). An application with another global allocator pays for a call that
//! finds glibc's heap nearly empty; on other platforms it is not made.

/// The default limit on the items of one array. A model writes a call's arguments token by
/// token, and even the largest output budgets (some 100,000 tokens) cannot write this many
/// items; a client that sends them sends data, which belongs in a resource or a file.
pub(crate) const DEFAULT_MAX_ARRAY_ITEMS: usize = 100_000;

/// The default limit on the keys of one object: objects with named fields have tens of
/// them, and maps keyed by data rarely thousands.
pub(crate) const DEFAULT_MAX_OBJECT_KEYS: usize = 10_000;

/// The default limit on the values of one message, every scalar, array and object counted:
/// an array at its limit and as much again beside it. The limits on one array or object do
/// not bound a message, which may hold many of them; this does, and with it the memory a
/// call takes (some 300 to 500 bytes a value while it is parsed, BENCHMARKS.md).
pub(crate) const DEFAULT_MAX_VALUES: usize = 200_000;

/// A POST body past this size is screened on the sync tools' threads, not on the executor,
/// and read whole rather than quickly (a `tools/call`'s arguments are then handed to the server beside what rmcp reads).
#[cfg(feature = "http")]
pub(crate) const LARGE_BODY_BYTES: usize = 64 * 1024;

/// How many JSON values make an input large: a few milliseconds of checking when it is bad.
pub(crate) const LARGE_INPUT_VALUES: usize = 10_000;

/// How many items of a list are checked at a time: few enough that a part's problems stay
/// within the violations kept in full (`Found`), unless its items break ten rules each.
pub(crate) const LIST_PART_ITEMS: usize = 100;

/// The smallest input that counts towards giving memory back. A small input's parse is small
/// and its memory is reused by the next one; counting them made a steady stream of small
/// HTTP calls trim every few seconds, and each trim costs the pages it released in page
/// faults (three to four times rmcp's count at 32 connections, BENCHMARKS.md, P8).
pub(crate) const COUNTED_INPUT_BYTES: usize = 16 * 1024;

/// How many bytes of large lines must have been read since memory was last given back (some
/// 10 MiB while parsed) before it is given back again: a stdio server has one client, whose
/// large calls come one at a time.
pub(crate) const RELEASE_AFTER_LINE_BYTES: u64 = 256 * 1024;

/// How many bytes of large request bodies must have been read since memory was last given
/// back (some hundreds of MiB while parsed) before it is given back again.
#[cfg(feature = "http")]
pub(crate) const RELEASE_AFTER_BODY_BYTES: u64 = 4 * 1024 * 1024;

/// How many sessions must have closed since memory was last given back (some 14 MiB of
/// them) before it is given back again.
#[cfg(feature = "http")]
pub(crate) const RELEASE_AFTER_CLOSED_SESSIONS: usize = 256;

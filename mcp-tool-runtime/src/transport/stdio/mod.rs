//! Newline-delimited JSON-RPC over a reader and a writer (stdin and stdout), hardened.
//!
//! rmcp's own stdio transport stays silent on a line that is not JSON (the client then waits
//! forever) and answers every other malformed message with an id-less "Invalid request". This
//! adapter implements rmcp's `Transport` for the same framing and checks every line first
//! (see the `jsonrpc` module): the client gets the standard JSON-RPC code with its request's id,
//! and the session goes on.
//!
//! One file per stage, as in `http/`: `options` (what a user sets), `serve` (the
//! `serve_stdio` and `serve_lines` methods), `signals` (the end on SIGTERM or SIGINT),
//! `framing` (lines and their size limit), `transport` (each line checked, then handed to
//! rmcp), `backlog` and `pipes` (the output's queue, and the process's own pipes).

mod backlog;
mod framing;
mod options;
mod pipes;
mod serve;
mod signals;
mod transport;

pub use options::StdioOptions;
pub use pipes::StdinReader;
pub use transport::LineTransport;

//! Newline-delimited JSON-RPC over a reader and a writer (stdin and stdout), hardened.
//!
//! rmcp's own stdio transport stays silent on a line that is not JSON (the client then waits
//! forever) and answers every other malformed message with an id-less "Invalid request". This
//! adapter implements rmcp's [`Transport`] for the same framing and checks every line first
//! (see the `jsonrpc` module): the client gets the standard JSON-RPC code with its request's id,
//! and the session goes on. Well-formed messages reach rmcp unchanged, except a `tools/call`
//! whose `arguments` is not an object (which the transports move to `_meta`).

use std::io;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::{RoleServer, ServiceExt};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::jsonrpc::{self, Inbound};
use super::oversized::{self, Screen};
use super::release::{InputBytes, release_after_reads};
use super::shutdown;
use crate::input::InputLimits;
use crate::server::{McpServer, ServeError};
use crate::stderr::StderrLog;

mod backlog;
mod pipes;

use backlog::{Backlog, Output, Queue};
pub use pipes::StdinReader;
use pipes::write_stdout;

/// The default time the calls already read get to finish after a shutdown signal.
const DEFAULT_GRACE_PERIOD: Duration = Duration::from_secs(10);

/// How many bytes of large lines must have been read since memory was last given back (some
/// 10 MiB while parsed) before it is given back again: a stdio server has one client, whose
/// large calls come one at a time.
const RELEASE_AFTER_LINE_BYTES: u64 = 256 * 1024;

/// The default size limit of one incoming message: 4 MiB.
pub(crate) const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// Options of the stdio transport.
///
/// ```
/// let options = mcp_tool_runtime::StdioOptions::default().max_message_bytes(1 << 20);
/// assert_eq!(options.limit(), 1 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct StdioOptions {
    max_message_bytes: usize,
    grace_period: Duration,
}

impl Default for StdioOptions {
    fn default() -> Self {
        Self {
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            grace_period: DEFAULT_GRACE_PERIOD,
        }
    }
}

impl StdioOptions {
    /// The largest message accepted, in bytes (default 4 MiB). A longer
    /// line is discarded without being buffered and answered with an error.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes.max(1);
        self
    }

    /// How long the calls already read get to finish after SIGTERM or SIGINT (default
    /// 10 s): input is no longer read, what was read is answered, then the session ends.
    pub fn grace_period(mut self, limit: Duration) -> Self {
        self.grace_period = limit;
        self
    }

    /// The configured size limit.
    pub fn limit(&self) -> usize {
        self.max_message_bytes
    }
}

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Serves MCP over this process's stdin and stdout until the client disconnects, with
    /// the default [`StdioOptions`].
    ///
    /// A stdio server has one client, so a `current_thread` runtime is usually enough. It
    /// also keeps peak memory flat: a multi-threaded runtime spreads calls over one glibc
    /// malloc arena per worker, and each arena keeps its own high-water mark.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_stdio_with(StdioOptions::default()).await
    }

    /// Serves MCP over stdin and stdout with `options`. Malformed messages are answered
    /// with JSON-RPC errors and the session goes on (see [`LineTransport`]). On SIGTERM or
    /// SIGINT, input stops being read, the calls already read are answered (within
    /// [`StdioOptions::grace_period`]) and it returns `Ok`.
    pub async fn serve_stdio_with(self, options: StdioOptions) -> Result<(), ServeError> {
        let transport = LineTransport::stdio(&options);
        let end_input = transport.end_input.clone();
        let stop = async move {
            shutdown::signal().await;
            end_input.cancel();
        };
        let served = self
            .serve_lines_until(transport, stop, options.grace_period)
            .await;
        // The runtime's own failure lines are queued (see `StderrLog`); a masked error told
        // the client its cause was logged, so let them out before the process may end.
        let _ = tokio::task::spawn_blocking(|| StderrLog::flush_for(LOG_FLUSH_LIMIT)).await;
        served
    }

    /// Serves MCP over any line transport, such as a [`LineTransport`] on a socket or a pipe.
    /// Memory freed after large lines is given back to the system within seconds.
    pub async fn serve_lines<R>(self, mut transport: LineTransport<R>) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
    {
        transport.limits = self.registry().input_limits();
        let read = Arc::downgrade(&transport.input_bytes);
        tokio::spawn(release_after_reads(read, RELEASE_AFTER_LINE_BYTES));
        let running = self
            .serve(transport)
            .await
            .map_err(|error| ServeError::Initialize(Box::new(error)))?;
        running.waiting().await.map_err(ServeError::Session)?;
        Ok(())
    }

    /// Serves `transport` until its session ends; once `stop` resolves (having ended the
    /// transport's input), the session gets `grace` to answer what it read, then is dropped.
    async fn serve_lines_until<R>(
        self,
        transport: LineTransport<R>,
        stop: impl Future<Output = ()>,
        grace: Duration,
    ) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
    {
        let session = self.serve_lines(transport);
        tokio::pin!(session);
        tokio::select! {
            served = session.as_mut() => return served,
            () = stop => {}
        }
        match tokio::time::timeout(grace, session).await {
            Ok(served) => served,
            Err(_) => {
                tracing::warn!(
                    ?grace,
                    "calls still running after the grace period are dropped"
                );
                Ok(())
            }
        }
    }
}

/// How long the end of a stdio session waits for queued log lines to reach stderr.
const LOG_FLUSH_LIMIT: Duration = Duration::from_secs(1);

/// How much of an oversized line is kept to look for its `id`.
const ID_PREFIX_BYTES: usize = 4096;

/// The hardened line transport. Build it with [`LineTransport::new`] or
/// [`LineTransport::stdio`] and hand it to rmcp's `serve`.
pub struct LineTransport<R> {
    lines: LineReader<R>,
    outbox: Option<mpsc::UnboundedSender<Vec<u8>>>,
    /// The bytes in `outbox` not yet taken by the writer; input waits while there are too many.
    backlog: Arc<Backlog>,
    /// Resolves (with an error: its sender is dropped) once the writer has stopped.
    writer_stopped: Option<oneshot::Receiver<()>>,
    /// Whether `initialize` has reached rmcp; until then, only the handshake gets through.
    initialized: bool,
    /// Cancelled to end the input as if the client had closed it (on a shutdown signal).
    end_input: CancellationToken,
    /// The server's limits on a message's arrays and objects, checked on each line.
    limits: InputLimits,
    /// The bytes of large lines read, to know when to give freed memory back.
    input_bytes: Arc<InputBytes>,
}

impl LineTransport<StdinReader> {
    /// A transport over this process's stdin and stdout.
    ///
    /// Both are served by one dedicated thread each ("mcp-stdin" and "mcp-stdout"), not by
    /// tokio's `stdin()`/`stdout()`: those run every read and every write as a
    /// `spawn_blocking` task, so how many blocking-pool threads the process has, each with its
    /// stack, depends on the load (7 to 16 threads were seen under the same benchmark). With
    /// two fixed threads the count is known from the start, no task is spawned per read or
    /// write, and the writer sends everything queued with one system call.
    ///
    /// If a thread cannot be started, the session ends at once: a failed reader is reported
    /// as a read error by the first `receive`, a failed writer ends the input at once.
    pub fn stdio(options: &StdioOptions) -> Self {
        let (outbox, receiver) = mpsc::unbounded_channel::<Vec<u8>>();
        let backlog = Arc::new(Backlog::default());
        let queue = Queue::new(receiver, &backlog);
        let (stopped, writer_stopped) = oneshot::channel();
        let spawned = thread::Builder::new()
            .name("mcp-stdout".into())
            .spawn(move || write_stdout(queue, stopped));
        if let Err(error) = spawned {
            // The closure, and with it the queue, is gone: every send reports the closed output.
            tracing::error!(%error, "cannot start the stdout thread");
        }
        let output = (outbox, backlog, writer_stopped);
        Self::with_writer(StdinReader::spawn(), output, options)
    }
}

impl<R: AsyncRead + Unpin + Send> LineTransport<R> {
    /// The same transport checking each line against `limits` (as `serve_lines` sets them
    /// from the server's).
    #[cfg(feature = "testing")]
    pub(crate) fn with_limits(mut self, limits: InputLimits) -> Self {
        self.limits = limits;
        self
    }

    /// A transport reading lines from `reader` and writing lines to `writer`.
    ///
    /// Every outgoing message, rmcp's and this adapter's error answers alike, goes through
    /// one writer task, so lines never interleave and the reader never waits on the writer.
    pub fn new<W>(reader: R, writer: W, options: &StdioOptions) -> Self
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (outbox, receiver) = mpsc::unbounded_channel::<Vec<u8>>();
        let backlog = Arc::new(Backlog::default());
        let mut queue = Queue::new(receiver, &backlog);
        let (stopped, writer_stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            // Dropped when this task ends, however it ends, which is what `close` waits for.
            let _stopped = stopped;
            let mut writer = writer;
            while let Some(line) = queue.recv().await {
                let written = async {
                    writer.write_all(&line).await?;
                    // Drain whatever else is queued before paying for a flush.
                    while let Some(more) = queue.try_recv() {
                        writer.write_all(&more).await?;
                    }
                    writer.flush().await
                };
                if let Err(error) = written.await {
                    tracing::error!(%error, "cannot write to the client; closing the output");
                    return;
                }
            }
        });
        Self::with_writer(reader, (outbox, backlog, writer_stopped), options)
    }

    /// A transport reading from `reader` whose output goes to `outbox` (its size kept in
    /// `backlog`), drained by a writer that drops the sender of `writer_stopped` when it stops.
    fn with_writer(reader: R, output: Output, options: &StdioOptions) -> Self {
        let (outbox, backlog, writer_stopped) = output;
        Self {
            lines: LineReader {
                reader: BufReader::new(reader),
                line: Vec::new(),
                oversized: None,
                limit: options.max_message_bytes,
            },
            outbox: Some(outbox),
            backlog,
            writer_stopped: Some(writer_stopped),
            initialized: false,
            end_input: CancellationToken::new(),
            limits: InputLimits::default(),
            input_bytes: Arc::default(),
        }
    }

    fn queue(&self, message: &serde_json::Value) {
        let mut bytes = message.to_string().into_bytes();
        bytes.push(b'\n');
        if let Some(outbox) = &self.outbox {
            let length = bytes.len();
            if outbox.send(bytes).is_ok() {
                self.backlog.add(length);
            }
        }
    }
}

impl<R: AsyncRead + Unpin> LineTransport<R> {
    /// The next line; `None` once the input ends, reading fails, or the output is gone. A
    /// client that closed the server's stdout can read no answer, and serving on would only
    /// fail each one (with a log line each) for as long as it writes.
    ///
    /// While the answers waiting for the writer exceed [`OUTPUT_BACKLOG_BYTES`] (a client that
    /// stopped reading), no more input is read: the client's writes block instead of the
    /// server queueing answers without limit.
    async fn next_input(&mut self) -> Option<Line> {
        let (lines, backlog) = (&mut self.lines, &self.backlog);
        let read = tokio::select! {
            biased;
            () = output_gone(&mut self.writer_stopped) => {
                tracing::info!("the output is closed; ending the session");
                return None;
            }
            () = self.end_input.cancelled() => return None,
            read = async {
                backlog.room().await;
                lines.next_line().await
            } => read,
        };
        read.unwrap_or_else(|error| {
            tracing::error!(%error, "cannot read from the client");
            None
        })
    }

    /// Until the session's revision is settled (an `initialize`, or a 2026-07-28 request with
    /// its `_meta`), only what starts a session reaches rmcp, which would end the session on
    /// anything else (see `jsonrpc::before_initialize`).
    fn admit(&mut self, message: RxJsonRpcMessage<RoleServer>) -> Inbound {
        self.initialized = jsonrpc::starts_session(&message);
        jsonrpc::before_initialize(message)
    }
}

/// Splits the input into lines, discarding (but reporting) those over the size limit.
struct LineReader<R> {
    reader: BufReader<R>,
    line: Vec<u8>,
    /// The start of an oversized line, kept to find its `id`; `Some` while discarding it.
    oversized: Option<Vec<u8>>,
    limit: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Reads the next line, or reports an oversized one. Cancel-safe: the partial line lives
    /// in `self`, and `fill_buf`/`consume` never lose bytes when the future is dropped.
    async fn next_line(&mut self) -> io::Result<Option<Line>> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(self.last_line());
            }
            let newline = available.iter().position(|&byte| byte == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            let chunk = &available[..take];
            if let Some(prefix) = &mut self.oversized {
                let room = ID_PREFIX_BYTES.saturating_sub(prefix.len());
                prefix.extend_from_slice(&chunk[..room.min(chunk.len())]);
            } else if self.line.len() + take > self.limit.saturating_add(1) {
                let mut prefix = std::mem::take(&mut self.line);
                prefix.truncate(ID_PREFIX_BYTES);
                let room = ID_PREFIX_BYTES.saturating_sub(prefix.len());
                prefix.extend_from_slice(&chunk[..room.min(chunk.len())]);
                self.oversized = Some(prefix);
            } else {
                self.line.extend_from_slice(chunk);
            }
            self.reader.consume(take);
            if newline.is_some() {
                return Ok(Some(match self.oversized.take() {
                    Some(prefix) => Line::Oversized(prefix),
                    None => Line::Complete(std::mem::take(&mut self.line)),
                }));
            }
        }
    }

    /// What is left at end of input: a last line without its newline is still a message
    /// (a client may write its final request and close), so it is served like any other.
    fn last_line(&mut self) -> Option<Line> {
        if let Some(prefix) = self.oversized.take() {
            return Some(Line::Oversized(prefix));
        }
        if self.line.is_empty() {
            return None;
        }
        Some(Line::Complete(std::mem::take(&mut self.line)))
    }
}

/// Resolves once the writer has stopped, and never if it was already seen stopping
/// (`stopped` is then `None`). Cancel-safe: the receiver stays in place until it resolves.
async fn output_gone(stopped: &mut Option<oneshot::Receiver<()>>) {
    match stopped {
        Some(receiver) => {
            // Never sent on: the sender being dropped is the signal.
            let _ = receiver.await;
            *stopped = None;
        }
        None => std::future::pending().await,
    }
}

enum Line {
    Complete(Vec<u8>),
    Oversized(Vec<u8>),
}

impl<R: AsyncRead + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let outcome = match (&self.outbox, serde_json::to_vec(&item)) {
            (Some(outbox), Ok(mut bytes)) => {
                bytes.push(b'\n');
                let length = bytes.len();
                let sent = outbox
                    .send(bytes)
                    .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "output closed"));
                if sent.is_ok() {
                    self.backlog.add(length);
                }
                self.backlog.answered(&item);
                sent
            }
            (None, _) => Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "transport closed",
            )),
            (_, Err(error)) => Err(io::Error::other(error)),
        };
        std::future::ready(outcome)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let bytes = match self.next_input().await? {
                Line::Complete(bytes) => bytes,
                Line::Oversized(prefix) => {
                    tracing::warn!(
                        limit = self.lines.limit,
                        "discarded a message over the size limit"
                    );
                    self.queue(&jsonrpc::oversized(&prefix, self.lines.limit));
                    continue;
                }
            };
            self.input_bytes.add(bytes.len());
            let trimmed = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
            let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
            if trimmed.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let inbound = match oversized::screen(trimmed, &self.limits) {
                Screen::Pass => jsonrpc::classify(trimmed),
                Screen::Replace(stand_in) => jsonrpc::classify(&stand_in),
                Screen::Answer(inbound) => inbound,
            };
            let inbound = match inbound {
                Inbound::Deliver(message) if !self.initialized => self.admit(*message),
                inbound => inbound,
            };
            match inbound {
                Inbound::Deliver(message) => {
                    self.backlog.delivered(&message);
                    return Some(*message);
                }
                Inbound::Reply(answer) => {
                    tracing::info!(error = %answer["error"]["message"], "answered a malformed message");
                    self.queue(&answer);
                }
                Inbound::Ignore(why) => tracing::debug!(%why, "ignored a message"),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Closing the queue lets the writer finish what is queued, then stop.
        drop(self.outbox.take());
        if let Some(stopped) = self.writer_stopped.take() {
            // Never sent on: the error that comes when the writer drops the sender is the signal.
            let _ = stopped.await;
        }
        Ok(())
    }
}

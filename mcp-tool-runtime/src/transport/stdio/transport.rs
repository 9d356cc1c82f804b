//! The hardened line transport: each line checked (see the `jsonrpc` module) before rmcp
//! reads it. Well-formed messages reach rmcp unchanged, except a `tools/call` whose
//! `arguments` is not an object, or was refused for its size: that is handed to the server
//! beside the message ([`Handoff`](crate::server::Handoff)).

use std::io;
use std::sync::Arc;
use std::thread;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::super::jsonrpc::{self, Inbound};
use super::super::oversized::{self, Screen};
use super::super::release::InputBytes;
use super::backlog::{Backlog, Output, Queue};
use super::framing::{Line, LineReader};
use super::options::StdioOptions;
use super::pipes::{StdinReader, write_stdout};
use crate::input::InputLimits;

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
    pub(super) end_input: CancellationToken,
    /// The server's limits on a message's arrays and objects, checked on each line.
    pub(super) limits: InputLimits,
    /// The bytes of large lines read, to know when to give freed memory back.
    pub(super) input_bytes: Arc<InputBytes>,
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
            lines: LineReader::new(reader, options.limit()),
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
                        limit = self.lines.limit(),
                        "discarded a message over the size limit"
                    );
                    self.queue(&jsonrpc::oversized(&prefix, self.lines.limit()));
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
                Screen::Replace(stand_in) => stand_in.classify().1,
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

//! Newline-delimited JSON-RPC over a reader and a writer (stdin and stdout), hardened.
//!
//! rmcp's own stdio transport stays silent on a line that is not JSON (the client then waits
//! forever) and answers every other malformed message with an id-less "Invalid request". This
//! adapter implements rmcp's [`Transport`] for the same framing and checks every line first
//! (see [`crate::protocol`]): the client gets the standard JSON-RPC code with its request's id,
//! and the session goes on. Well-formed messages reach rmcp unchanged, except a `tools/call`
//! whose `arguments` is not an object (see [`crate::protocol::RAW_ARGUMENTS_META_KEY`]).

use std::io;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::protocol::{self, Inbound};

/// The default size limit of one incoming message: 4 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// Options of the stdio transport.
///
/// ```
/// let options = mcp_tool_runtime::StdioOptions::default().max_message_bytes(1 << 20);
/// assert_eq!(options.limit(), 1 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct StdioOptions {
    max_message_bytes: usize,
}

impl Default for StdioOptions {
    fn default() -> Self {
        Self {
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }
}

impl StdioOptions {
    /// The largest message accepted, in bytes (default [`DEFAULT_MAX_MESSAGE_BYTES`]). A longer
    /// line is discarded without being buffered and answered with an error.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes.max(1);
        self
    }

    /// The configured size limit.
    pub fn limit(&self) -> usize {
        self.max_message_bytes
    }
}

/// How much of an oversized line is kept to look for its `id`.
const ID_PREFIX_BYTES: usize = 4096;

/// The hardened line transport. Build it with [`LineTransport::new`] or
/// [`LineTransport::stdio`] and hand it to rmcp's `serve`.
pub struct LineTransport<R> {
    reader: BufReader<R>,
    line: Vec<u8>,
    /// The start of an oversized line, kept to find its `id`; `Some` while discarding it.
    oversized: Option<Vec<u8>>,
    limit: usize,
    outbox: Option<mpsc::UnboundedSender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
}

impl LineTransport<tokio::io::Stdin> {
    /// A transport over this process's stdin and stdout.
    pub fn stdio(options: &StdioOptions) -> Self {
        Self::new(tokio::io::stdin(), tokio::io::stdout(), options)
    }
}

impl<R: AsyncRead + Unpin + Send> LineTransport<R> {
    /// A transport reading lines from `reader` and writing lines to `writer`.
    ///
    /// Every outgoing message, rmcp's and this adapter's error answers alike, goes through
    /// one writer task, so lines never interleave and the reader never waits on the writer.
    pub fn new<W>(reader: R, writer: W, options: &StdioOptions) -> Self
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (outbox, mut queue) = mpsc::unbounded_channel::<Vec<u8>>();
        let writer = tokio::spawn(async move {
            let mut writer = writer;
            while let Some(line) = queue.recv().await {
                let written = async {
                    writer.write_all(&line).await?;
                    // Drain whatever else is queued before paying for a flush.
                    while let Ok(more) = queue.try_recv() {
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
        Self {
            reader: BufReader::new(reader),
            line: Vec::new(),
            oversized: None,
            limit: options.max_message_bytes,
            outbox: Some(outbox),
            writer: Some(writer),
        }
    }

    fn queue(&self, message: &serde_json::Value) {
        let mut bytes = message.to_string().into_bytes();
        bytes.push(b'\n');
        if let Some(outbox) = &self.outbox {
            let _ = outbox.send(bytes);
        }
    }

    /// Reads the next line, or reports an oversized one. Cancel-safe: the partial line lives
    /// in `self`, and `fill_buf`/`consume` never lose bytes when the future is dropped.
    async fn next_line(&mut self) -> io::Result<Option<Line>> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(None);
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
                outbox
                    .send(bytes)
                    .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "output closed"))
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
            let line = match self.next_line().await {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(error) => {
                    tracing::error!(%error, "cannot read from the client");
                    return None;
                }
            };
            let bytes = match line {
                Line::Complete(bytes) => bytes,
                Line::Oversized(prefix) => {
                    tracing::warn!(
                        limit = self.limit,
                        "discarded a message over the size limit"
                    );
                    self.queue(&protocol::oversized(&prefix, self.limit));
                    continue;
                }
            };
            let trimmed = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
            let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
            if trimmed.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match protocol::classify(trimmed) {
                Inbound::Deliver(message) => return Some(*message),
                Inbound::Reply(answer) => {
                    tracing::info!(error = %answer["error"]["message"], "answered a malformed message");
                    self.queue(&answer);
                }
                Inbound::Ignore(why) => tracing::debug!(%why, "ignored a malformed notification"),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Closing the queue lets the writer finish what is queued, then stop.
        drop(self.outbox.take());
        if let Some(writer) = self.writer.take() {
            let _ = writer.await;
        }
        Ok(())
    }
}

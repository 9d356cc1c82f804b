//! Newline-delimited framing: the input split into lines, a line over the size limit
//! discarded as it comes (only its start is kept, to find its `id`).

use std::io;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// How much of an oversized line is kept to look for its `id`.
const ID_PREFIX_BYTES: usize = 4096;

/// Splits the input into lines, discarding (but reporting) those over the size limit.
pub(super) struct LineReader<R> {
    reader: BufReader<R>,
    line: Vec<u8>,
    /// The start of an oversized line, kept to find its `id`; `Some` while discarding it.
    oversized: Option<Vec<u8>>,
    limit: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Lines of `reader`, each at most `limit` bytes.
    pub(super) fn new(reader: R, limit: usize) -> Self {
        Self {
            reader: BufReader::new(reader),
            line: Vec::new(),
            oversized: None,
            limit,
        }
    }

    /// The size limit of one line.
    pub(super) fn limit(&self) -> usize {
        self.limit
    }

    /// Reads the next line, or reports an oversized one. Cancel-safe: the partial line lives
    /// in `self`, and `fill_buf`/`consume` never lose bytes when the future is dropped.
    pub(super) async fn next_line(&mut self) -> io::Result<Option<Line>> {
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

pub(super) enum Line {
    Complete(Vec<u8>),
    Oversized(Vec<u8>),
}

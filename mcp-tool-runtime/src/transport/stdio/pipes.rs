//! The process's own pipes: stdin read by a thread of its own, and answers written to stdout
//! in batches by another.

use std::io::{self, Read, Write};
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::thread;

use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::{mpsc, oneshot};

use super::backlog::Queue;

/// How much one read of stdin asks for: the size of std's stdin buffer and of the
/// `BufReader` in front of this reader, which is what one read took before. Pipelined requests
/// are small, so one read still takes dozens of them.
pub(super) const STDIN_CHUNK_BYTES: usize = 8 * 1024;

/// How many chunks read from stdin may wait for the transport. When they are all waiting, the
/// reader thread stops reading and the client's writes block, as they would with no thread in
/// between: the server takes input only as fast as it handles it. Kept small because every
/// waiting chunk is memory held for nothing.
pub(super) const STDIN_CHUNKS_QUEUED: usize = 4;

/// The most the stdout thread gathers before writing. Allocated once, at its full size, so
/// that the buffer never moves or grows while serving.
pub(super) const STDOUT_BATCH_BYTES: usize = 64 * 1024;

/// This process's stdin as an [`AsyncRead`], read by a dedicated thread named "mcp-stdin".
///
/// The thread reads chunks as they come and hands them over through a bounded channel;
/// polling takes them from there, so a dropped read loses nothing (the channel and the rest of
/// the current chunk live in `self`). The thread stops at end of input, after a read error
/// (which the next read reports), or at its next chunk once this reader is dropped. Blocked in
/// a read, it cannot be woken: if the session ends before stdin does, the thread stays until
/// the process exits. That is harmless: it is detached, so it never delays the exit, and
/// tokio's own `stdin()` has the same limitation, with a read that even holds up the runtime's
/// shutdown.
pub struct StdinReader {
    chunks: mpsc::Receiver<io::Result<Vec<u8>>>,
    current: Vec<u8>,
    /// How much of `current` has been read.
    taken: usize,
}

impl StdinReader {
    /// Starts the reader thread. Only [`LineTransport::stdio`] does: two readers of stdin
    /// would split the client's lines between them.
    pub(super) fn spawn() -> Self {
        let (sender, chunks) = mpsc::channel(STDIN_CHUNKS_QUEUED);
        let for_thread = sender.clone();
        let spawned = thread::Builder::new()
            .name("mcp-stdin".into())
            .spawn(move || read_stdin(&for_thread));
        if let Err(error) = spawned {
            // Reported by the first read; the channel is empty, so there is room for it.
            let _ = sender.try_send(Err(error));
        }
        Self {
            chunks,
            current: Vec::new(),
            taken: 0,
        }
    }
}

impl AsyncRead for StdinReader {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        while this.taken == this.current.len() {
            match ready!(this.chunks.poll_recv(cx)) {
                Some(Ok(chunk)) => {
                    this.current = chunk;
                    this.taken = 0;
                }
                Some(Err(error)) => return Poll::Ready(Err(error)),
                // The thread has stopped without an error: end of input, reported as a read
                // of nothing.
                None => return Poll::Ready(Ok(())),
            }
        }
        let rest = &this.current[this.taken..];
        let count = rest.len().min(buf.remaining());
        buf.put_slice(&rest[..count]);
        this.taken += count;
        Poll::Ready(Ok(()))
    }
}

/// The "mcp-stdin" thread: reads stdin into `chunks` until end of input, a read error, or the
/// reader's end of the channel is gone.
fn read_stdin(chunks: &mpsc::Sender<io::Result<Vec<u8>>>) {
    let stdin = io::stdin();
    // Reused for every read; what is sent is a copy of the bytes read, sized to them, so that
    // a chunk holds no more memory than it carries.
    let mut buffer = vec![0; STDIN_CHUNK_BYTES];
    loop {
        // Through `Stdin`, not the raw descriptor, so that bytes an earlier read of stdin in
        // this process left in std's buffer come first. Past those, a read this large skips
        // that buffer and goes straight to the descriptor.
        let chunk = match stdin.lock().read(&mut buffer) {
            Ok(0) => return,
            Ok(count) => Ok(buffer[..count].to_vec()),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => Err(error),
        };
        let failed = chunk.is_err();
        if chunks.blocking_send(chunk).is_err() || failed {
            return;
        }
    }
}

/// The "mcp-stdout" thread: writes every queued line to stdout until the queue closes or a
/// write fails. Dropping `_stopped` on return tells [`LineTransport::close`] it is done.
pub(super) fn write_stdout(mut queue: Queue, _stopped: oneshot::Sender<()>) {
    let stdout = io::stdout();
    let mut batch = Vec::with_capacity(STDOUT_BATCH_BYTES);
    while let Some(first) = queue.blocking_recv() {
        if let Err(error) = write_queued(&stdout, &mut queue, first, &mut batch) {
            // Returning drops the queue, so every later send reports the closed output.
            tracing::error!(%error, "cannot write to the client; closing the output");
            return;
        }
    }
}

/// Writes `first` and whatever else is queued, then flushes once.
///
/// Lines are gathered into `batch` because std's stdout is line buffered: written one by one,
/// each line would be a system call of its own, while a batch that ends in a newline goes out
/// in one. The lock is taken per batch, not for the thread's life, so that a stray `println!`
/// elsewhere in the process waits for one batch instead of hanging forever.
fn write_queued(
    stdout: &io::Stdout,
    queue: &mut Queue,
    first: Vec<u8>,
    batch: &mut Vec<u8>,
) -> io::Result<()> {
    let mut out = stdout.lock();
    let mut next = Some(first);
    while let Some(line) = next {
        if batch.len() + line.len() > STDOUT_BATCH_BYTES {
            // Out with what is gathered first, so that `batch` never grows past its capacity.
            write_batch(&mut out, batch)?;
        }
        if line.len() > STDOUT_BATCH_BYTES {
            // Bigger than a whole batch: written as it is rather than copied.
            out.write_all(&line)?;
        } else {
            batch.extend_from_slice(&line);
        }
        next = queue.try_recv();
    }
    write_batch(&mut out, batch)?;
    out.flush()
}

/// Writes and empties `batch`, keeping its capacity for the next one.
fn write_batch(out: &mut impl Write, batch: &mut Vec<u8>) -> io::Result<()> {
    if !batch.is_empty() {
        let written = out.write_all(batch);
        batch.clear();
        written?;
    }
    Ok(())
}

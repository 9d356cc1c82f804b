//! Log lines to stderr through a bounded queue, so that a full stderr never blocks a call.
//!
//! Some MCP clients never read a stdio server's stderr. Once its pipe is full, a plain
//! `write` to stderr blocks the task that logs, and with it the request it serves. Lines here
//! go to a queue that one thread writes out; past [`QUEUE_BYTES`] waiting, a line is dropped
//! and counted, and the count is written out as soon as stderr takes lines again.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Bytes of log lines that may wait for stderr: a few thousand lines, a bounded memory cost.
const QUEUE_BYTES: usize = 256 * 1024;

/// A writer of log lines to stderr that never blocks: a line that does not fit in the queue
/// is dropped and counted. Each `write` should be one whole line, as `tracing-subscriber`'s
/// `fmt` layer writes them: `.with_writer(StderrLog::default)`.
#[derive(Debug, Clone, Copy, Default)]
pub struct StderrLog;

impl StderrLog {
    /// How many log lines were dropped so far because stderr was not being read.
    pub fn dropped() -> u64 {
        sink().counts.dropped.load(Ordering::Relaxed)
    }

    /// Waits up to `timeout` until every queued line is written; whether they all were.
    /// For the end of `main`: a process that returns loses the lines still queued.
    pub fn flush_for(timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while sink().counts.queued.load(Ordering::Acquire) > 0 {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }
}

impl Write for StderrLog {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        sink().offer(line);
        // A dropped line is reported by count, never as an error: the caller could only
        // try to log that error, to the same stderr.
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the queue holds and what it lost, shared with the thread that writes it out.
#[derive(Default)]
struct Counts {
    queued: AtomicUsize,
    dropped: AtomicU64,
    unreported: AtomicU64,
}

/// The queue's sending side; `None` when the writing thread could not be started.
struct Sink {
    sender: Option<Sender<Vec<u8>>>,
    counts: Arc<Counts>,
}

impl Sink {
    fn offer(&self, line: &[u8]) {
        let counts = &self.counts;
        let fits = counts
            .queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |queued| {
                (queued + line.len() <= QUEUE_BYTES).then_some(queued + line.len())
            })
            .is_ok();
        let sent = fits
            && self
                .sender
                .as_ref()
                .is_some_and(|sender| sender.send(line.to_vec()).is_ok());
        if fits && !sent {
            counts.queued.fetch_sub(line.len(), Ordering::AcqRel);
        }
        if !sent {
            counts.dropped.fetch_add(1, Ordering::Relaxed);
            counts.unreported.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The one queue of the process, and its writing thread, started on first use.
fn sink() -> &'static Sink {
    static SINK: OnceLock<Sink> = OnceLock::new();
    SINK.get_or_init(|| {
        let counts = Arc::new(Counts::default());
        let (sender, receiver) = mpsc::channel();
        let writer_counts = Arc::clone(&counts);
        let started = std::thread::Builder::new()
            .name("stderr-log".into())
            .spawn(move || write_out(&receiver, &writer_counts));
        Sink {
            sender: started.is_ok().then_some(sender),
            counts,
        }
    })
}

/// Writes queued lines to stderr, each followed by the count of lines dropped before it.
fn write_out(receiver: &Receiver<Vec<u8>>, counts: &Counts) {
    let mut stderr = io::stderr();
    for line in receiver {
        // A failed write to stderr has nowhere left to be reported.
        let _ = stderr.write_all(&line);
        let lost = counts.unreported.swap(0, Ordering::Relaxed);
        if lost > 0 {
            let notice = format!(
                "WARN mcp_tool_runtime: {lost} log lines were dropped: stderr was not being read\n"
            );
            let _ = stderr.write_all(notice.as_bytes());
        }
        counts.queued.fetch_sub(line.len(), Ordering::AcqRel);
    }
}

//! The header timeout of a server's connections: one ticker for all of them.
//!
//! hyper can time a request head itself (`header_read_timeout`), but then, on every request,
//! it arms a timer and goes round its connection loop once more to poll it. At 32 connections
//! on two cores that cost 5 to 10% of a small call's server CPU (BENCHMARKS.md, P8), more
//! than its instructions show. Here a connection only notes when it starts and stops waiting
//! for a head, and one task per server looks every sixteenth of the timeout and stops the
//! tasks of those that waited too long, which closes them. Nothing is polled per request. A
//! connection is waiting from its accept, and again from the moment its last answer is
//! done; it is not while a request is being answered, however long the answer streams.
//! When the server stops (`Watchdog::stop`), the ticker ends and each connection is asked
//! to close.
//!
//! Time is counted in looks, not read from the clock: a connection notes how many looks
//! there have been when it starts to wait, and has waited at least as many intervals as
//! have passed since the next look. Reading the clock when each answer was done took 89 of
//! the 117 instructions of noting it (callgrind, P8), and on a machine whose clock source
//! is not the CPU's counter a clock read is a system call.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::task::AtomicWaker;
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;
use tokio::sync::Notify;
use tokio::task::AbortHandle;

use super::in_flight::Claim;

/// How often the ticker looks, at most and at least.
const SHORTEST_LOOK: Duration = Duration::from_millis(5);
const LONGEST_LOOK: Duration = Duration::from_millis(500);

/// Looks per timeout: as a connection is only known to have waited since the look after it
/// started, it is closed up to two intervals after its time is up, an eighth of it.
const LOOKS_PER_TIMEOUT: u32 = 16;

/// The connections of one server, and how long each may wait for a request head.
pub(super) struct Watchdog {
    /// How long the ticker sleeps between looks.
    every: Duration,
    /// How many intervals a connection may wait: the timeout, rounded up.
    patience: u64,
    /// The looks so far, which each connection reads when it starts to wait.
    looks: Arc<AtomicU64>,
    connections: Mutex<Vec<Weak<Watch>>>,
    /// Notified when the server stops: the ticker ends.
    stopped: Notify,
}

/// One connection's state: since when it has been waiting for a head, if it is.
pub(super) struct Watch {
    /// The watchdog's count of looks when the connection started to wait, plus one; 0
    /// while a request is answered.
    waiting_since: AtomicU64,
    /// The task that serves the connection: stopping it closes the connection.
    task: OnceLock<AbortHandle>,
    /// The watchdog's count of looks.
    looks: Arc<AtomicU64>,
    /// Set when the server stops: the connection closes once its answer is done.
    closing: AtomicBool,
    /// The task serving the connection, woken when `closing` is set.
    closer: AtomicWaker,
}

impl Watchdog {
    /// The watchdog of a server whose connections may wait `timeout` for a request head.
    pub(super) fn new(timeout: Duration) -> Arc<Self> {
        let every = (timeout / LOOKS_PER_TIMEOUT).clamp(SHORTEST_LOOK, LONGEST_LOOK);
        Arc::new(Self {
            every,
            patience: u64::try_from(timeout.as_nanos().div_ceil(every.as_nanos()))
                .unwrap_or(u64::MAX),
            looks: Arc::new(AtomicU64::new(0)),
            connections: Mutex::new(Vec::new()),
            stopped: Notify::new(),
        })
    }

    /// Watches a connection just accepted: it is waiting for its first head from now.
    pub(super) fn watch(&self) -> Arc<Watch> {
        let watch = Arc::new(Watch {
            waiting_since: AtomicU64::new(0),
            task: OnceLock::new(),
            looks: Arc::clone(&self.looks),
            closing: AtomicBool::new(false),
            closer: AtomicWaker::new(),
        });
        watch.idle();
        self.lock().push(Arc::downgrade(&watch));
        watch
    }

    /// Looks at the connections every sixteenth of the timeout (within 5 and 500 ms) until
    /// the server stops, closing each that waited past the timeout.
    pub(super) async fn run(self: Arc<Self>) {
        loop {
            tokio::select! {
                () = tokio::time::sleep(self.every) => self.look(),
                // `notify_one` keeps its permit for a ticker that is looking just then.
                () = self.stopped.notified() => return,
            }
        }
    }

    fn look(&self) {
        let looks = self.looks.fetch_add(1, Ordering::Relaxed) + 1;
        self.lock().retain(|watch| match watch.upgrade() {
            Some(watch) => {
                if watch.overdue(looks, self.patience)
                    && let Some(task) = watch.task.get()
                {
                    tracing::debug!("closed a connection that sent no request head in time");
                    task.abort();
                }
                true
            }
            None => false,
        });
    }

    /// The server stops: the ticker ends, and every open connection is asked to close once
    /// its answer in progress is done (an idle one closes at once).
    pub(super) fn stop(&self) {
        self.stopped.notify_one();
        for watch in self.lock().iter().filter_map(Weak::upgrade) {
            watch.closing.store(true, Ordering::Release);
            watch.closer.wake();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Weak<Watch>>> {
        self.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Watch {
    /// The task serving the connection, which the watchdog stops when it waits too long.
    pub(super) fn served_by(&self, task: AbortHandle) {
        let _ = self.task.set(task);
    }

    /// A request head arrived: the connection is busy until its answer is done.
    pub(super) fn busy(&self) {
        self.waiting_since.store(0, Ordering::Relaxed);
    }

    /// The connection waits for its next head from now.
    pub(super) fn idle(&self) {
        let looks = self.looks.load(Ordering::Relaxed);
        self.waiting_since.store(looks + 1, Ordering::Relaxed);
    }

    /// Whether the server asked the connection to close (`Watchdog::stop`); until it
    /// does, it wakes the task of `cx` when it does. A flag and a waker, looked at on each
    /// poll of the connection: with a `watch` channel polled beside it (`select!`), serving
    /// a connection around hyper's own work took 602 instructions of P8's stateless call and
    /// 904 of its stateful one; with this, 208 and 312 (callgrind).
    pub(super) fn close_asked(&self, cx: &Context<'_>) -> bool {
        if self.closing.load(Ordering::Acquire) {
            return true;
        }
        self.closer.register(cx.waker());
        // Asked between the look above and the registration, whose waker it did not find.
        self.closing.load(Ordering::Acquire)
    }

    /// Whether the connection, at the look numbered `looks`, has waited for a head for at
    /// least `patience` intervals. It started to wait before the look after the one it
    /// noted, and each interval since is at least the ticker's sleep: never too early.
    fn overdue(&self, looks: u64, patience: u64) -> bool {
        let since = self.waiting_since.load(Ordering::Relaxed);
        // `since` is the noted count plus one: the number of the next look.
        since != 0 && looks.saturating_sub(since) >= patience
    }
}

/// An answer's body that tells its connection's watch when it is done (sent to its end, or
/// dropped when the client went away).
pub(super) struct WatchedBody {
    inner: BoxBody<Bytes, std::convert::Infallible>,
    watch: Option<Arc<Watch>>,
    /// The claim of the request's id, released with the body. Held here rather than by a
    /// body of its own around `inner` (`release_when_sent`): that layer's allocation and
    /// its closure on each frame took about 200 instructions of P8's stateful call
    /// (callgrind, `serve_connection` inclusive: 90,941 then 90,743).
    _claim: Option<Claim>,
}

impl WatchedBody {
    pub(super) fn new(
        inner: BoxBody<Bytes, std::convert::Infallible>,
        watch: Arc<Watch>,
        claim: Option<Claim>,
    ) -> Self {
        Self {
            inner,
            watch: Some(watch),
            _claim: claim,
        }
    }

    fn done(&mut self) {
        if let Some(watch) = self.watch.take() {
            watch.idle();
        }
    }
}

impl Body for WatchedBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled {
            self.done();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for WatchedBody {
    fn drop(&mut self) {
        self.done();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_is_overdue_only_while_it_waits_its_looks() {
        let watchdog = Watchdog::new(Duration::from_millis(80));
        assert_eq!(watchdog.every, Duration::from_millis(5));
        assert_eq!(watchdog.patience, 16);
        let watch = watchdog.watch();
        let look = |times| {
            for _ in 0..times {
                watchdog.look();
            }
            watchdog.looks.load(Ordering::Relaxed)
        };
        // Noted before look 1: it has surely waited 16 intervals once look 17 is done.
        assert!(!watch.overdue(look(16), watchdog.patience));
        assert!(watch.overdue(look(1), watchdog.patience));
        watch.busy();
        assert!(
            !watch.overdue(look(100), watchdog.patience),
            "busy, however long"
        );
        watch.idle();
        assert!(
            !watch.overdue(look(16), watchdog.patience),
            "waiting again from now"
        );
        assert!(watch.overdue(look(1), watchdog.patience));
    }

    #[test]
    fn the_looks_take_a_sixteenth_of_the_timeout_within_their_bounds() {
        let looks = |millis| {
            let watchdog = Watchdog::new(Duration::from_millis(millis));
            (watchdog.every.as_millis(), watchdog.patience)
        };
        assert_eq!(looks(30_000), (500, 60), "twice a second at most");
        assert_eq!(looks(1_000), (62, 16), "62.5 ms each");
        assert_eq!(looks(100_000), (500, 200));
        assert_eq!(looks(22), (5, 5), "the timeout rounded up to whole looks");
        assert_eq!(looks(20), (5, 4), "every 5 ms at least");
        assert_eq!(looks(0), (5, 0));
    }

    #[test]
    fn an_answer_done_or_dropped_starts_the_wait() {
        let watchdog = Watchdog::new(Duration::from_secs(60));
        let watch = watchdog.watch();
        watch.busy();
        let body = WatchedBody::new(
            http_body_util::BodyExt::boxed(http_body_util::Full::new(Bytes::new())),
            Arc::clone(&watch),
            None,
        );
        assert_eq!(watch.waiting_since.load(Ordering::Relaxed), 0);
        drop(body);
        assert_ne!(watch.waiting_since.load(Ordering::Relaxed), 0);
    }

    #[tokio::test]
    async fn the_ticker_stops_an_overdue_connection_and_forgets_closed_ones() {
        let watchdog = Watchdog::new(Duration::from_millis(20));
        let ticker = tokio::spawn(Arc::clone(&watchdog).run());
        let watch = watchdog.watch();
        let served = tokio::spawn(std::future::pending::<()>());
        watch.served_by(served.abort_handle());
        drop(watchdog.watch());
        let stopped = tokio::time::timeout(Duration::from_secs(5), served).await;
        assert!(stopped.is_ok_and(|joined| joined.is_err_and(|error| error.is_cancelled())));
        let looks = watchdog.looks.load(Ordering::Relaxed);
        assert!(watch.overdue(looks, watchdog.patience));
        assert_eq!(
            watchdog.lock().len(),
            1,
            "the dropped connection is forgotten"
        );
        watchdog.stop();
        let stopped = tokio::time::timeout(Duration::from_secs(5), ticker).await;
        assert!(stopped.is_ok(), "the ticker did not stop");
    }
}

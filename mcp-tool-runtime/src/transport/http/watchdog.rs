//! The header timeout of a server's connections: one ticker for all of them.
//!
//! hyper can time a request head itself (`header_read_timeout`), but then, on every request,
//! it arms a timer and goes round its connection loop once more to poll it. At 32 connections
//! on two cores that cost 5 to 10% of a small call's server CPU (BENCHMARKS.md, P8), more
//! than its instructions show. Here a connection only notes when it starts and stops waiting
//! for a head, and one task per server looks every eighth of the timeout and stops the tasks
//! of those that waited too long, which closes them. Nothing is polled per request. A
//! connection is waiting from its accept, and again from the moment its last answer is
//! done; it is not while a request is being answered, however long the answer streams.
//! When the server stops (`Watchdog::stop`), the ticker ends and each connection is asked
//! to close.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::task::AtomicWaker;
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;
use tokio::sync::Notify;
use tokio::task::AbortHandle;

use super::in_flight::Claim;

/// How often the ticker looks, at most and at least.
const SHORTEST_LOOK: Duration = Duration::from_millis(10);
const LONGEST_LOOK: Duration = Duration::from_secs(1);

/// The connections of one server, and how long each may wait for a request head.
pub(super) struct Watchdog {
    timeout: Duration,
    epoch: Instant,
    connections: Mutex<Vec<Weak<Watch>>>,
    /// Notified when the server stops: the ticker ends.
    stopped: Notify,
}

/// One connection's state: since when it has been waiting for a head, if it is.
pub(super) struct Watch {
    /// Nanoseconds from the watchdog's epoch, plus one; 0 while a request is answered.
    waiting_since: AtomicU64,
    /// The task that serves the connection: stopping it closes the connection.
    task: OnceLock<AbortHandle>,
    /// The watchdog's epoch, from which `waiting_since` counts.
    epoch: Instant,
    /// Set when the server stops: the connection closes once its answer is done.
    closing: AtomicBool,
    /// The task serving the connection, woken when `closing` is set.
    closer: AtomicWaker,
}

impl Watchdog {
    /// The watchdog of a server whose connections may wait `timeout` for a request head.
    pub(super) fn new(timeout: Duration) -> Arc<Self> {
        Arc::new(Self {
            timeout,
            epoch: Instant::now(),
            connections: Mutex::new(Vec::new()),
            stopped: Notify::new(),
        })
    }

    /// Watches a connection just accepted: it is waiting for its first head from now.
    pub(super) fn watch(&self) -> Arc<Watch> {
        let watch = Arc::new(Watch {
            waiting_since: AtomicU64::new(0),
            task: OnceLock::new(),
            epoch: self.epoch,
            closing: AtomicBool::new(false),
            closer: AtomicWaker::new(),
        });
        watch.idle();
        self.lock().push(Arc::downgrade(&watch));
        watch
    }

    /// Looks at the connections every eighth of the timeout (within 10 ms and 1 s) until the
    /// server stops, closing each that waited past the timeout.
    pub(super) async fn run(self: Arc<Self>) {
        let every = (self.timeout / 8).clamp(SHORTEST_LOOK, LONGEST_LOOK);
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => self.look(),
                // `notify_one` keeps its permit for a ticker that is looking just then.
                () = self.stopped.notified() => return,
            }
        }
    }

    fn look(&self) {
        self.lock().retain(|watch| match watch.upgrade() {
            Some(watch) => {
                if watch.overdue(self.timeout)
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
        let since = u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX - 1);
        self.waiting_since.store(since + 1, Ordering::Relaxed);
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

    /// Whether the connection has waited for a head longer than `timeout`.
    fn overdue(&self, timeout: Duration) -> bool {
        let since = self.waiting_since.load(Ordering::Relaxed);
        since != 0 && self.epoch.elapsed() >= Duration::from_nanos(since - 1) + timeout
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
    fn a_connection_is_overdue_only_while_it_waits() {
        let timeout = Duration::from_millis(30);
        let watchdog = Watchdog::new(timeout);
        let watch = watchdog.watch();
        assert!(!watch.overdue(timeout));
        std::thread::sleep(Duration::from_millis(40));
        assert!(watch.overdue(timeout));
        watch.busy();
        assert!(!watch.overdue(timeout), "busy, however long");
        watch.idle();
        assert!(!watch.overdue(timeout), "waiting again from now");
        std::thread::sleep(Duration::from_millis(40));
        assert!(watch.overdue(timeout));
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
        assert!(watch.overdue(watchdog.timeout));
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

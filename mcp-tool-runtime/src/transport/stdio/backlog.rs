//! The output's backlog: answers queued for the writer and requests not yet answered. While
//! either is full, input stops being read, so a client that stops reading cannot make the
//! server queue without limit.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::RoleServer;
use rmcp::model::{ClientNotification, JsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use tokio::sync::{Notify, mpsc, oneshot};

/// How many bytes of answers may wait for the writer before input stops being read: a
/// client that stops reading its answers cannot make the server queue them without limit.
pub(super) const OUTPUT_BACKLOG_BYTES: usize = 1024 * 1024;

/// The output's sending side, its backlog, and the signal that its writer stopped.
pub(super) type Output = (
    mpsc::UnboundedSender<Vec<u8>>,
    Arc<Backlog>,
    oneshot::Receiver<()>,
);

/// How many requests may be read and not yet answered before input stops being read. rmcp
/// runs requests concurrently and, while input keeps coming, its answers wait in its own
/// queue, not in the output, so the output's bytes alone would not bound them.
pub(super) const REQUESTS_IN_FLIGHT: usize = 1024;

/// The bytes queued for the writer and not yet taken, the requests read and not yet
/// answered, and a wake-up for input waiting on either.
#[derive(Default)]
pub(super) struct Backlog {
    bytes: AtomicUsize,
    requests: AtomicUsize,
    drained: Notify,
}

impl Backlog {
    /// Counts a request handed to rmcp. A cancellation counts as an answer: rmcp may send
    /// none for the request it cancels, and a count that only grew would stop input for good.
    pub(super) fn delivered(&self, message: &RxJsonRpcMessage<RoleServer>) {
        match message {
            JsonRpcMessage::Request(_) => {
                self.requests.fetch_add(1, Ordering::AcqRel);
            }
            JsonRpcMessage::Notification(notification)
                if matches!(
                    notification.notification,
                    ClientNotification::CancelledNotification(_)
                ) =>
            {
                self.one_answered();
            }
            _ => {}
        }
    }

    /// Counts an answer going out.
    pub(super) fn answered(&self, message: &TxJsonRpcMessage<RoleServer>) {
        if matches!(
            message,
            JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_)
        ) {
            self.one_answered();
        }
    }

    pub(super) fn one_answered(&self) {
        // Saturating: an answer to a request counted as cancelled must not wrap the count.
        let _ = self
            .requests
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        self.drained.notify_one();
    }

    pub(super) fn add(&self, length: usize) {
        self.bytes.fetch_add(length, Ordering::AcqRel);
    }

    pub(super) fn take(&self, length: usize) {
        self.bytes.fetch_sub(length, Ordering::AcqRel);
        // A stored permit if nobody waits: the next `room` then looks again at once.
        self.drained.notify_one();
    }

    /// Resolves once the backlog is within its bounds. Cancel-safe.
    pub(super) async fn room(&self) {
        while self.bytes.load(Ordering::Acquire) > OUTPUT_BACKLOG_BYTES
            || self.requests.load(Ordering::Acquire) >= REQUESTS_IN_FLIGHT
        {
            self.drained.notified().await;
        }
    }
}

/// The writer's side of the output: each line taken out is taken off the backlog.
pub(super) struct Queue {
    receiver: mpsc::UnboundedReceiver<Vec<u8>>,
    backlog: Arc<Backlog>,
}

impl Queue {
    pub(super) fn new(receiver: mpsc::UnboundedReceiver<Vec<u8>>, backlog: &Arc<Backlog>) -> Self {
        Self {
            receiver,
            backlog: Arc::clone(backlog),
        }
    }

    pub(super) fn taken(&self, line: Option<Vec<u8>>) -> Option<Vec<u8>> {
        if let Some(line) = &line {
            self.backlog.take(line.len());
        }
        line
    }

    pub(super) async fn recv(&mut self) -> Option<Vec<u8>> {
        let line = self.receiver.recv().await;
        self.taken(line)
    }

    pub(super) fn blocking_recv(&mut self) -> Option<Vec<u8>> {
        let line = self.receiver.blocking_recv();
        self.taken(line)
    }

    pub(super) fn try_recv(&mut self) -> Option<Vec<u8>> {
        let line = self.receiver.try_recv().ok();
        self.taken(line)
    }
}

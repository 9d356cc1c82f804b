//! The clock of a connection's header-read timeout: one tokio timer per connection, not one
//! per request.
//!
//! hyper arms a fresh timer each time it waits for a request head and drops it once the head
//! is read. With tokio's timer that is a registration and a removal under the runtime's one
//! timer lock for every request: at 32 connections on two cores it cost about 5% of a small
//! call's throughput (BENCHMARKS.md, P8). Here the sleeps of a connection share one tokio
//! timer. A new sleep's deadline is always later than the one before, so the timer only moves
//! when it fires before the sleep waiting on it is due: about once per timeout period on a
//! busy connection.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

/// The timer of one connection, handed to hyper's `http1::Builder::timer`.
#[derive(Clone, Default)]
pub(super) struct ConnectionClock {
    timer: Arc<Mutex<Option<Pin<Box<Sleep>>>>>,
}

impl hyper::rt::Timer for ConnectionClock {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        self.sleep_until(self.now() + duration)
    }

    fn sleep_until(&self, deadline: std::time::Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(SharedSleep {
            deadline: Instant::from_std(deadline),
            timer: Arc::clone(&self.timer),
        })
    }

    fn reset(&self, sleep: &mut Pin<Box<dyn hyper::rt::Sleep>>, new_deadline: std::time::Instant) {
        match sleep.as_mut().downcast_mut_pin::<SharedSleep>() {
            Some(mut shared) => shared.deadline = Instant::from_std(new_deadline),
            None => *sleep = self.sleep_until(new_deadline),
        }
    }

    fn now(&self) -> std::time::Instant {
        // tokio's clock, so that a runtime with paused time moves this one too.
        Instant::now().into_std()
    }
}

/// One of hyper's sleeps: due at `deadline`, woken by the connection's shared timer.
struct SharedSleep {
    deadline: Instant,
    timer: Arc<Mutex<Option<Pin<Box<Sleep>>>>>,
}

impl hyper::rt::Sleep for SharedSleep {}

impl Future for SharedSleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let deadline = self.deadline;
        // The lock is the connection's own: one task polls it, so it is never contended.
        let mut timer = self.timer.lock().unwrap_or_else(PoisonError::into_inner);
        let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        loop {
            if Instant::now() >= deadline {
                return Poll::Ready(());
            }
            // Set for an earlier sleep, the timer wakes this one early, which then moves it:
            // cheaper than moving it for every sleep. Set for a later one, it would be late.
            if timer.is_elapsed() || timer.deadline() > deadline {
                timer.as_mut().reset(deadline);
            }
            if timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use hyper::rt::Timer;

    use super::*;

    fn due_in(clock: &ConnectionClock, millis: u64) -> Pin<Box<dyn hyper::rt::Sleep>> {
        clock.sleep(Duration::from_millis(millis))
    }

    #[tokio::test(start_paused = true)]
    async fn every_sleep_of_a_connection_ends_at_its_own_deadline() {
        let clock = ConnectionClock::default();
        let start = Instant::now();
        // An earlier sleep, polled once then dropped (a head that arrived), leaves the shared
        // timer set before the next sleep's deadline.
        let early = tokio::time::timeout(Duration::from_millis(1), due_in(&clock, 100)).await;
        assert!(early.is_err());
        due_in(&clock, 300).await;
        assert_eq!(start.elapsed(), Duration::from_millis(301));
        // A later sleep moves the fired timer forward.
        due_in(&clock, 50).await;
        assert_eq!(start.elapsed(), Duration::from_millis(351));
    }

    #[tokio::test(start_paused = true)]
    async fn a_reset_sleep_ends_at_its_new_deadline() {
        let clock = ConnectionClock::default();
        let start = Instant::now();
        let mut sleep = due_in(&clock, 500);
        // Polled once, it set the shared timer for 500 ms; the reset must bring that forward.
        let waited = tokio::time::timeout(Duration::from_millis(1), sleep.as_mut()).await;
        assert!(waited.is_err());
        clock.reset(&mut sleep, clock.now() + Duration::from_millis(20));
        sleep.await;
        assert_eq!(start.elapsed(), Duration::from_millis(21));
    }
}

//! The threads sync tools run on, and large inputs are checked on. Not tokio's blocking pool: a runtime waits for that pool when
//! it shuts down, so one stuck tool would keep a stdio server from exiting after its client
//! has gone. These threads are never waited for; they are reused while calls keep coming and
//! end after `IDLE_FOR` without work.

use std::any::Any;
use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, LazyLock, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::thread;
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, oneshot};

use crate::error::ToolError;

/// One sync tool's work, which never unwinds (the caller catches its panics).
type Job = Box<dyn FnOnce() + Send>;

/// How long a thread without work waits for the next before it ends.
const IDLE_FOR: Duration = Duration::from_secs(10);

struct Queue {
    jobs: VecDeque<Job>,
    /// Threads waiting for work. A job is queued only while there are more of them than
    /// queued jobs, so every job starts at once: a blocked tool never delays another.
    idle: usize,
}

static QUEUE: Mutex<Queue> = Mutex::new(Queue {
    jobs: VecDeque::new(),
    idle: 0,
});
static WORK_QUEUED: Condvar = Condvar::new();

/// A job's result, boxed so that the code that moves it between threads is compiled once, not
/// once per tool (issue 12's compile-time guard, P6).
pub(crate) type Erased = Box<dyn Any + Send>;

/// Work whose result is boxed.
pub(crate) type ErasedWork = Box<dyn FnOnce() -> Erased + Send>;

/// Runs a sync tool's `work` on a thread of the sync tools' pool, so that a tool that blocks
/// stalls no other call, even on a current-thread runtime. At the call's time limit the caller
/// stops waiting and answers `timeout`, but the thread runs on to the end (a thread cannot be
/// stopped from outside) and its result is dropped. A panic in `work` resumes here, where the
/// call's panic catching turns it into the call's masked error.
pub fn run_blocking<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> Blocking<R> {
    Blocking {
        erased: Box::pin(run_erased(Box::new(move || Box::new(work()) as Erased))),
        output: PhantomData,
    }
}

/// The answer of [`run_blocking`]'s work. A plain future over the erased hand-off rather than
/// an `async fn`, so that each type of work compiles a small `poll`, not a state machine and
/// its drop (about 270 lines of LLVM IR each, P6); the box costs one allocation on a hand-off
/// of microseconds.
pub struct Blocking<R> {
    erased: Pin<Box<dyn Future<Output = Result<Erased, ToolError>> + Send>>,
    output: PhantomData<fn() -> R>,
}

impl<R: 'static> Future for Blocking<R> {
    type Output = Result<R, ToolError>;

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Self::Output> {
        self.erased.as_mut().poll(context).map(unbox)
    }
}

/// How many heavy jobs run at once: half the cores, at least one.
static HEAVY_JOBS: LazyLock<Semaphore> = LazyLock::new(|| {
    let cores = thread::available_parallelism().map_or(1, usize::from);
    Semaphore::new(cores.div_ceil(2))
});

/// Runs `work` that keeps a core busy for a while (reading or checking a large input) like
/// [`run_blocking`], a few at a time: ten of them on ten threads would share the cores fairly
/// with the light calls and slow those tenfold.
#[cfg(feature = "http")]
pub(crate) async fn run_heavy<R: Send + 'static>(
    work: impl FnOnce() -> R + Send + 'static,
) -> Result<R, ToolError> {
    unbox(run_heavy_erased(Box::new(move || Box::new(work()) as Erased)).await)
}

/// `run_heavy` of work whose result is boxed.
pub(crate) async fn run_heavy_erased(work: ErasedWork) -> Result<Erased, ToolError> {
    // The semaphore is never closed; without a permit the work would merely run at once.
    let _turn = HEAVY_JOBS.acquire().await;
    run_erased(work).await
}

async fn run_erased(work: ErasedWork) -> Result<Erased, ToolError> {
    let _in_flight = InFlight::count();
    let (answer, answered) = oneshot::channel();
    start(Box::new(move || {
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(work));
        // Nobody waits for the answer once the call has passed its time limit.
        answer.send(outcome).ok();
    }))
    .map_err(ToolError::internal)?;
    match answer_soon(answered).await {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(payload)) => std::panic::resume_unwind(payload),
        Err(gone) => Err(ToolError::internal(gone)),
    }
}

/// The job's answer: looked for in a short spin first, since a job of microseconds answers
/// before a parked executor thread could be woken for it (see [`SPIN_FOR`]), unless the
/// cores have other calls to serve ([`spinning_pays`]); then awaited.
async fn answer_soon<T>(
    mut answered: oneshot::Receiver<T>,
) -> Result<T, oneshot::error::RecvError> {
    let started = Instant::now();
    let spin = if spinning_pays() {
        ANSWER_SPIN
    } else {
        Duration::ZERO
    };
    while started.elapsed() < spin {
        match answered.try_recv() {
            Ok(answer) => return Ok(answer),
            Err(oneshot::error::TryRecvError::Empty) => std::hint::spin_loop(),
            Err(oneshot::error::TryRecvError::Closed) => break,
        }
    }
    answered.await
}

/// How long a caller spins for a sync job's answer before it awaits it: the executor thread
/// is held this long at most, once per sync call.
const ANSWER_SPIN: Duration = Duration::from_micros(20);

/// The typed result of a job that returned an `R`.
pub(crate) fn unbox<R: 'static>(outcome: Result<Erased, ToolError>) -> Result<R, ToolError> {
    outcome?
        .downcast::<R>()
        .map(|output| *output)
        .map_err(|_| ToolError::internal(LostResult))
}

/// A job's result that was not of the type its caller put in: cannot happen, as each caller
/// boxes its own work's result.
#[derive(Debug)]
struct LostResult;

impl std::fmt::Display for LostResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sync job's result was not of the expected type")
    }
}

impl std::error::Error for LostResult {}

/// Starts `job` at once, on an idle thread or on a new one.
fn start(job: Job) -> io::Result<()> {
    let mut queue = lock();
    if queue.idle > queue.jobs.len() {
        queue.jobs.push_back(job);
        let queued = queue.jobs.len();
        QUEUED.store(queued, Ordering::SeqCst);
        drop(queue);
        // A spinning thread takes the job without being woken; one per queued job, so
        // that no job waits behind another.
        if SPINNING.load(Ordering::SeqCst) < queued {
            WORK_QUEUED.notify_one();
        }
        return Ok(());
    }
    drop(queue);
    thread::Builder::new()
        .name("mcp-tool sync".to_string())
        .spawn(move || {
            job();
            serve();
        })
        .map(drop)
}

/// Jobs in the queue, readable without its lock (by spinning threads).
static QUEUED: AtomicUsize = AtomicUsize::new(0);
/// Threads spinning for work, which a new job need not wake.
static SPINNING: AtomicUsize = AtomicUsize::new(0);

/// How long a thread that ran out of work spins before it sleeps. Waking a sleeping thread
/// takes tens of microseconds on a virtual machine whose other core is idle: a sync call
/// cost 51–98 times an async one there (57–87 µs, P1s). With this spin and the caller's
/// ([`ANSWER_SPIN`]), 3.1–3.2 times (about 2.7 µs); tokio's `spawn_blocking` took 28–44 µs
/// on the same machine.
const SPIN_FOR: Duration = Duration::from_micros(50);

/// Sync calls waiting for their answers: each counts from before its job starts until it
/// has the answer or is dropped.
static CALLS: AtomicUsize = AtomicUsize::new(0);

/// One sync call counted in [`CALLS`] for as long as it lives.
struct InFlight;

impl InFlight {
    fn count() -> Self {
        CALLS.fetch_add(1, Ordering::SeqCst);
        Self
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        CALLS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How many sync calls may be in flight for their threads to spin: a call spins two (its
/// caller and the thread that answers it), so half the cores, at least one.
static SPINNING_CALLS: LazyLock<usize> = LazyLock::new(|| {
    let cores = thread::available_parallelism().map_or(1, usize::from);
    (cores / 2).max(1)
});

/// Whether a thread may spin for a sync call: only while few enough are in flight that
/// the cores are otherwise idle. A spin saves a lone call the wake-up of a sleeping thread,
/// but beside other calls it takes the core they need: `search_items` (a sync tool) over
/// HTTP at 32 connections on 2 cores took 61 µs of server CPU a call with every thread
/// spinning, 47 µs with this rule and 45 µs without any spin; 1 connection, which spins as
/// before, answered in the same 0.05–0.07 ms (`HTTP_LOAD_TAGS=0`, `cpu_per_call.sh`).
fn spinning_pays() -> bool {
    CALLS.load(Ordering::SeqCst) <= *SPINNING_CALLS
}

/// Spins until a job is queued or [`SPIN_FOR`] has passed; true when one was seen. No spin
/// when it does not pay ([`spinning_pays`]), or enough threads spin already.
fn spin_for_work() -> bool {
    if !spinning_pays() || SPINNING.load(Ordering::SeqCst) >= *SPINNING_CALLS {
        return false;
    }
    SPINNING.fetch_add(1, Ordering::SeqCst);
    let started = Instant::now();
    let found = loop {
        if QUEUED.load(Ordering::SeqCst) > 0 {
            break true;
        }
        if started.elapsed() > SPIN_FOR {
            break false;
        }
        std::hint::spin_loop();
    };
    SPINNING.fetch_sub(1, Ordering::SeqCst);
    found
}

/// Runs queued jobs until none comes for `IDLE_FOR`.
fn serve() {
    let mut queue = lock();
    loop {
        if let Some(job) = queue.jobs.pop_front() {
            QUEUED.store(queue.jobs.len(), Ordering::SeqCst);
            drop(queue);
            job();
            queue = lock();
            continue;
        }
        queue.idle += 1;
        drop(queue);
        let found = spin_for_work();
        queue = lock();
        if !found || queue.jobs.is_empty() {
            // Checked under the lock: a job queued after the spin is seen here or wakes
            // this wait, as `start` notifies when no spinner is left for it.
            let (woken, wait) = WORK_QUEUED
                .wait_timeout_while(queue, IDLE_FOR, |queue| queue.jobs.is_empty())
                .unwrap_or_else(PoisonError::into_inner);
            queue = woken;
            if wait.timed_out() && queue.jobs.is_empty() {
                queue.idle -= 1;
                return;
            }
        }
        queue.idle -= 1;
    }
}

/// The queue; no code panics while holding it, so a poisoned lock is still consistent.
fn lock() -> MutexGuard<'static, Queue> {
    QUEUE.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::channel;
    use std::time::Instant;

    use super::*;

    /// Other tests may count calls of their own, which only adds to these.
    #[test]
    fn threads_do_not_spin_beside_other_sync_calls() {
        let calls: Vec<InFlight> = (0..=*SPINNING_CALLS).map(|_| InFlight::count()).collect();
        assert!(!spinning_pays());
        assert!(!spin_for_work(), "a pool thread spun beside other calls");
        drop(calls);
    }

    /// Every job waits until all have started: one queued behind another would never see that.
    #[test]
    fn every_job_starts_at_once_even_when_all_of_them_block() {
        const JOBS: usize = 24;
        let started = Arc::new(AtomicUsize::new(0));
        let (done, results) = channel();
        for round in 0..2 {
            for _ in 0..JOBS {
                let started = Arc::clone(&started);
                let done = done.clone();
                let job = move || {
                    started.fetch_add(1, Ordering::SeqCst);
                    let deadline = Instant::now() + Duration::from_secs(5);
                    while started.load(Ordering::SeqCst) < JOBS * (round + 1) {
                        if Instant::now() > deadline {
                            done.send(false).ok();
                            return;
                        }
                        thread::sleep(Duration::from_millis(1));
                    }
                    done.send(true).ok();
                };
                assert!(start(Box::new(job)).is_ok());
            }
            // The second round runs on the threads the first one left idle, and more.
            let all_ran_together = (0..JOBS).all(|_| results.recv() == Ok(true));
            assert!(all_ran_together, "round {round}: a job waited for another");
        }
    }
}

//! The client retry helper (`call_with_retry`, feature `client`) against the real
//! `inventory` binary, whose `reserve_stock` allows 5 calls per window. The window is cut to
//! 2 s with `--reservation-window-ms` so that the test need not wait a minute.

use std::process::Stdio;
use std::time::{Duration, Instant};

use mcp_tool_runtime::client::{RetryError, RetryPolicy, call_with_retry};
use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::json;
use tokio::process::Command;

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

async fn connect() -> RunningService<RoleClient, ()> {
    connect_with(ClientLifecycleMode::Initialize).await
}

/// A client of `lifecycle`: `initialize` (2025-11-25) or `server/discover` (2026-07-28).
async fn connect_with(lifecycle: ClientLifecycleMode) -> RunningService<RoleClient, ()> {
    let mut command = Command::new(INVENTORY);
    command
        .args(["--reservation-window-ms", "2000"])
        .env("RUST_LOG", "warn");
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start inventory");
    ().serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("MCP handshake")
}

fn reserve() -> Option<serde_json::Value> {
    Some(json!({"sku": "ABC-0003", "quantity": 1}))
}

#[tokio::test]
async fn a_rate_limited_call_is_retried_after_retry_after_and_succeeds() {
    retried_after_retry_after(connect().await).await;
}

#[tokio::test]
async fn a_2026_client_is_retried_the_same_way() {
    let modern = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    retried_after_retry_after(connect_with(modern).await).await;
}

async fn retried_after_retry_after(client: RunningService<RoleClient, ()>) {
    let policy = RetryPolicy::default();
    for _ in 0..5 {
        let result = call_with_retry(client.peer(), "reserve_stock", reserve(), &policy)
            .await
            .expect("within the limit");
        assert_eq!(result.is_error, Some(false));
    }
    let started = Instant::now();
    let result = call_with_retry(client.peer(), "reserve_stock", reserve(), &policy)
        .await
        .expect("succeeds once the window has passed");
    let waited = started.elapsed();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        result.structured_content,
        Some(json!({"sku": "ABC-0003", "reserved": 1, "remaining_stock": 94}))
    );
    // retryAfter is whole seconds (1 or 2 here): the helper waited for it.
    assert!(
        waited >= Duration::from_secs(1) && waited < Duration::from_secs(10),
        "waited {waited:?}"
    );
    let _ = client.cancel().await;
}

#[tokio::test]
async fn retries_stop_at_the_attempt_cap_with_the_typed_envelope() {
    let client = connect().await;
    let single = RetryPolicy {
        max_attempts: 1,
        ..RetryPolicy::default()
    };
    for _ in 0..5 {
        call_with_retry(client.peer(), "reserve_stock", reserve(), &single)
            .await
            .expect("within the limit");
    }
    let started = Instant::now();
    let error = call_with_retry(client.peer(), "reserve_stock", reserve(), &single)
        .await
        .expect_err("rate limited");
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "no wait at the cap"
    );
    let RetryError::GaveUp {
        envelope, attempts, ..
    } = &error
    else {
        panic!("expected GaveUp, got {error:?}");
    };
    assert_eq!(*attempts, 1);
    assert_eq!(envelope.code, "rate_limited");
    assert_eq!(envelope.class, "system");
    assert!(envelope.retryable);
    assert!(matches!(envelope.retry_after, Some(1 | 2)), "{envelope:?}");
    assert_eq!(
        envelope.error,
        "reserve_stock allows 5 calls per 2 seconds."
    );
    let _ = client.cancel().await;
}

#[tokio::test]
async fn non_retryable_errors_return_at_once() {
    let client = connect().await;
    let started = Instant::now();
    let error = call_with_retry(
        client.peer(),
        "reserve_stock",
        Some(json!({"sku": "ZZZ-9999", "quantity": 1})),
        &RetryPolicy::default(),
    )
    .await
    .expect_err("unknown SKU");
    assert!(started.elapsed() < Duration::from_millis(900));
    let RetryError::Failed {
        envelope: Some(envelope),
        attempts: 1,
        ..
    } = &error
    else {
        panic!("expected Failed after one attempt, got {error:?}");
    };
    assert_eq!(envelope.code, "not_found");
    assert!(!envelope.retryable);
    assert_eq!(
        envelope.hint.as_deref(),
        Some("Use search_items to find valid SKUs.")
    );

    let error = call_with_retry(
        client.peer(),
        "reserve_stok",
        reserve(),
        &RetryPolicy::default(),
    )
    .await
    .expect_err("unknown tool");
    assert!(matches!(error, RetryError::Protocol(_)), "{error:?}");
    assert!(error.envelope().is_none());
    let _ = client.cancel().await;
}

//! The signals that ask a server to stop: SIGTERM (service managers, `kill`) and SIGINT
//! (Ctrl-C). Serving stops taking new work on either and answers what it already took.

/// Resolves on the first SIGTERM or SIGINT. A handler that cannot be installed is logged and
/// never resolves: the server then serves as if no signal were ever sent (the signal's
/// default action still ends it).
pub(crate) async fn signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!(%error, "cannot watch for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT: shutting down"),
        () = terminate() => tracing::info!("SIGTERM: shutting down"),
    }
}

#[cfg(unix)]
async fn terminate() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut stream) => {
            stream.recv().await;
        }
        Err(error) => {
            tracing::warn!(%error, "cannot watch for SIGTERM");
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(not(unix))]
async fn terminate() {
    std::future::pending::<()>().await;
}

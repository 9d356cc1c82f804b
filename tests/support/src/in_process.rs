//! A server built in the test's own process, served over real HTTP on 127.0.0.1 from a
//! thread and a runtime of its own: for tests whose server is Rust code of the test rather
//! than a binary (feature `serve`).

use mcp_tool_runtime::{HttpOptions, McpServer};
use tokio::sync::oneshot;

/// Serves the server `build` makes with `options` on 127.0.0.1 until the returned sender is
/// dropped, and gives its address. `build` runs in the server's runtime once the port is
/// bound.
pub fn serve_http<S: Send + Sync + 'static>(
    options: HttpOptions,
    build: impl FnOnce() -> McpServer<S> + Send + 'static,
) -> (String, oneshot::Sender<()>) {
    let (stop, stopped) = oneshot::channel::<()>();
    let (bound, addr) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            bound
                .send(listener.local_addr().expect("an address").to_string())
                .expect("the test waits");
            let server = build();
            let shutdown = async {
                let _ = stopped.await;
            };
            let _ = server.serve_http_until(listener, options, shutdown).await;
        });
    });
    (addr.recv().expect("the server's address"), stop)
}

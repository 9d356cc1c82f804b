use mcp_tool_runtime::mcp_tool;

/// Ping the server.
#[mcp_tool(name = "")]
fn ping() -> &'static str {
    "pong"
}

/// Report the server's uptime.
#[mcp_tool(
    name = "report_the_uptime_of_the_server_in_seconds_since_it_was_started_including_the_time_spent_waiting_for_the_first_client_to_connect_to_it"
)]
fn uptime() -> String {
    "42".to_string()
}

fn main() {}

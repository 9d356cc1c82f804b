//! Sentences of the built-in middleware: a rate limit and a concurrency limit reached.

use std::time::Duration;

use super::phrases::duration;

/// The message of a `rate_limited` answer: whose calls are counted, and the rate. The
/// envelope's `retryAfter` and the text's last line say when to retry.
pub(crate) fn rate_limited(
    tool: Option<&str>,
    per_caller: bool,
    calls: u32,
    per: Duration,
) -> String {
    let plural = if calls == 1 { "call" } else { "calls" };
    let rate = format!("{calls} {plural} per {}", duration(per));
    match (tool, per_caller) {
        (Some(tool), false) => format!("Too many calls to tool '{tool}': it allows {rate}."),
        (Some(tool), true) => {
            format!(
                "Too many calls to tool '{tool}' from this caller: it allows {rate} per caller."
            )
        }
        (None, false) => format!("Too many tool calls to this server: it allows {rate}."),
        (None, true) => {
            format!("Too many tool calls from this caller: this server allows {rate} per caller.")
        }
    }
}

/// The message of an `at_capacity` answer: how many calls already run.
pub(crate) fn at_capacity(tool: Option<&str>, limit: usize) -> String {
    let plural = if limit == 1 { "call" } else { "calls" };
    match tool {
        Some(tool) => {
            format!("Tool '{tool}' is already running {limit} {plural}, its limit at one time.")
        }
        None => {
            format!("This server is already running {limit} tool {plural}, its limit at one time.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_say_whose_calls_count_and_the_rate() {
        let minute = Duration::from_secs(60);
        assert_eq!(
            rate_limited(Some("reserve_stock"), false, 5, minute),
            "Too many calls to tool 'reserve_stock': it allows 5 calls per 60 s."
        );
        assert_eq!(
            rate_limited(Some("reserve_stock"), true, 1, Duration::from_millis(500)),
            "Too many calls to tool 'reserve_stock' from this caller: it allows 1 call per \
             500 ms per caller."
        );
        assert_eq!(
            rate_limited(None, true, 100, minute),
            "Too many tool calls from this caller: this server allows 100 calls per 60 s per caller."
        );
        assert_eq!(
            at_capacity(Some("export"), 1),
            "Tool 'export' is already running 1 call, its limit at one time."
        );
        assert_eq!(
            at_capacity(None, 8),
            "This server is already running 8 tool calls, its limit at one time."
        );
    }
}

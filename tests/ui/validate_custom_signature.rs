//! Custom validators of the wrong signature: reported at the function's name in
//! `custom(function = ...)`, with the signature `validator` calls.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_runtime::validator::ValidationError;

fn weekday(day: &str) -> bool {
    day != "sunday"
}

fn positive(amount: &i64) -> Result<(), ValidationError> {
    if *amount > 0 {
        Ok(())
    } else {
        Err(ValidationError::new("positive"))
    }
}

/// Book a delivery day.
#[mcp_tool]
fn book(#[validate(custom(function = weekday))] day: String) -> String {
    day
}

/// Refund an amount.
#[mcp_tool]
fn refund(#[validate(custom(function = positive))] amount: i64) -> String {
    amount.to_string()
}

fn main() {}

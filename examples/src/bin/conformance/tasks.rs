//! The fixtures of the conformance suite's tasks scenarios (the tasks extension of
//! 2026-07-28, SEP-2663): plain `#[mcp_tool]`s that declare task support. A client that
//! declared the extension gets a task and polls it; any other gets a plain call.

use std::time::Duration;

use mcp_tool_runtime::{
    Elicitation, ErrorCode, ToolContext, ToolError, error::ErrorClass, mcp_tool,
};
use schemars::JsonSchema;
use serde::Deserialize;

/// Greet someone by name (never a task).
///
/// # Arguments
/// * `name` - Who to greet.
#[mcp_tool(read_only)]
pub fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Sleeps `seconds` unless the call is cancelled first: `true` when it was.
async fn sleep_or_cancel(ctx: &ToolContext, seconds: f64) -> bool {
    tokio::select! {
        () = ctx.cancelled() => true,
        () = tokio::time::sleep(Duration::from_secs_f64(seconds)) => false,
    }
}

/// Compute for `seconds` seconds, then answer (a task when the client takes tasks).
///
/// # Arguments
/// * `seconds` - How long the computation takes.
/// * `label` - A label echoed in the result.
#[mcp_tool(read_only, task = "optional")]
pub async fn slow_compute(
    #[validate(range(min = 0.0, max = 600.0))] seconds: f64,
    label: Option<String>,
    ctx: ToolContext,
) -> Result<String, ToolError> {
    ctx.progress(0.0, Some(1.0), Some("computing")).await?;
    if sleep_or_cancel(&ctx, seconds).await {
        return Err(ToolError::cancelled());
    }
    let label = label.unwrap_or_else(|| "computation".into());
    Ok(format!("{label}: done after {seconds} s"))
}

const JOB_FAILED: ErrorCode = ErrorCode::custom("job_failed", ErrorClass::Dependency, false);

/// Run a job that fails after about a second, as a tool error (only as a task).
#[mcp_tool(task = "required")]
pub async fn failing_job(ctx: ToolContext) -> Result<String, ToolError> {
    if sleep_or_cancel(&ctx, 1.0).await {
        return Err(ToolError::cancelled());
    }
    Err(ToolError::new(
        JOB_FAILED,
        "The job failed: the input file is empty.",
    ))
}

/// Run a job that fails inside the server (a panic), which the client sees masked.
#[mcp_tool(task = "optional")]
pub async fn protocol_error_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    panic!("the job's worker crashed");
}

/// The form of a confirmation.
#[derive(Deserialize, JsonSchema)]
pub struct Confirm {
    confirm: bool,
}

/// Delete a file after the user confirms (a task that waits for the answer).
///
/// # Arguments
/// * `filename` - The file to delete.
#[mcp_tool(destructive, task = "optional")]
pub async fn confirm_delete(filename: String, ctx: ToolContext) -> Result<String, ToolError> {
    let question = format!("Delete {filename}?");
    match ctx.elicit::<Confirm>(question).await? {
        Elicitation::Accepted(Confirm { confirm: true }) => Ok(format!("Deleted {filename}.")),
        _ => Ok(format!("Kept {filename}.")),
    }
}

/// The form of the questions of `multi_input`.
#[derive(Deserialize, JsonSchema)]
pub struct Entry {
    name: Option<String>,
    confirm: Option<bool>,
}

fn entry_text(answer: Elicitation<Entry>) -> String {
    match answer {
        Elicitation::Accepted(entry) => format!(
            "{} ({})",
            entry.name.unwrap_or_default(),
            if entry.confirm == Some(true) {
                "confirmed"
            } else {
                "unconfirmed"
            }
        ),
        _ => "no answer".into(),
    }
}

/// Ask two questions at once, and answer when both are answered.
#[mcp_tool(task = "optional")]
pub async fn multi_input(ctx: ToolContext) -> Result<String, ToolError> {
    let (first, second) = tokio::join!(
        ctx.input("first").elicit::<Entry>("The first entry?"),
        ctx.input("second").elicit::<Entry>("The second entry?"),
    );
    Ok(format!(
        "{} and {}",
        entry_text(first?),
        entry_text(second?)
    ))
}

/// The form of a question for a name.
#[derive(Deserialize, JsonSchema)]
pub struct UserName {
    name: String,
}

/// Ask the user's name (a 2026-07-28 round), then greet them from a task.
#[mcp_tool(task = "required", task_start = "explicit")]
pub async fn test_tool_with_task(ctx: ToolContext) -> Result<String, ToolError> {
    let answer = ctx
        .input("user_name")
        .elicit::<UserName>("What is your name?")
        .await?;
    let name = answer
        .accepted()
        .map_or_else(|| "stranger".into(), |a| a.name);
    ctx.start_task().await?;
    if sleep_or_cancel(&ctx, 0.5).await {
        return Err(ToolError::cancelled());
    }
    Ok(format!("Hello, {name}, from a task!"))
}

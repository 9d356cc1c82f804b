//! The tools of the conformance suite's multi-round-trip scenarios (protocol 2026-07-28,
//! SEP-2322), and the probes of its stateless scenario. Each asks through `ToolContext` as
//! any tool would: on a 2026-07-28 call the question ends the round with an
//! `InputRequiredResult` under the key given to `ctx.input(..)`, on older revisions it is a
//! request to the client.

use mcp_tool_runtime::rmcp::model::{CreateMessageRequestParams, SamplingMessage};
use mcp_tool_runtime::{Elicitation, ToolContext, ToolError, mcp_tool, tool::ContextError};
use schemars::JsonSchema;
use serde::Deserialize;

/// The form of a question for a name.
#[derive(Deserialize, JsonSchema)]
pub struct Name {
    name: String,
}

/// The form of a confirmation.
#[derive(Deserialize, JsonSchema)]
pub struct Confirmation {
    ok: bool,
}

/// The form of a question for a colour.
#[derive(Deserialize, JsonSchema)]
pub struct Colour {
    color: String,
}

/// Asks under the key `confirm` whether the user confirms.
async fn confirm(ctx: &ToolContext) -> Result<bool, ContextError> {
    let answer = ctx
        .input("confirm")
        .elicit::<Confirmation>("Please confirm")
        .await?;
    Ok(answer.accepted().is_some_and(|answer| answer.ok))
}

fn name_of(answer: Elicitation<Name>) -> String {
    answer
        .accepted()
        .map_or_else(|| "stranger".into(), |answer| answer.name)
}

/// A sampling request of one user message.
fn sampling(text: &str, max_tokens: u32) -> CreateMessageRequestParams {
    CreateMessageRequestParams::new(vec![SamplingMessage::user_text(text)], max_tokens)
}

/// The first text of a sampled message.
fn sampled_text(result: &mcp_tool_runtime::rmcp::model::CreateMessageResult) -> String {
    result
        .message
        .content
        .first()
        .and_then(|block| block.as_text())
        .map(|text| text.text.clone())
        .unwrap_or_default()
}

/// Greet the user by the name they give.
#[mcp_tool]
pub async fn test_input_required_result_elicitation(ctx: ToolContext) -> Result<String, ToolError> {
    let answer = ctx
        .input("user_name")
        .elicit::<Name>("What is your name?")
        .await?;
    Ok(format!("Hello, {}!", name_of(answer)))
}

/// Ask the model for the capital of France.
#[mcp_tool]
pub async fn test_input_required_result_sampling(ctx: ToolContext) -> Result<String, ToolError> {
    let question = sampling("What is the capital of France?", 100);
    let answer = ctx.input("capital_question").sample(question).await?;
    Ok(format!("The model answered: {}", sampled_text(&answer)))
}

/// List the client's roots.
#[mcp_tool]
pub async fn test_input_required_result_list_roots(ctx: ToolContext) -> Result<String, ToolError> {
    let roots = ctx.input("client_roots").roots().await?;
    let uris: Vec<&str> = roots.roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(format!("The client's roots: {}", uris.join(", ")))
}

/// Ask for a confirmation; the answer comes back with the sealed request state.
#[mcp_tool]
pub async fn test_input_required_result_request_state(
    ctx: ToolContext,
) -> Result<String, ToolError> {
    Ok(format!("state-ok: confirmed={}", confirm(&ctx).await?))
}

/// Ask for a name, a greeting from the model and the client's roots, all in one round.
#[mcp_tool]
pub async fn test_input_required_result_multiple_inputs(
    ctx: ToolContext,
) -> Result<String, ToolError> {
    let (name, greeting, roots) = tokio::join!(
        ctx.input("user_name").elicit::<Name>("What is your name?"),
        ctx.input("greeting")
            .sample(sampling("Generate a greeting", 50)),
        ctx.input("client_roots").roots(),
    );
    let (name, greeting, roots) = (name?, greeting?, roots?);
    Ok(format!(
        "{} {}! ({} roots)",
        sampled_text(&greeting),
        name_of(name),
        roots.roots.len()
    ))
}

/// Ask for a name, then for a favourite colour, in two rounds.
#[mcp_tool]
pub async fn test_input_required_result_multi_round(ctx: ToolContext) -> Result<String, ToolError> {
    let name = ctx
        .input("step1")
        .elicit::<Name>("Step 1: What is your name?")
        .await?;
    let colour = ctx
        .input("step2")
        .elicit::<Colour>("Step 2: What is your favorite color?")
        .await?;
    let colour = colour
        .accepted()
        .map_or_else(String::new, |answer| answer.color);
    Ok(format!("{} likes {colour}.", name_of(name)))
}

/// Ask for a confirmation; a retry with an altered request state is refused.
#[mcp_tool]
pub async fn test_input_required_result_tampered_state(
    ctx: ToolContext,
) -> Result<String, ToolError> {
    Ok(format!("confirmed={}", confirm(&ctx).await?))
}

/// Ask the model something: a client that did not declare sampling gets -32021 on
/// 2026-07-28.
#[mcp_tool]
pub async fn test_missing_capability(ctx: ToolContext) -> Result<String, ToolError> {
    let answer = ctx.sample(sampling("Say hello.", 20)).await?;
    Ok(sampled_text(&answer))
}

/// Ask the user for a name; on 2026-07-28 the question is an `InputRequiredResult`, never a
/// request on the response stream.
#[mcp_tool]
pub async fn test_streaming_elicitation(ctx: ToolContext) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Name>("What is your name?").await?;
    Ok(format!("Hello, {}!", name_of(answer)))
}

/// Log three messages (info, warning, error); a 2026-07-28 request gets them only when its
/// `_meta` names a log level.
#[mcp_tool]
pub async fn test_logging_tool(ctx: ToolContext) -> Result<String, ToolError> {
    ctx.info("first log message").await?;
    ctx.warning("second log message").await?;
    ctx.error("third log message").await?;
    Ok("Logged three messages.".into())
}

/// Ask the model for a greeting and, where the client can ask its user, for their name: a
/// client without elicitation gets only the sampling question.
#[mcp_tool]
pub async fn test_input_required_result_capabilities(
    ctx: ToolContext,
) -> Result<String, ToolError> {
    let (name, greeting) = tokio::join!(
        ctx.input("user_name").elicit::<Name>("What is your name?"),
        ctx.input("greeting")
            .sample(sampling("Generate a greeting", 50)),
    );
    let greeting = greeting?;
    let name = match name {
        Ok(answer) => name_of(answer),
        Err(ContextError::NotDeclared(_)) => "friend".into(),
        Err(other) => return Err(other.into()),
    };
    Ok(format!("{} {name}!", sampled_text(&greeting)))
}

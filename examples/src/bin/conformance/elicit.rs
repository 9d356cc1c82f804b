//! The elicitation tools the conformance suite calls, each asking for a typed form with
//! `ToolContext::elicit`, and one URL-mode elicitation.

use mcp_tool_runtime::{Elicitation, ToolContext, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// "Elicitation completed: action=accept, content={...}", as the suite reads it.
fn completed<T: Serialize>(answer: Elicitation<T>) -> Result<String, ToolError> {
    let (action, content) = match answer {
        Elicitation::Accepted(content) => ("accept", serde_json::to_value(content)?),
        Elicitation::Declined => ("decline", serde_json::json!({})),
        Elicitation::Cancelled => ("cancel", serde_json::json!({})),
    };
    Ok(format!(
        "Elicitation completed: action={action}, content={content}"
    ))
}

/// The form of `test_elicitation`.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Contact {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Ask the user for a username and an email address (elicitation).
///
/// # Arguments
/// * `message` - What to tell the user.
#[mcp_tool]
pub async fn test_elicitation(message: String, ctx: ToolContext) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Contact>(message).await?;
    let (action, content) = match answer {
        Elicitation::Accepted(contact) => ("accept", serde_json::to_value(contact)?),
        Elicitation::Declined => ("decline", serde_json::Value::Null),
        Elicitation::Cancelled => ("cancel", serde_json::Value::Null),
    };
    Ok(format!("User response: action={action}, content={content}"))
}

/// An account's status.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Inactive,
    Pending,
}

/// A form whose every field has a default (SEP-1034).
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Defaults {
    #[serde(default = "defaults::name")]
    name: String,
    #[serde(default = "defaults::age")]
    age: u32,
    #[serde(default = "defaults::score")]
    score: f64,
    #[serde(default = "defaults::status")]
    status: Status,
    #[serde(default = "defaults::verified")]
    verified: bool,
}

mod defaults {
    pub fn name() -> String {
        "John Doe".into()
    }
    pub fn age() -> u32 {
        30
    }
    pub fn score() -> f64 {
        95.5
    }
    pub fn status() -> super::Status {
        super::Status::Active
    }
    pub fn verified() -> bool {
        true
    }
}

/// Ask for a form whose fields all have defaults (SEP-1034).
#[mcp_tool]
pub async fn test_elicitation_sep1034_defaults(ctx: ToolContext) -> Result<String, ToolError> {
    completed(
        ctx.elicit::<Defaults>("Please review the defaults.")
            .await?,
    )
}

/// Choices without titles: a plain `enum`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// Choices with titles, for a single select: `oneOf` of `const` and `title`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TitledSingle {
    #[schemars(title = "First Option")]
    Value1,
    #[schemars(title = "Second Option")]
    Value2,
    #[schemars(title = "Third Option")]
    Value3,
}

/// Choices with titles, for a multi-select: `anyOf` of `const` and `title` in its items.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TitledMulti {
    #[schemars(title = "First Choice")]
    Value1,
    #[schemars(title = "Second Choice")]
    Value2,
    #[schemars(title = "Third Choice")]
    Value3,
}

/// Choices titled the legacy way, with `enumNames` beside the `enum`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
pub enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

/// A form with every kind of choice (SEP-1330).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Choices {
    untitled_single: Untitled,
    titled_single: TitledSingle,
    legacy_enum: Legacy,
    untitled_multi: Vec<Untitled>,
    titled_multi: Vec<TitledMulti>,
}

/// Ask for a form with single- and multi-select choices, titled and not (SEP-1330).
#[mcp_tool]
pub async fn test_elicitation_sep1330_enums(ctx: ToolContext) -> Result<String, ToolError> {
    completed(ctx.elicit::<Choices>("Please choose.").await?)
}

/// Ask the user to open a URL (URL-mode elicitation), and report that the interaction
/// behind it completed.
///
/// # Arguments
/// * `url` - Where to send the user.
#[mcp_tool]
pub async fn test_elicitation_url(url: String, ctx: ToolContext) -> Result<String, ToolError> {
    let id = "conformance-url-1";
    match ctx.elicit_url("Please sign in.", &url, id).await? {
        Elicitation::Accepted(()) => {
            ctx.elicitation_complete(id).await?;
            Ok(format!("The user opened {url}."))
        }
        Elicitation::Declined => Ok("The user declined to open the URL.".into()),
        Elicitation::Cancelled => Ok("The user dismissed the URL.".into()),
    }
}

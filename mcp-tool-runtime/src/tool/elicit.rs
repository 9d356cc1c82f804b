//! Asking the user through the client (elicitation): a typed form, or a URL to visit out of
//! band.

use rmcp::model::{
    CustomNotification, ElicitRequestParams, ElicitResult, ElicitationAction, ServerNotification,
};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::asking::Question;
use super::context::ToolContext;
use super::context_error::ContextError;
use crate::schema::elicitation_form;

/// The user's answer to a question a tool asked through the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user answered: the form's content, or `()` for a URL they agreed to open.
    Accepted(T),
    /// The user explicitly refused.
    Declined,
    /// The user dismissed the question without choosing (or the client answered with an
    /// action this version does not know).
    Cancelled,
}

impl<T> Elicitation<T> {
    /// The answer, if the user gave one.
    pub fn accepted(self) -> Option<T> {
        match self {
            Self::Accepted(value) => Some(value),
            Self::Declined | Self::Cancelled => None,
        }
    }
}

/// The method of the notification that ends a URL-mode elicitation (spec 2025-11-25).
const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

impl ToolContext {
    /// Asks the user to fill in a form shaped like `T` (form-mode elicitation) and returns
    /// their answer as a `T`.
    ///
    /// The form is `T`'s JSON Schema in the spec's subset: a struct whose fields are
    /// strings (with `format` email, uri, date or date-time), numbers, integers, booleans,
    /// unit enums (choices: titled when the variants have a doc comment or
    /// `#[schemars(title = "...")]`) and `Vec`s of unit enums (multi-select). Defaults
    /// (`#[serde(default = "...")]`) are shown in the form. `Option` fields are optional.
    ///
    /// ```
    /// use mcp_tool_runtime::{Elicitation, ToolContext, ToolError, mcp_tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Shipping {
    ///     /// Where to send the parcel.
    ///     address: String,
    ///     express: bool,
    /// }
    ///
    /// /// Place an order, asking the user where to ship it.
    /// #[mcp_tool]
    /// async fn order(sku: String, ctx: ToolContext) -> Result<String, ToolError> {
    ///     match ctx.elicit::<Shipping>("Where should we ship it?").await? {
    ///         Elicitation::Accepted(shipping) => Ok(format!("{sku} ships to {}.", shipping.address)),
    ///         Elicitation::Declined | Elicitation::Cancelled => Ok("Order not placed.".into()),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // In-process, there is nobody to ask: the model reads why.
    /// let server = mcp_tool_runtime::McpServer::builder(()).tool(order_tool()).build()?;
    /// let result = server.call("order", Some(serde_json::json!({"sku": "ABC-0001"}))).await?;
    /// assert_eq!(result.is_error, Some(true));
    /// assert!(format!("{:?}", result.content)
    ///     .contains("This call has no client, so the tool cannot ask the user for input."));
    /// # Ok(()) }
    /// ```
    ///
    /// Errors: [`ContextError::Detached`] for an in-process call,
    /// [`ContextError::NotDeclared`] when the client did not declare form elicitation,
    /// [`ContextError::Form`] when `T` cannot be a form, [`ContextError::Answer`] when the
    /// accepted content does not deserialize into `T`, [`ContextError::Client`] when the
    /// request fails, [`ContextError::InputRequired`] on a 2026-07-28 call until the client
    /// answers (pass it on with `?`: the call then ends asking for the answer, and the tool
    /// runs again from the start when the client calls with it).
    ///
    /// The question's key in a 2026-07-28 `InputRequiredResult` is generated
    /// (`elicitation-1`, `elicitation-2`, … in the order asked); [`ToolContext::input`] names
    /// it.
    pub async fn elicit<T>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, ContextError>
    where
        T: JsonSchema + DeserializeOwned,
    {
        self.input_question(None).elicit(message).await
    }

    /// Asks the user to open `url` (URL-mode elicitation), for what must not pass through
    /// the client: a sign-in, a payment, a secret. `Accepted(())` means they agreed to open
    /// it, not that they finished there: when the interaction behind the URL completes, tell
    /// the client with [`ToolContext::elicitation_complete`] and the same `elicitation_id`,
    /// which your server chooses (unique per request; the URL may carry it).
    ///
    /// Errors: [`ContextError::Detached`], [`ContextError::NotDeclared`] when the client did
    /// not declare URL elicitation, [`ContextError::Url`] when `url` does not parse,
    /// [`ContextError::Client`], and [`ContextError::InputRequired`] as for
    /// [`ToolContext::elicit`].
    pub async fn elicit_url(
        &self,
        message: impl Into<String>,
        url: &str,
        elicitation_id: impl Into<String>,
    ) -> Result<Elicitation<()>, ContextError> {
        self.input_question(None)
            .elicit_url(message, url, elicitation_id)
            .await
    }

    /// Tells the client that the out-of-band interaction of a URL-mode elicitation has
    /// completed (`notifications/elicitation/complete`), so that it can retry what waited for
    /// it. Does nothing for an in-process call.
    pub async fn elicitation_complete(
        &self,
        elicitation_id: impl Into<String>,
    ) -> Result<(), ContextError> {
        let Some(peer) = self.peer() else {
            return Ok(());
        };
        let params = json!({"elicitationId": elicitation_id.into()});
        let notification = CustomNotification::new(ELICITATION_COMPLETE, Some(params));
        peer.send_notification(ServerNotification::CustomNotification(notification))
            .await?;
        Ok(())
    }
}

impl Question<'_> {
    /// [`ToolContext::elicit`] under this question's key.
    pub async fn elicit<T>(self, message: impl Into<String>) -> Result<Elicitation<T>, ContextError>
    where
        T: JsonSchema + DeserializeOwned,
    {
        let type_name = std::any::type_name::<T>();
        let requested_schema =
            elicitation_form::<T>().map_err(|problem| ContextError::Form { type_name, problem })?;
        let request = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: message.into(),
            requested_schema,
        };
        match answered(self.elicitation(request).await?) {
            Elicitation::Accepted(content) => serde_json::from_value(content)
                .map(Elicitation::Accepted)
                .map_err(|error| ContextError::Answer { type_name, error }),
            Elicitation::Declined => Ok(Elicitation::Declined),
            Elicitation::Cancelled => Ok(Elicitation::Cancelled),
        }
    }

    /// [`ToolContext::elicit_url`] under this question's key.
    pub async fn elicit_url(
        self,
        message: impl Into<String>,
        url: &str,
        elicitation_id: impl Into<String>,
    ) -> Result<Elicitation<()>, ContextError> {
        let parsed = url::Url::parse(url).map_err(|error| ContextError::Url {
            url: url.to_string(),
            error,
        })?;
        let request = ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message: message.into(),
            url: parsed.to_string(),
            elicitation_id: elicitation_id.into(),
        };
        Ok(match answered(self.elicitation(request).await?) {
            Elicitation::Accepted(_) => Elicitation::Accepted(()),
            Elicitation::Declined => Elicitation::Declined,
            Elicitation::Cancelled => Elicitation::Cancelled,
        })
    }
}

/// The user's decision, with the content of an acceptance (`{}` when the client sent none:
/// a form of optional fields left empty).
fn answered(answer: ElicitResult) -> Elicitation<serde_json::Value> {
    match answer.action {
        ElicitationAction::Accept => {
            Elicitation::Accepted(answer.content.unwrap_or_else(|| json!({})))
        }
        ElicitationAction::Decline => Elicitation::Declined,
        _ => Elicitation::Cancelled,
    }
}

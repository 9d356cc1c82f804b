//! Typed elicitation (`ToolContext::elicit`, `elicit_url`) against the real `conformance`
//! binary over real pipes, answered by rmcp's own client with scripted answers.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool_test_support::stdio::{envelope_of, text_of};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CustomNotification,
    ElicitRequestParams, ElicitResult, ErrorData, Implementation,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::process::Command;

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

/// A notification's method and params.
type Received = (String, Option<Value>);

/// A client that declares `capabilities`, answers every elicitation with `answer`, and
/// records the requests and the custom notifications it gets.
#[derive(Clone)]
struct Scripted {
    capabilities: Value,
    answer: Value,
    requests: Arc<Mutex<Vec<Value>>>,
    notifications: Arc<Mutex<Vec<Received>>>,
}

impl Scripted {
    fn new(capabilities: Value, answer: Value) -> Self {
        Self {
            capabilities,
            answer,
            requests: Arc::default(),
            notifications: Arc::default(),
        }
    }

    fn requests(&self) -> Vec<Value> {
        self.requests.lock().expect("requests").clone()
    }
}

impl ClientHandler for Scripted {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(self.capabilities.clone()).expect("capabilities");
        ClientConfig::new(capabilities, Implementation::new("scripted", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let seen = serde_json::to_value(&request).expect("serializable");
        self.requests.lock().expect("requests").push(seen);
        Ok(serde_json::from_value(self.answer.clone()).expect("an ElicitResult"))
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        self.notifications
            .lock()
            .expect("notifications")
            .push((notification.method, notification.params));
    }
}

async fn connect(client: Scripted) -> RunningService<RoleClient, Scripted> {
    let mut command = Command::new(CONFORMANCE);
    command.env("RUST_LOG", "warn");
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start conformance");
    client.serve(transport).await.expect("MCP handshake")
}

/// Calls `tool` with `arguments` as a client declaring `capabilities` that answers `answer`:
/// the result as JSON, and the elicitation requests the client saw.
async fn call(
    capabilities: Value,
    answer: Value,
    tool: &'static str,
    arguments: Value,
) -> (Value, Vec<Value>) {
    let script = Scripted::new(capabilities, answer);
    let client = connect(script.clone()).await;
    let request = CallToolRequestParams::new(tool)
        .with_arguments(arguments.as_object().cloned().expect("an object"));
    let result = client.peer().call_tool(request).await.expect("tools/call");
    let _ = client.cancel().await;
    (
        serde_json::to_value(result).expect("serializable"),
        script.requests(),
    )
}

fn form_client() -> Value {
    json!({"elicitation": {"form": {}}})
}

#[tokio::test]
async fn an_accepted_form_comes_back_typed_and_the_form_shows_the_defaults() {
    let answer = json!({"action": "accept", "content": {
        "name": "Jane Smith", "age": 25, "score": 88.0, "status": "inactive", "verified": false}});
    let (result, requests) = call(
        form_client(),
        answer,
        "test_elicitation_sep1034_defaults",
        json!({}),
    )
    .await;
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        text_of(&result),
        r#"Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88.0,"status":"inactive","verified":false}"#
    );
    assert_eq!(
        requests,
        [json!({
            "mode": "form",
            "message": "Please review the defaults.",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "default": "John Doe"},
                    "age": {"type": "integer", "minimum": 0, "maximum": 4294967295_u64, "default": 30},
                    "score": {"type": "number", "default": 95.5},
                    "status": {"type": "string", "description": "An account's status.",
                               "enum": ["active", "inactive", "pending"], "default": "active"},
                    "verified": {"type": "boolean", "default": true}
                },
                "description": "A form whose every field has a default (SEP-1034)."
            }
        })]
    );
}

#[tokio::test]
async fn the_form_spells_every_kind_of_choice_as_the_spec_does() {
    let answer = json!({"action": "accept", "content": {
        "untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
        "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"]}});
    let (result, requests) = call(
        form_client(),
        answer,
        "test_elicitation_sep1330_enums",
        json!({}),
    )
    .await;
    assert_eq!(result["isError"], false, "{result}");
    let properties = &requests[0]["requestedSchema"]["properties"];
    assert_eq!(
        properties["untitledSingle"],
        json!({"type": "string", "description": "Choices without titles: a plain `enum`.",
               "enum": ["option1", "option2", "option3"]})
    );
    assert_eq!(
        properties["titledSingle"]["oneOf"],
        json!([{"const": "value1", "title": "First Option"},
               {"const": "value2", "title": "Second Option"},
               {"const": "value3", "title": "Third Option"}])
    );
    assert_eq!(properties["titledSingle"]["type"], "string");
    assert_eq!(
        properties["legacyEnum"]["enumNames"],
        json!(["Option One", "Option Two", "Option Three"])
    );
    assert_eq!(
        properties["untitledMulti"]["items"],
        json!({"type": "string", "enum": ["option1", "option2", "option3"]})
    );
    assert_eq!(
        properties["titledMulti"]["items"],
        json!({"anyOf": [{"const": "value1", "title": "First Choice"},
                         {"const": "value2", "title": "Second Choice"},
                         {"const": "value3", "title": "Third Choice"}]})
    );
    assert_eq!(
        requests[0]["requestedSchema"]["required"],
        json!([
            "untitledSingle",
            "titledSingle",
            "legacyEnum",
            "untitledMulti",
            "titledMulti"
        ])
    );
}

#[tokio::test]
async fn decline_and_cancel_are_answers_not_errors() {
    for action in ["decline", "cancel"] {
        let (result, _) = call(
            form_client(),
            json!({"action": action}),
            "test_elicitation_sep1034_defaults",
            json!({}),
        )
        .await;
        assert_eq!(result["isError"], false, "{result}");
        assert_eq!(
            text_of(&result),
            format!("Elicitation completed: action={action}, content={{}}")
        );
    }
}

#[tokio::test]
async fn an_answer_that_does_not_fit_the_type_is_an_upstream_error() {
    let answer = json!({"action": "accept", "content": {"username": "ada", "email": 7}});
    let (result, _) = call(
        form_client(),
        answer,
        "test_elicitation",
        json!({"message": "Who are you?"}),
    )
    .await;
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        text_of(&result),
        "The user's answer did not fit the requested form: invalid type: integer `7`, expected \
         a string.\nThis is temporary: the same call may succeed if retried."
    );
    assert_eq!(envelope_of(&result)["code"], "upstream_error");
    assert_eq!(envelope_of(&result)["retryable"], true);
}

#[tokio::test]
async fn a_client_without_form_elicitation_gets_unavailable_not_retryable() {
    let (result, requests) = call(
        json!({}),
        json!({"action": "accept"}),
        "test_elicitation",
        json!({"message": "Who are you?"}),
    )
    .await;
    assert!(requests.is_empty());
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        text_of(&result),
        "The client does not support form elicitation, so the tool cannot ask the user for input."
    );
    assert_eq!(envelope_of(&result)["code"], "unavailable");
    assert_eq!(envelope_of(&result)["retryable"], false);
}

#[tokio::test]
async fn a_url_elicitation_is_sent_and_its_completion_notified() {
    let script = Scripted::new(
        json!({"elicitation": {"form": {}, "url": {}}}),
        json!({"action": "accept"}),
    );
    let client = connect(script.clone()).await;
    let request = CallToolRequestParams::new("test_elicitation_url").with_arguments(
        json!({"url": "https://example.com/sign-in?state=1"})
            .as_object()
            .cloned()
            .expect("an object"),
    );
    let result = client.peer().call_tool(request).await.expect("tools/call");
    let result = serde_json::to_value(result).expect("serializable");
    assert_eq!(
        text_of(&result),
        "The user opened https://example.com/sign-in?state=1."
    );
    assert_eq!(
        script.requests(),
        [json!({"mode": "url", "message": "Please sign in.",
                "url": "https://example.com/sign-in?state=1",
                "elicitationId": "conformance-url-1"})]
    );
    let mut waited = Duration::ZERO;
    while script
        .notifications
        .lock()
        .expect("notifications")
        .is_empty()
        && waited < Duration::from_secs(5)
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
        waited += Duration::from_millis(10);
    }
    assert_eq!(
        *script.notifications.lock().expect("notifications"),
        [(
            "notifications/elicitation/complete".to_string(),
            Some(json!({"elicitationId": "conformance-url-1"}))
        )]
    );
    let _ = client.cancel().await;
}

#[tokio::test]
async fn url_mode_needs_the_url_capability_and_a_valid_url() {
    let (result, requests) = call(
        form_client(),
        json!({"action": "accept"}),
        "test_elicitation_url",
        json!({"url": "https://example.com/"}),
    )
    .await;
    assert!(requests.is_empty());
    assert_eq!(
        text_of(&result),
        "The client does not support URL elicitation, so the tool cannot ask the user for input."
    );
    let (result, requests) = call(
        json!({"elicitation": {"url": {}}}),
        json!({"action": "accept"}),
        "test_elicitation_url",
        json!({"url": "not a url"}),
    )
    .await;
    assert!(requests.is_empty());
    assert_eq!(envelope_of(&result)["code"], "internal_error");
    assert!(
        text_of(&result).starts_with(
            "Tool 'test_elicitation_url' failed because of an internal error on the server."
        ),
        "{result}"
    );
}

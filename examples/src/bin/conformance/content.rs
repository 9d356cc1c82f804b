//! The resources, prompts and completions the conformance suite reads, in an rmcp
//! `ServerHandler` served beside the tools with `ServerBuilder::with_handler`.

#![allow(deprecated)] // rmcp marks resources/subscribe legacy (2026-07-28); 2025-11-25 has it.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::handler::server::prompt::PromptContext;
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, ElicitRequest,
    ElicitRequestParams, ElicitationSchema, ErrorData, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, InputRequest, InputRequiredResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams, Prompt,
    PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference,
    Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, prompt, prompt_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::RED_PIXEL_PNG;

const STATIC_TEXT: &str = "test://static-text";
const STATIC_BINARY: &str = "test://static-binary";
const WATCHED: &str = "test://watched-resource";
const TEMPLATE: &str = "test://template/{id}/data";

/// Resources, prompts and completions, with the URIs a client has subscribed to.
#[derive(Clone)]
pub struct Content {
    prompt_router: PromptRouter<Self>,
    subscriptions: Arc<Mutex<BTreeSet<String>>>,
}

impl Content {
    pub fn new() -> Self {
        Self {
            prompt_router: Self::prompt_router(),
            subscriptions: Arc::default(),
        }
    }

    fn subscriptions(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The arguments of `test_prompt_with_arguments`.
#[derive(Deserialize, JsonSchema)]
pub struct TwoArguments {
    /// First test argument.
    arg1: String,
    /// Second test argument.
    arg2: String,
}

/// The argument of `test_prompt_with_embedded_resource`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceArgument {
    /// URI of the resource to embed.
    resource_uri: String,
}

#[prompt_router]
impl Content {
    #[prompt(
        name = "test_simple_prompt",
        description = "A simple prompt without arguments."
    )]
    async fn simple(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )]
    }

    #[prompt(
        name = "test_prompt_with_arguments",
        description = "A prompt with two required arguments."
    )]
    async fn with_arguments(
        &self,
        Parameters(arguments): Parameters<TwoArguments>,
    ) -> Vec<PromptMessage> {
        let text = format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            arguments.arg1, arguments.arg2
        );
        vec![PromptMessage::new_text(Role::User, text)]
    }

    #[prompt(
        name = "test_prompt_with_embedded_resource",
        description = "A prompt that embeds a text resource."
    )]
    async fn with_embedded_resource(
        &self,
        Parameters(argument): Parameters<ResourceArgument>,
    ) -> Vec<PromptMessage> {
        let resource = ContentBlock::embedded_text(
            argument.resource_uri,
            "Embedded resource content for testing.",
        );
        vec![
            PromptMessage::new(Role::User, resource),
            PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
        ]
    }

    #[prompt(
        name = "test_prompt_with_image",
        description = "A prompt that shows an image."
    )]
    async fn with_image(&self) -> Vec<PromptMessage> {
        vec![
            PromptMessage::new(Role::User, ContentBlock::image(RED_PIXEL_PNG, "image/png")),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ]
    }
}

/// Words offered for any prompt argument, filtered by what the client has typed.
const WORDS: &[&str] = &["paris", "park", "party", "test", "testing", "value"];

fn resource(uri: &str, name: &str, description: &str, mime_type: &str) -> Resource {
    Resource::new(uri, name)
        .with_description(description)
        .with_mime_type(mime_type)
}

/// The `id` of a `test://template/{id}/data` URI.
fn template_id(uri: &str) -> Option<&str> {
    uri.strip_prefix("test://template/")?
        .strip_suffix("/data")
        .filter(|id| !id.is_empty() && !id.contains('/'))
}

fn read(uri: &str) -> Option<ResourceContents> {
    let contents = match uri {
        STATIC_TEXT => {
            ResourceContents::text("This is the content of the static text resource.", uri)
                .with_mime_type("text/plain")
        }
        STATIC_BINARY => ResourceContents::blob(RED_PIXEL_PNG, uri).with_mime_type("image/png"),
        WATCHED => ResourceContents::text("This resource is watched for updates.", uri)
            .with_mime_type("text/plain"),
        _ => {
            let id = template_id(uri)?;
            let data =
                json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
            ResourceContents::text(data.to_string(), uri).with_mime_type("application/json")
        }
    };
    Some(contents)
}

/// The prompt of the multi-round-trip scenario: rmcp's prompt router does not hand a prompt
/// the client's `inputResponses`, so the handler answers it before the router.
const ASKING_PROMPT: &str = "test_input_required_result_prompt";

impl Content {
    /// `test_input_required_result_prompt`: asks for a context (an `InputRequiredResult`),
    /// then uses the answer.
    fn asking_prompt(request: &GetPromptRequestParams) -> GetPromptResponse {
        let answer = request
            .input_responses
            .as_ref()
            .and_then(|responses| responses.get("user_context"));
        match answer {
            Some(answer) => {
                let context = answer["content"]["context"].as_str().unwrap_or("none");
                let text = format!("Use this context: {context}");
                GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).into()
            }
            None => {
                let form = ElicitationSchema::builder()
                    .required_string("context")
                    .build()
                    .unwrap_or_else(|_| ElicitationSchema::new(Default::default()));
                let question = ElicitRequestParams::FormElicitationParams {
                    meta: None,
                    message: "What context should the prompt use?".into(),
                    requested_schema: form,
                };
                let requests = [(
                    "user_context".to_string(),
                    InputRequest::Elicitation(ElicitRequest::new(question)),
                )];
                InputRequiredResult::from_input_requests(requests.into_iter().collect()).into()
            }
        }
    }
}

impl ServerHandler for Content {
    async fn list_prompts(
        &self,
        _page: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut prompts = self.prompt_router.list_all();
        prompts.push(Prompt::new(
            ASKING_PROMPT,
            Some("A prompt that asks the user for its context first."),
            None,
        ));
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name == ASKING_PROMPT {
            return Ok(Self::asking_prompt(&request));
        }
        let prompt = PromptContext::new(self, request.name, request.arguments, context);
        self.prompt_router.get_prompt(prompt).await
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_prompts()
            .enable_completions()
            .build();
        ServerConfig::new(capabilities)
    }

    async fn list_resources(
        &self,
        _page: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            resource(STATIC_TEXT, "static-text", "A fixed text.", "text/plain"),
            resource(
                STATIC_BINARY,
                "static-binary",
                "A 1×1 red PNG.",
                "image/png",
            ),
            resource(
                WATCHED,
                "watched-resource",
                "A resource to subscribe to.",
                "text/plain",
            ),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _page: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template = ResourceTemplate::new(TEMPLATE, "template-data")
            .with_description("Data for one id.")
            .with_mime_type("application/json");
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match read(&request.uri) {
            Some(contents) => Ok(ReadResourceResult::new(vec![contents]).into()),
            None => Err(ErrorData::resource_not_found(
                format!("No resource at '{}'.", request.uri),
                Some(json!({"uri": request.uri})),
            )),
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions().insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions().remove(&request.uri);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let typed = request.argument.value.to_lowercase();
        let values: Vec<String> = match request.r#ref {
            Reference::Prompt(_) => WORDS
                .iter()
                .filter(|word| word.starts_with(&typed))
                .map(|word| (*word).to_string())
                .collect(),
            // A resource template's `id`, or a reference of a later revision.
            _ => ["1", "2", "3", "123"]
                .iter()
                .filter(|id| id.starts_with(&typed))
                .map(|id| (*id).to_string())
                .collect(),
        };
        let completion = CompletionInfo::with_all_values(values)
            .map_err(|error| ErrorData::internal_error(error, None))?;
        Ok(CompleteResult::new(completion))
    }
}

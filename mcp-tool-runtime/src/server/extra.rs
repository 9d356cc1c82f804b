//! The user's own rmcp `ServerHandler` beside the tools (`ServerBuilder::with_handler`): its
//! resources, prompts, completions, `subscriptions/listen` streams and client notifications.
//!
//! rmcp's `ServerHandler` has `async fn`s, so `dyn ServerHandler` does not exist. The
//! methods `McpServer` hands over are restated here with boxed futures and implemented for
//! every shared handler, so that `McpServer<S>` keeps its one type parameter. A handler is
//! held as a [`Shared`]: its own (`with_handler`), or the server's state or a part of it
//! (`with_handler_of`), reached the way a tool of a part reaches its state.

#![allow(deprecated)] // rmcp marks resources/subscribe legacy (2026-07-28); 2025-11-25 has it.

use std::collections::BTreeMap;

use rmcp::model::{
    CancelledNotificationParam, CompleteRequestParams, CompleteResult, CustomNotification,
    GetPromptRequestParams, GetPromptResponse, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, ProgressNotificationParam,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::tool::{BoxFuture, Shared};

type Answer<'a, T> = BoxFuture<'a, Result<T, ErrorData>>;
type Request = RequestContext<RoleServer>;
type Notification = NotificationContext<RoleServer>;

/// The part of a `ServerHandler` that `McpServer` delegates, object-safe.
pub(crate) trait ExtraHandler: Send + Sync + 'static {
    fn info(&self) -> ServerConfig;
    fn list_resources(
        &self,
        page: Option<PaginatedRequestParams>,
        cx: Request,
    ) -> Answer<'_, ListResourcesResult>;
    fn list_resource_templates(
        &self,
        page: Option<PaginatedRequestParams>,
        cx: Request,
    ) -> Answer<'_, ListResourceTemplatesResult>;
    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        cx: Request,
    ) -> Answer<'_, ReadResourceResponse>;
    fn subscribe(&self, request: SubscribeRequestParams, cx: Request) -> Answer<'_, ()>;
    fn unsubscribe(&self, request: UnsubscribeRequestParams, cx: Request) -> Answer<'_, ()>;
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter>;
    fn listen(&self, cx: SubscriptionContext) -> Answer<'_, ()>;
    fn list_prompts(
        &self,
        page: Option<PaginatedRequestParams>,
        cx: Request,
    ) -> Answer<'_, ListPromptsResult>;
    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        cx: Request,
    ) -> Answer<'_, GetPromptResponse>;
    fn complete(&self, request: CompleteRequestParams, cx: Request) -> Answer<'_, CompleteResult>;
    fn on_initialized(&self, cx: Notification) -> BoxFuture<'_, ()>;
    fn on_cancelled(
        &self,
        params: CancelledNotificationParam,
        cx: Notification,
    ) -> BoxFuture<'_, ()>;
    fn on_progress(&self, params: ProgressNotificationParam, cx: Notification)
    -> BoxFuture<'_, ()>;
    fn on_roots_list_changed(&self, cx: Notification) -> BoxFuture<'_, ()>;
    fn on_custom_notification(
        &self,
        notification: CustomNotification,
        cx: Notification,
    ) -> BoxFuture<'_, ()>;
}

impl<H: ServerHandler> ExtraHandler for Shared<H> {
    fn info(&self) -> ServerConfig {
        ServerHandler::get_info(&**self)
    }

    fn list_resources(
        &self,
        page: Option<PaginatedRequestParams>,
        cx: Request,
    ) -> Answer<'_, ListResourcesResult> {
        Box::pin(ServerHandler::list_resources(&**self, page, cx))
    }

    fn list_resource_templates(
        &self,
        page: Option<PaginatedRequestParams>,
        cx: Request,
    ) -> Answer<'_, ListResourceTemplatesResult> {
        Box::pin(ServerHandler::list_resource_templates(&**self, page, cx))
    }

    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        cx: Request,
    ) -> Answer<'_, ReadResourceResponse> {
        Box::pin(ServerHandler::read_resource(&**self, request, cx))
    }

    fn subscribe(&self, request: SubscribeRequestParams, cx: Request) -> Answer<'_, ()> {
        Box::pin(ServerHandler::subscribe(&**self, request, cx))
    }

    fn unsubscribe(&self, request: UnsubscribeRequestParams, cx: Request) -> Answer<'_, ()> {
        Box::pin(ServerHandler::unsubscribe(&**self, request, cx))
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        ServerHandler::accepted_subscription_filter(&**self, requested)
    }

    fn listen(&self, cx: SubscriptionContext) -> Answer<'_, ()> {
        Box::pin(ServerHandler::listen(&**self, cx))
    }

    fn list_prompts(
        &self,
        page: Option<PaginatedRequestParams>,
        cx: Request,
    ) -> Answer<'_, ListPromptsResult> {
        Box::pin(ServerHandler::list_prompts(&**self, page, cx))
    }

    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        cx: Request,
    ) -> Answer<'_, GetPromptResponse> {
        Box::pin(ServerHandler::get_prompt(&**self, request, cx))
    }

    fn complete(&self, request: CompleteRequestParams, cx: Request) -> Answer<'_, CompleteResult> {
        Box::pin(ServerHandler::complete(&**self, request, cx))
    }

    fn on_initialized(&self, cx: Notification) -> BoxFuture<'_, ()> {
        Box::pin(ServerHandler::on_initialized(&**self, cx))
    }

    fn on_cancelled(
        &self,
        params: CancelledNotificationParam,
        cx: Notification,
    ) -> BoxFuture<'_, ()> {
        Box::pin(ServerHandler::on_cancelled(&**self, params, cx))
    }

    fn on_progress(
        &self,
        params: ProgressNotificationParam,
        cx: Notification,
    ) -> BoxFuture<'_, ()> {
        Box::pin(ServerHandler::on_progress(&**self, params, cx))
    }

    fn on_roots_list_changed(&self, cx: Notification) -> BoxFuture<'_, ()> {
        Box::pin(ServerHandler::on_roots_list_changed(&**self, cx))
    }

    fn on_custom_notification(
        &self,
        notification: CustomNotification,
        cx: Notification,
    ) -> BoxFuture<'_, ()> {
        Box::pin(ServerHandler::on_custom_notification(
            &**self,
            notification,
            cx,
        ))
    }
}

/// The server's `initialize` answer: its own identity, tools and logging, with the
/// handler's resources, prompts and completions. Experimental and extension capabilities
/// are the union of both (the server's own settings win a shared key). Instructions are the
/// server's when it has some, else the handler's.
pub(crate) fn merge_info(own: ServerConfig, extra: ServerConfig) -> ServerConfig {
    let mut merged = own;
    let theirs = extra.capabilities;
    let capabilities = &mut merged.capabilities;
    capabilities.resources = theirs.resources.or(capabilities.resources.take());
    capabilities.prompts = theirs.prompts;
    capabilities.completions = theirs.completions;
    capabilities.experimental = union(capabilities.experimental.take(), theirs.experimental);
    capabilities.extensions = union(capabilities.extensions.take(), theirs.extensions);
    if merged.instructions.is_none() {
        merged.instructions = extra.instructions;
    }
    merged
}

fn union<K: Ord, V>(
    own: Option<BTreeMap<K, V>>,
    theirs: Option<BTreeMap<K, V>>,
) -> Option<BTreeMap<K, V>> {
    match (own, theirs) {
        (Some(mut own), Some(theirs)) => {
            for (key, value) in theirs {
                own.entry(key).or_insert(value);
            }
            Some(own)
        }
        (own, theirs) => own.or(theirs),
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{Implementation, JsonObject, ServerCapabilities};
    use serde_json::json;

    use super::*;

    fn settings(value: serde_json::Value) -> JsonObject {
        value.as_object().cloned().unwrap_or_default()
    }

    fn own() -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        capabilities.experimental = Some(BTreeMap::from([(
            "shared".to_string(),
            settings(json!({"from": "server"})),
        )]));
        ServerConfig::new(capabilities).with_server_info(Implementation::new("ours", "1.0.0"))
    }

    fn theirs() -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_completions()
            .build();
        capabilities.experimental = Some(BTreeMap::from([
            ("shared".to_string(), settings(json!({"from": "handler"}))),
            ("theirs".to_string(), settings(json!({}))),
        ]));
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("theirs", "9.9.9"))
            .with_instructions("Read the handler's docs.")
    }

    #[test]
    fn the_handler_adds_its_capabilities_and_the_server_keeps_its_identity() {
        let merged = merge_info(own(), theirs());
        assert_eq!(
            serde_json::to_value(&merged.capabilities).ok(),
            Some(json!({
                "experimental": {"shared": {"from": "server"}, "theirs": {}},
                "logging": {},
                "completions": {},
                "prompts": {},
                "resources": {},
                "tools": {}
            }))
        );
        assert_eq!(merged.server_info.name, "ours");
        assert_eq!(
            merged.instructions.as_deref(),
            Some("Read the handler's docs.")
        );
    }

    #[test]
    fn the_server_instructions_win() {
        let merged = merge_info(own().with_instructions("Use the tools."), theirs());
        assert_eq!(merged.instructions.as_deref(), Some("Use the tools."));
    }
}

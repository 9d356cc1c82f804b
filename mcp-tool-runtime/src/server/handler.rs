//! The rmcp `ServerHandler`: `tools/list`, `tools/call` and `logging/setLevel`; the rest
//! goes to the user's handler (`with_handler`), or gets rmcp's default answers without one.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); 2025-11-25 has it.

use std::borrow::Cow;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams,
    CancelledNotificationParam, CompleteRequestParams, CompleteResult, CustomNotification,
    CustomRequest, CustomResult, DiscoverResult, ErrorCode, ErrorData, GetPromptRequestMethod,
    GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult, Implementation,
    InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProtocolVersion, ReadResourceRequestMethod, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    SubscriptionFilter, TASKS_EXTENSION_ID, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use super::McpServer;
use super::apps::{self, Apps, for_views_only, published_for};
use super::call::cancelled;
use super::extra::{ExtraHandler, merge_info};
use super::handoff::take_arguments;
use super::methods::NEWEST_PROTOCOL_VERSION;
use super::methods::{SUPPORTED_METHODS, method_not_found, method_not_found_data};
use super::params::{invalid_params, params_problem};
use super::rounds::asks_in_rounds;
use super::tasks::runs_as_task;
use crate::tool::{ToolInfo, principal_of};

impl<S> McpServer<S> {
    fn extra(&self) -> Option<&dyn ExtraHandler> {
        self.inner.handler.as_deref()
    }
}

/// The -32601 a transport gives a method it does not route, for a handler-only method that
/// reached a server without a handler.
fn not_routed(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        method_not_found(method),
        Some(method_not_found_data(method)),
    )
}

/// Whether a stream's filter holds notifications other than tool changes.
fn accepts_more_than_tools(accepted: &SubscriptionFilter) -> bool {
    accepted.prompts_list_changed == Some(true)
        || accepted.resources_list_changed == Some(true)
        || accepted
            .resource_subscriptions
            .as_ref()
            .is_some_and(|uris| !uris.is_empty())
}

/// What the server says of itself before a handler adds its own: built once, since rmcp
/// asks for it several times a request.
pub(super) fn base_info(
    implementation: Implementation,
    instructions: Option<String>,
    offers_tasks: bool,
    apps: Option<&Apps>,
) -> ServerConfig {
    let mut capabilities = ServerCapabilities::builder()
        .enable_tools()
        .enable_tool_list_changed()
        .enable_logging()
        .build();
    // Advertised only by a server with a task-supporting tool: the extension's methods
    // answer -32601 elsewhere, as before.
    if offers_tasks {
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(TASKS_EXTENSION_ID.to_string(), Default::default());
    }
    if let Some(apps) = apps {
        let (id, settings) = apps::advertised();
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(id, settings);
        if apps.has_views() {
            capabilities.resources = Some(Default::default());
        }
    }
    let info = ServerConfig::new(capabilities).with_server_info(implementation);
    match instructions {
        Some(instructions) => info.with_instructions(instructions),
        None => info,
    }
}

impl<S: Send + Sync + 'static> ServerHandler for McpServer<S> {
    fn get_info(&self) -> ServerConfig {
        let info = self.inner.info.clone();
        match self.extra() {
            Some(extra) => merge_info(info, extra.info()),
            None => info,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let registry = self.inner.live.load();
        let without_apps = apps::without_apps(self.inner.apps.as_ref(), &context);
        let tools = match (&self.inner.visibility, without_apps) {
            (None, false) => registry.list().to_vec(),
            _ => {
                let principal = principal_of(&context.extensions);
                registry
                    .entries()
                    .filter(|(tool, _)| self.visible(principal, tool.info()))
                    .filter(|(tool, _)| !(without_apps && for_views_only(tool.info())))
                    .map(|(_, published)| published_for(published, without_apps))
                    .collect()
            }
        };
        let mut result = ListToolsResult::with_all_items(tools);
        if asks_in_rounds(&context.meta) {
            let hints = self.inner.cache_hints;
            let ttl = registry
                .cache_ttl()
                .map_or(hints.ttl, |cap| cap.min(hints.ttl));
            result.ttl_ms = Some(millis(ttl));
            result.cache_scope = Some(match self.inner.visibility {
                Some(_) => CacheScope::Private,
                None => hints.scope,
            });
        }
        Ok(result)
    }

    /// rmcp's answer, with the server's caching hints.
    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let versions = self.supported_protocol_versions().into_owned();
        let hints = self.inner.cache_hints;
        Ok(DiscoverResult::from_server_info(versions, self.get_info())
            .with_ttl_ms(millis(hints.ttl))
            .with_cache_scope(hints.scope))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.live.load().published(name).cloned()
    }

    /// Each connected client is told when the tool set changes: registered here, before
    /// the client can send anything else (`notifications/initialized` is handled
    /// concurrently with the first requests).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.inner.live.connect(context.peer);
        self.negotiate_initialize(&request)
    }

    /// A 2026-07-28 client's `subscriptions/listen`: tool changes are the server's to
    /// accept; resource and prompt notifications are the handler's, when it accepts them.
    /// rmcp then keeps only what the client asked for and `get_info` advertises, and
    /// acknowledges the stream before `listen`: a tool change from here on reaches it.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        if requested.tools_list_changed == Some(true) {
            self.inner.live.acknowledging();
        }
        let mut accepted = self
            .extra()
            .and_then(|extra| extra.accepted_subscription_filter(requested))
            .unwrap_or_default();
        accepted.tools_list_changed = Some(true);
        Some(accepted)
    }

    /// Tells the stream of tool changes, when it asked for them, until it ends. The rest of
    /// what it accepted can only be the handler's, which then runs the stream: rmcp gives
    /// one context per stream, so the handler's `listen` holds it and its return ends the
    /// stream for both.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        // Boxed for the same reason as a task's call: at 2,704 bytes it was the largest of
        // the handler's futures, and rmcp's request future is as large as the largest.
        Box::pin(self.listen_for_changes(context)).await
    }

    /// Capped at the newest revision this server was built and tested for, so that an rmcp
    /// release that learns a newer one does not make the server claim it unseen.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&NEWEST_PROTOCOL_VERSION))
    }

    /// rmcp hands over a request of a method it knows but whose params it could not read
    /// as a custom request (over HTTP, where the body reaches rmcp after only a quick read of
    /// its envelope): that is -32602 with what does not fit, as the stdio check answers.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.as_str();
        if SUPPORTED_METHODS.contains(&method) {
            let detail = params_problem(method, request.params.as_ref());
            return Err(ErrorData::invalid_params(
                invalid_params(method, &detail),
                None,
            ));
        }
        Err(not_routed(method))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.set_level(request.level);
        Ok(())
    }

    async fn list_resources(
        &self,
        page: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        // The views go on the first page only, the one asked for without a cursor.
        let first_page = page.as_ref().is_none_or(|page| page.cursor.is_none());
        let views = match &self.inner.apps {
            Some(apps) if first_page => apps.listed().collect(),
            _ => Vec::new(),
        };
        let mut listed = match self.extra() {
            Some(extra) => extra.list_resources(page, context).await?,
            None => ListResourcesResult::default(),
        };
        listed.resources.extend(views);
        Ok(listed)
    }

    async fn list_resource_templates(
        &self,
        page: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        match self.extra() {
            Some(extra) => extra.list_resource_templates(page, context).await,
            None => Ok(ListResourceTemplatesResult::default()),
        }
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let view = self
            .inner
            .apps
            .as_ref()
            .and_then(|apps| apps.read(&request.uri));
        match (view, self.extra()) {
            (Some(view), _) => Ok(view.into()),
            (None, Some(extra)) => extra.read_resource(request, context).await,
            (None, None) if self.inner.apps.is_some() => Err(ErrorData::resource_not_found(
                format!("No resource {}.", request.uri),
                None,
            )),
            (None, None) => Err(ErrorData::method_not_found::<ReadResourceRequestMethod>()),
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        match self.extra() {
            Some(extra) => extra.subscribe(request, context).await,
            None => Err(not_routed("resources/subscribe")),
        }
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        match self.extra() {
            Some(extra) => extra.unsubscribe(request, context).await,
            None => Err(not_routed("resources/unsubscribe")),
        }
    }

    async fn list_prompts(
        &self,
        page: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        match self.extra() {
            Some(extra) => extra.list_prompts(page, context).await,
            None => Ok(ListPromptsResult::default()),
        }
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        match self.extra() {
            Some(extra) => extra.get_prompt(request, context).await,
            None => Err(ErrorData::method_not_found::<GetPromptRequestMethod>()),
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        match self.extra() {
            Some(extra) => extra.complete(request, context).await,
            None => Ok(CompleteResult::default()),
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        match self.extra() {
            Some(extra) => extra.on_initialized(context).await,
            None => tracing::info!("client initialized"),
        }
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        // rmcp has already cancelled the request's token, which stops a running tool.
        if let Some(extra) = self.extra() {
            extra.on_cancelled(notification, context).await;
        }
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        if let Some(extra) = self.extra() {
            extra.on_progress(notification, context).await;
        }
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        if let Some(extra) = self.extra() {
            extra.on_roots_list_changed(context).await;
        }
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        if let Some(extra) = self.extra() {
            extra.on_custom_notification(notification, context).await;
        }
    }

    /// A call: its arguments as the transport handed them, its tool, its round (on
    /// 2026-07-28), then the tool's run, which the client may cancel.
    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(request_meta) = request.meta.take() {
            context.meta.extend(request_meta);
        }
        let registry = self.inner.live.load();
        let limits = registry.input_limits();
        let arguments = take_arguments(&mut request, &mut context.extensions, &limits);
        let tool = self.lookup(&registry, &request.name, self.caller(&context.extensions))?;
        if for_views_only(tool.info()) && apps::without_apps(self.inner.apps.as_ref(), &context) {
            let shown = |info: &ToolInfo| {
                !for_views_only(info) && self.visible(self.caller(&context.extensions), info)
            };
            return Err(registry.unknown_among(&request.name, shown).into());
        }
        let as_task = runs_as_task(tool.info().task_support(), &context)?;
        let sent = arguments.sent.as_ref();
        let round = self.open_round(&request, &context.meta, &context.extensions, sent)?;
        if as_task {
            let start = tool.info().task_start();
            // Boxed: inline, this rare branch doubled the call's future (1,552 to 3,160
            // bytes), which rmcp's per-request task holds and copies; over HTTP, stateless,
            // that cost 80,000 instructions a call under callgrind (P8i 1.04 to 1.51).
            return Box::pin(self.call_in_task(&request, context, arguments, start, round)).await;
        }
        let scope = self.call_scope(context, tool.info().name_cow(), round.as_ref(), None);
        let call = self.run_call(
            &registry,
            tool,
            sent,
            arguments.refused,
            &scope,
            self.inner.default_timeout,
        );
        let outcome = tokio::select! {
            // rmcp cancels the request's token on `notifications/cancelled` and drops
            // whatever is answered after; dropping the call here is what stops the tool's
            // work. The call goes first: most finish in their first poll, before any waiter
            // is registered.
            biased;
            outcome = call => outcome,
            () = scope.client_cancelled() => return Err(cancelled(&request.name)),
        };
        self.end_call(outcome, round.as_ref())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.get_task_now(&request.task_id, &context.extensions)
            .await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let responses = &request.input_responses;
        self.update_task_now(&request.task_id, responses, &context.extensions)
            .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.cancel_task_now(&request.task_id, &context.extensions)
            .await
    }
}

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Tells the stream of tool changes, when it asked for them, until it ends; the
    /// handler's `listen` runs the rest (see `listen`).
    async fn listen_for_changes(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let accepted = context.accepted();
        let _listening = match accepted.tools_list_changed {
            Some(true) => Some(self.inner.live.listen(context.sink().clone()).await),
            _ => None,
        };
        match self.extra() {
            Some(extra) if accepts_more_than_tools(accepted) => extra.listen(context).await,
            _ => {
                context.cancelled().await;
                Ok(())
            }
        }
    }
}

/// A duration in whole milliseconds, as `ttlMs` carries it.
fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

//! The tool set while serving: tools added, removed, enabled and disabled, by name or by tag.
//!
//! Calls never wait on a change: the server serves an immutable [`ToolRegistry`] (sorted
//! names for a binary search, definitions published once) that a change replaces as a whole,
//! so a call costs one atomic load more than with a fixed set. Changes are serialised by a
//! lock that calls never take, and each one that changes what is served tells every connected
//! client with `notifications/tools/list_changed`: a 2025-11-25 client on its connection, a
//! 2026-07-28 client on each `subscriptions/listen` stream that asked for it.

use std::collections::{BTreeSet, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use arc_swap::{ArcSwap, Guard};
use rmcp::RoleServer;
use rmcp::model::Tool;
use rmcp::service::{Peer, SubscriptionSendError, SubscriptionSink};

use super::{RegistryError, ToolRegistry, check_tool, check_tools, duplicate};
use crate::input::{InputLimits, InputMode};
use crate::schema::SchemaProfile;
use crate::tool::ToolDef;

/// A handle on a server's tool set, to change it while serving: from outside (an admin
/// endpoint, a file watcher) or from a tool, through the server's state. Cheap to clone.
/// Get it with [`McpServer::tools`](crate::McpServer::tools).
///
/// A tool is served when it is enabled and none of its tags is disabled. Every change that
/// alters what is served sends `notifications/tools/list_changed` to each connected client
/// (stdio, and every HTTP session); a call already running finishes with the tool it
/// started with.
///
/// ```
/// use mcp_tool_runtime::{McpServer, mcp_tool};
///
/// /// Reset the shop.
/// #[mcp_tool(tags = ["admin"])]
/// fn reset() -> String { "reset".into() }
///
/// /// Say hello.
/// #[mcp_tool]
/// fn hello() -> String { "hello".into() }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(()).tool(reset_tool()).tool(hello_tool()).build()?;
/// let tools = server.tools();
/// tools.disable_tag("admin");
/// assert_eq!(server.registry().list().len(), 1);
/// assert!(server.call("reset", None).await.is_err()); // unknown, as if it did not exist
/// tools.enable_tag("admin");
/// assert!(server.call("reset", None).await.is_ok());
/// # Ok(()) }
/// ```
pub struct LiveTools<S> {
    live: Arc<Live<S>>,
}

impl<S> Clone for LiveTools<S> {
    fn clone(&self) -> Self {
        Self {
            live: Arc::clone(&self.live),
        }
    }
}

impl<S> fmt::Debug for LiveTools<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LiveTools")
            .field(&*self.live.current.load())
            .finish()
    }
}

impl<S: Send + Sync + 'static> LiveTools<S> {
    pub(crate) fn new(live: Arc<Live<S>>) -> Self {
        Self { live }
    }

    /// Adds a tool, served at once unless one of its tags is disabled. Fails, changing
    /// nothing, when the server has a tool of that name (enabled or not), or for the reasons
    /// [`ServerBuilder::build`](crate::ServerBuilder::build) would.
    pub fn add(&self, tool: ToolDef<S>) -> Result<(), RegistryError> {
        self.live.change(|set| {
            let info = tool.info();
            if let Some(known) = set.entry(info.name()) {
                return Err(duplicate(known.tool.info().rust_path(), info));
            }
            check_tool(info, set.profile)?;
            let published = info.publish(set.profile);
            set.entries.push(Entry {
                tool,
                published,
                enabled: true,
            });
            Ok(())
        })
    }

    /// Removes the tool `name`. False when the server has no such tool.
    pub fn remove(&self, name: &str) -> bool {
        self.live.change(|set| {
            let before = set.entries.len();
            set.entries.retain(|entry| entry.tool.info().name() != name);
            set.entries.len() != before
        })
    }

    /// Serves the tool `name` again, unless one of its tags is disabled. False when the
    /// server has no such tool.
    pub fn enable(&self, name: &str) -> bool {
        self.switch(name, true)
    }

    /// Stops serving the tool `name`, which is then answered like an unknown tool; it stays
    /// registered, to be enabled again. False when the server has no such tool.
    pub fn disable(&self, name: &str) -> bool {
        self.switch(name, false)
    }

    /// Serves the tools tagged `tag` again (each that is itself enabled and has no other
    /// disabled tag).
    pub fn enable_tag(&self, tag: &str) {
        self.live.change(|set| set.disabled_tags.remove(tag));
    }

    /// Stops serving every tool tagged `tag`, including those added later, until
    /// [`LiveTools::enable_tag`].
    pub fn disable_tag(&self, tag: &str) {
        self.live
            .change(|set| set.disabled_tags.insert(tag.to_string()));
    }

    /// Whether the tool `name` is served now; `None` when the server has no such tool.
    pub fn is_served(&self, name: &str) -> Option<bool> {
        let set = self.live.lock();
        set.entry(name).map(|entry| set.serves(entry))
    }

    fn switch(&self, name: &str, enabled: bool) -> bool {
        self.live.change(|set| {
            let entry = set
                .entries
                .iter_mut()
                .find(|entry| entry.tool.info().name() == name);
            entry.map(|entry| entry.enabled = enabled).is_some()
        })
    }
}

/// A server's tool set: what it serves now, everything it knows, and who to tell.
pub(crate) struct Live<S> {
    current: ArcSwap<ToolRegistry<S>>,
    set: Mutex<Set<S>>,
    peers: Mutex<Peers>,
}

/// Every tool the server knows, served or not, in registration order.
struct Set<S> {
    entries: Vec<Entry<S>>,
    disabled_tags: BTreeSet<String>,
    profile: SchemaProfile,
    input_mode: InputMode,
    input_limits: InputLimits,
}

struct Entry<S> {
    tool: ToolDef<S>,
    /// Published once, when the tool joins the set.
    published: Tool,
    enabled: bool,
}

/// The connected clients, the open `subscriptions/listen` streams that asked for tool
/// changes, and the runtime the last of them came on, for notifications of changes made
/// from a thread outside any runtime.
#[derive(Default)]
struct Peers {
    connected: Vec<Peer<RoleServer>>,
    /// Weak: a stream is told until its [`Listening`] is dropped, when its request ends.
    listening: Vec<Weak<SubscriptionSink>>,
    runtime: Option<tokio::runtime::Handle>,
    /// The changes told so far.
    changes: u64,
    /// The streams being acknowledged, by the task that runs each, with `changes` then (see
    /// [`Live::acknowledging`]); the oldest go first past [`MAX_ACKNOWLEDGING`].
    acknowledging: VecDeque<(tokio::task::Id, u64)>,
}

/// How many streams may be between acceptance and `listen` at once before the oldest loses
/// its catch-up; an entry stays only when the acknowledgment could not be sent.
const MAX_ACKNOWLEDGING: usize = 64;

impl Peers {
    fn remember_runtime(&mut self) {
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            self.runtime = Some(runtime);
        }
    }
}

/// A `subscriptions/listen` stream that is told of tool changes while this is held.
#[must_use = "the stream is told of changes only while this is held"]
pub(crate) struct Listening {
    _sink: Arc<SubscriptionSink>,
}

impl<S> Live<S> {
    /// The registry served now. Cheap: hold it for the length of one call.
    pub(crate) fn load(&self) -> Guard<Arc<ToolRegistry<S>>> {
        self.current.load()
    }

    /// The registry served now, to keep.
    pub(crate) fn load_full(&self) -> Arc<ToolRegistry<S>> {
        self.current.load_full()
    }
}

impl<S: Send + Sync + 'static> Live<S> {
    /// The set of `tools`, all served. Fails as [`ToolRegistry::new`] does.
    pub(crate) fn new(
        tools: Vec<ToolDef<S>>,
        profile: SchemaProfile,
        input_mode: InputMode,
        input_limits: InputLimits,
    ) -> Result<Self, RegistryError> {
        check_tools(&tools, profile)?;
        let entries = tools
            .into_iter()
            .map(|tool| Entry {
                published: tool.info().publish(profile),
                tool,
                enabled: true,
            })
            .collect();
        let set = Set {
            entries,
            disabled_tags: BTreeSet::new(),
            profile,
            input_mode,
            input_limits,
        };
        Ok(Self {
            current: ArcSwap::from_pointee(set.registry()),
            set: Mutex::new(set),
            peers: Mutex::default(),
        })
    }

    /// Tells `peer` of every later change, until its connection closes.
    pub(crate) fn connect(&self, peer: Peer<RoleServer>) {
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        peers.connected.retain(|known| !known.is_transport_closed());
        peers.connected.push(peer);
        peers.remember_runtime();
    }

    /// Notes the changes told so far for the stream the current task is about to accept.
    ///
    /// rmcp acknowledges a stream before it calls `listen`, where the stream's sink is first
    /// seen; a change in between would reach no one, though the client, acknowledged, may
    /// already have listed the tools. rmcp runs acceptance, acknowledgment and `listen` in
    /// one task, which links this note to [`Live::listen`].
    pub(crate) fn acknowledging(&self) {
        let Some(task) = tokio::task::try_id() else {
            return;
        };
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        if peers.acknowledging.len() == MAX_ACKNOWLEDGING {
            peers.acknowledging.pop_front();
        }
        let changes = peers.changes;
        peers.acknowledging.push_back((task, changes));
    }

    /// Tells the `subscriptions/listen` stream of `sink` of every later change, until the
    /// returned guard is dropped, and of one made since this task's
    /// [`Live::acknowledging`]. The sink tags each notification with the stream's
    /// subscription id, and sends nothing once the stream's request has ended.
    pub(crate) async fn listen(&self, sink: SubscriptionSink) -> Listening {
        let sink = Arc::new(sink);
        let missed = {
            let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
            peers.listening.retain(|known| known.strong_count() > 0);
            peers.listening.push(Arc::downgrade(&sink));
            peers.remember_runtime();
            let task = tokio::task::try_id();
            let noted = peers
                .acknowledging
                .iter()
                .position(|(noted, _)| Some(*noted) == task)
                .and_then(|at| peers.acknowledging.remove(at));
            noted.is_some_and(|(_, changes)| changes != peers.changes)
        };
        if missed {
            tell(&sink).await;
        }
        Listening { _sink: sink }
    }

    fn lock(&self) -> MutexGuard<'_, Set<S>> {
        self.set.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies `edit`, serves the result, and tells the clients when what is served changed.
    fn change<R>(&self, edit: impl FnOnce(&mut Set<S>) -> R) -> R {
        let (outcome, changed) = {
            let mut set = self.lock();
            let outcome = edit(&mut set);
            let next = set.registry();
            let changed = !next.same_tools(&self.current.load());
            if changed {
                self.current.store(Arc::new(next));
            }
            (outcome, changed)
        };
        if changed {
            self.notify();
        }
        outcome
    }

    /// Sends `notifications/tools/list_changed` to every connected client and listening
    /// stream, without waiting: a slow client delays nobody.
    fn notify(&self) {
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        // Counted under the lock that registers streams: a stream registered after this
        // sees the count, one registered before is in `listening`.
        peers.changes += 1;
        peers.connected.retain(|peer| !peer.is_transport_closed());
        let listening: Vec<_> = peers.listening.iter().filter_map(Weak::upgrade).collect();
        peers.listening.retain(|sink| sink.strong_count() > 0);
        // The caller's runtime when it has one; else the one the last client connected on.
        let current = tokio::runtime::Handle::try_current().ok();
        let Some(runtime) = current.as_ref().or(peers.runtime.as_ref()) else {
            return;
        };
        for peer in &peers.connected {
            let peer = peer.clone();
            runtime.spawn(async move {
                if let Err(error) = peer.notify_tool_list_changed().await {
                    tracing::debug!(%error, "tools/list_changed not delivered");
                }
            });
        }
        for sink in listening {
            runtime.spawn(async move { tell(&sink).await });
        }
    }
}

/// Sends `notifications/tools/list_changed` on a stream.
async fn tell(sink: &SubscriptionSink) {
    match sink.notify_tool_list_changed().await {
        // The stream ended between the change and now: nobody to tell.
        Ok(()) | Err(SubscriptionSendError::SubscriptionClosed) => {}
        Err(error) => tracing::debug!(%error, "tools/list_changed not delivered"),
    }
}

impl<S: Send + Sync + 'static> Set<S> {
    fn entry(&self, name: &str) -> Option<&Entry<S>> {
        self.entries
            .iter()
            .find(|entry| entry.tool.info().name() == name)
    }

    fn serves(&self, entry: &Entry<S>) -> bool {
        entry.enabled
            && !entry
                .tool
                .info()
                .tags()
                .any(|tag| self.disabled_tags.contains(tag))
    }

    /// The registry of the tools served.
    fn registry(&self) -> ToolRegistry<S> {
        let (tools, published) = self
            .entries
            .iter()
            .filter(|entry| self.serves(entry))
            .map(|entry| (entry.tool.clone(), entry.published.clone()))
            .unzip();
        ToolRegistry::from_published(tools, published)
            .with_input_mode(self.input_mode)
            .with_input_limits(self.input_limits)
    }
}

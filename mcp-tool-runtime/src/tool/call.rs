//! One call of a tool: the arguments as the client sent them, and the call's surroundings.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::blocking::{Erased, run_blocking, run_heavy_erased, unbox};
use super::context::{CallScope, ToolContext};
use super::info::{InfoRef, ToolInfo};
use crate::error::{ToolError, Violation};
use crate::input::{self, InputLimits, InputMode};
use crate::large::LARGE_INPUT_VALUES;
use crate::render::ToolOutput;

/// The arguments and surroundings of one call, handed to a tool's handler.
pub struct ToolCall<'a> {
    arguments: Option<Sent<'a>>,
    info: InfoRef,
    scope: Option<&'a CallScope>,
    input_mode: InputMode,
    input_limits: InputLimits,
}

/// A tool's parse whose result is boxed (see [`ToolCall::parse_off_executor`]).
type ErasedParse = Box<dyn FnOnce(&ToolCall<'_>) -> Result<Erased, ToolError> + Send>;

/// A tool's parse of its arguments (see [`ToolCall::parse`]), as the generated code passes it.
pub type Parse<A> = fn(&ToolCall<'_>) -> Result<A, ToolError>;

/// A sync tool's body bound to its arguments: it runs the tool and hands back the rendering
/// of its output, done on the executor.
pub type BoundBody = Box<dyn FnOnce() -> Rendering + Send>;

/// The rendering of a sync tool's output. On the executor rather than on the pool that ran the
/// tool, where the answer's allocations would be freed by another thread than made them: P1s
/// 3.2 against 4.2 a sync call.
pub type Rendering = Box<dyn FnOnce() -> Result<ToolOutput, ToolError> + Send>;

/// A sync tool's parse, which hands back the tool's body bound to the arguments it read.
pub type BindBody = Box<dyn FnOnce(&ToolCall<'_>) -> Result<BoundBody, ToolError> + Send>;

impl<'a> ToolCall<'a> {
    /// A call of the tool `info` with `arguments` as the client sent them, with a detached
    /// context.
    pub fn new(info: &'static ToolInfo, arguments: Option<&'a Value>) -> Self {
        Self::with(InfoRef::Static(info), arguments.map(Sent::Lent))
    }

    /// A call of the tool `info`, static or built at run time, with the arguments a server
    /// received.
    pub(crate) fn of(info: InfoRef, arguments: Option<&'a Arguments>) -> Self {
        let sent = arguments.map(|arguments| match arguments {
            Arguments::Small(value) => Sent::Small(value),
            Arguments::Large(value) => Sent::Shared(value),
        });
        Self::with(info, sent)
    }

    fn with(info: InfoRef, arguments: Option<Sent<'a>>) -> Self {
        Self {
            arguments,
            info,
            scope: None,
            input_mode: InputMode::default(),
            input_limits: InputLimits::default(),
        }
    }

    /// The same call parsed under `mode`.
    pub fn with_input_mode(mut self, mode: InputMode) -> Self {
        self.input_mode = mode;
        self
    }

    /// The same call under the server's `limits`, which also bound what a lenient parse
    /// reads out of a string (see `input::repair`).
    pub(crate) fn with_input_limits(mut self, limits: InputLimits) -> Self {
        self.input_limits = limits;
        self
    }

    /// The same call inside `scope`: its context reaches the client.
    pub(crate) fn in_scope(mut self, scope: &'a CallScope) -> Self {
        self.scope = Some(scope);
        self
    }

    /// The call's context, for a tool that takes a [`ToolContext`] argument; detached when
    /// the call was built with [`ToolCall::new`] alone.
    pub fn context(&self) -> ToolContext {
        self.scope
            .map_or_else(ToolContext::detached, CallScope::context)
    }

    /// Deserializes and validates the arguments, or reports every violation.
    pub fn parse<A>(&self) -> Result<A, ToolError>
    where
        A: DeserializeOwned + validator::Validate,
    {
        input::parse(
            self.sent(),
            self.info.input(),
            self.input_mode,
            &self.input_limits,
            self.is_large(),
        )
    }

    /// Whether [`ToolCall::parse_off_executor`] would read the arguments here, at once.
    pub fn reads_here(&self) -> bool {
        !self.is_large()
    }

    /// Whether the arguments are a large input, which is read on the sync tools' threads.
    fn is_large(&self) -> bool {
        self.arguments.as_ref().is_some_and(Sent::is_large)
    }

    /// Runs `parse` (a tool's [`ToolCall::parse`]) on this call, except that a large input is
    /// read and checked on the sync tools' threads: a huge bad call (100,000 wrong items)
    /// takes a hundred milliseconds to report, which would hold an executor thread and delay
    /// every other call. Generated handlers call this, and so does a sync tool's
    /// [`ToolCall::run_bound`] with the parse that binds its body.
    pub async fn parse_off_executor<A: Send + 'static>(
        &self,
        parse: impl FnOnce(&ToolCall<'_>) -> Result<A, ToolError> + Send + 'static,
    ) -> Result<A, ToolError> {
        match &self.arguments {
            Some(sent) if sent.is_large() => {
                // Erased: each tool then compiles this small closure, not the hand-off's
                // own future and its drop (about 500 lines of LLVM IR a tool, P6).
                let erased =
                    move |call: &ToolCall<'_>| parse(call).map(|parsed| Box::new(parsed) as Erased);
                unbox(self.parse_large(sent, Box::new(erased)).await)
            }
            _ => parse(self),
        }
    }

    /// A sync tool's call: `bind` reads the arguments (on the sync tools' threads when they
    /// are large, see [`ToolCall::parse_off_executor`]), the body it binds runs on those
    /// threads, and the rendering the body hands back runs here. Not generic, so that no tool
    /// compiles a future of its own: a sync tool's handler is three boxed closures (P6: about
    /// 700 lines of LLVM IR a tool fewer).
    // The future is spelled out rather than named `BoxFuture`, which `def` defines: `def`
    // builds on this module, not the other way round.
    pub fn run_bound(
        self,
        bind: BindBody,
    ) -> Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send + 'a>> {
        Box::pin(async move {
            let body = self.parse_off_executor(bind).await?;
            run_blocking(body).await?()
        })
    }

    /// Runs `parse` on a large input on the sync tools' threads.
    async fn parse_large(&self, sent: &Sent<'_>, parse: ErasedParse) -> Result<Erased, ToolError> {
        let arguments = sent.shared();
        let (info, mode, limits) = (self.info.clone(), self.input_mode, self.input_limits);
        let parsed = run_heavy_erased(Box::new(move || {
            let call = ToolCall::with(info, Some(Sent::Shared(&arguments)))
                .with_input_mode(mode)
                .with_input_limits(limits);
            Box::new(parse(&call)) as Erased
        }))
        .await;
        unbox::<Result<Erased, ToolError>>(parsed)?
    }

    /// The arguments of a tool built at run time, checked against its input schema, as
    /// [`ToolCall::parse_off_executor`] checks a typed tool's.
    pub(crate) async fn parse_value(&self) -> Result<Value, ToolError> {
        let parse = |call: &ToolCall<'_>| {
            input::parse_value(
                call.sent(),
                call.info.input(),
                call.input_mode,
                &call.input_limits,
            )
        };
        self.parse_off_executor(parse).await
    }

    /// The tool being called.
    pub fn info(&self) -> &ToolInfo {
        &self.info
    }

    fn sent(&self) -> Option<&Value> {
        self.arguments.as_ref().map(Sent::value)
    }
}

/// The arguments a server received for a call: a large input is shared, so that it is read
/// off the executor (see [`ToolCall::parse_off_executor`]) without a copy; a small one is
/// not, and costs no allocation.
pub(crate) enum Arguments {
    Small(Value),
    Large(Arc<Value>),
}

impl Arguments {
    /// `value`, shared if it is large, and what of it is over `limits`, if anything: one walk
    /// says both (P1: 153 instructions a call fewer than a walk for each).
    // This and the other small steps every call takes outside its tool's generic code
    // (`size_arguments`, `before_validator`, `asks_in_rounds`, `runs_as_task`,
    // `name_cow`, `into_result`) are `#[inline]`, so that the call path compiled in the
    // user's crate takes them in line rather than as calls into this one: a P2 call
    // 12,208 to 11,931 instructions and 342 to 296 first-level instruction cache misses
    // (`callgrind_profile.sh ours_handler`), P2 0.925 to 0.895 (medians of 12 alternating
    // runs of `summary --only P2`).
    #[inline]
    pub(crate) fn checked(value: Value, limits: &InputLimits) -> (Self, Option<Box<Violation>>) {
        let (large, oversized) = match limits.size_arguments(&value) {
            Ok(Some(values)) => (values > LARGE_INPUT_VALUES, None),
            // Deeper than the walk follows: counted on its own.
            Ok(None) => (input::is_large(&value), None),
            Err(violation) => (false, Some(violation)),
        };
        let arguments = if large {
            Self::Large(Arc::new(value))
        } else {
            Self::Small(value)
        };
        (arguments, oversized)
    }

    /// [`Arguments::checked`] for a call's arguments, if it has any.
    pub(crate) fn checked_if_sent(
        sent: Option<Value>,
        limits: &InputLimits,
    ) -> (Option<Self>, Option<Box<Violation>>) {
        match sent {
            Some(value) => {
                let (arguments, oversized) = Self::checked(value, limits);
                (Some(arguments), oversized)
            }
            None => (None, None),
        }
    }

    /// The arguments as sent.
    pub(crate) fn value(&self) -> &Value {
        match self {
            Self::Small(value) => value,
            Self::Large(value) => value,
        }
    }
}

/// The arguments of one call, as [`ToolCall`] holds them: a server's were sized once, by
/// [`Arguments::new`].
enum Sent<'a> {
    /// Lent by the caller of [`ToolCall::new`]: not sized yet.
    Lent(&'a Value),
    /// A server's, found small.
    Small(&'a Value),
    /// A server's, found large: shared.
    Shared(&'a Arc<Value>),
}

impl Sent<'_> {
    fn value(&self) -> &Value {
        match self {
            Self::Lent(value) | Self::Small(value) => value,
            Self::Shared(value) => value,
        }
    }

    fn is_large(&self) -> bool {
        match self {
            Self::Lent(value) => input::is_large(value),
            Self::Small(_) => false,
            Self::Shared(_) => true,
        }
    }

    /// The arguments to move to another thread: copied only when they were not shared.
    fn shared(&self) -> Arc<Value> {
        match self {
            Self::Lent(value) | Self::Small(value) => Arc::new((*value).clone()),
            Self::Shared(value) => Arc::clone(value),
        }
    }
}

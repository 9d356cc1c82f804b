//! What a tool is: its definition (built once), its handler, one call of it, its context,
//! and what it may return.

mod asking;
mod blocking;
mod call;
mod context;
mod context_error;
mod def;
mod elicit;
mod finite;
mod info;
mod output;
mod principal;
mod rounds;
mod state;

pub use asking::Question;
pub use blocking::run_blocking;
#[cfg(feature = "http")]
pub(crate) use blocking::run_heavy;
pub(crate) use call::Arguments;
pub use call::ToolCall;
pub use context::ToolContext;
pub(crate) use context::{CallScope, Connected, Session};
pub use context_error::{ClientCapability, ContextError};
pub use def::{BoxFuture, Handler, ToolDef, ToolSet};
pub use elicit::Elicitation;
pub use info::{Hints, SchemaError, ToolInfo, ToolInfoBuilder};
pub use output::{IntoToolOutput, Json};
pub use principal::Principal;
pub(crate) use principal::principal_of;
pub(crate) use rounds::Rounds;
pub use state::Shared;

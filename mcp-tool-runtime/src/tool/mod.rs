//! A tool: its definition, what it returns, its context during a call, and the tools of a
//! state type.
//!
#![doc = include_str!("../../docs/tools.md")]

// Inside: the definition, built once (`info`, `info_builder`, `def`); one call of it (`call`,
// `blocking` for sync tools); its context (`context`, `asking`, `elicit`, `finite`); what it
// may return (`output`).

mod asking;
pub(crate) mod blocking;
pub(crate) mod call;
mod context;
mod context_error;
pub(crate) mod def;
mod elicit;
mod finite;
mod info;
mod info_builder;
mod name;
mod output;
mod principal;
mod rounds;
mod state;
mod task;
pub(crate) mod ui;

pub use crate::render::ToolOutput;
pub use asking::Question;
#[cfg(feature = "http")]
pub(crate) use blocking::run_heavy;
pub(crate) use call::Arguments;
pub(crate) use call::ToolCall;
pub use context::ToolContext;
pub(crate) use context::{CallScope, Connected, Session};
pub use context_error::{ClientCapability, ContextError};
pub(crate) use def::BoxFuture;
pub use def::{ToolDef, ToolSet};
pub use elicit::Elicitation;
pub use info::{Hints, ToolInfo};
pub use info_builder::{SchemaError, ToolInfoBuilder};
pub use name::ToolNameError;
pub use output::{IntoToolOutput, Json};
pub use principal::Principal;
pub(crate) use principal::principal_of;
pub(crate) use rounds::Rounds;
pub use state::Shared;
pub(crate) use task::{Started, TaskLink, TaskRecord, TaskSettings, TaskWriteError, Tasks};
pub use task::{TaskStart, TaskSupport};
pub use ui::UiVisibility;

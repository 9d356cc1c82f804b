//! A user's error type that knows which [`ToolError`] each of its values is.
//!
//! # Why a registry
//! `ToolError` converts from every `std::error::Error` (masked), so that `?` works on any
//! foreign error. That blanket `From` is also why a user cannot write
//! `impl From<ShopError> for ToolError` (E0119), and stable Rust has no specialization to let
//! a more specific impl win. So the blanket `From` looks the error's type up in a registry
//! that `#[derive(ToolError)]` fills at link time (the `inventory` crate): a registered type
//! is converted by its own mapping, anything else is masked. `?` inside a tool that returns
//! `Result<T, ToolError>` and a tool returning `Result<T, ShopError>` both go through that
//! `From`, so both keep the mapping. The look-up runs only on the error path.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::LazyLock;

use super::tool_error::ToolError;

/// An error type whose values map to tool errors: codes, messages shown or masked, hints.
/// Derive it with `#[derive(ToolError)]` (see the crate documentation); implementing it by
/// hand also needs [`register_error_mapping!`](crate::register_error_mapping) so that `?`
/// finds it.
pub trait IntoToolError: std::error::Error + Send + Sync + Sized + 'static {
    /// The tool error this value is.
    fn into_tool_error(self) -> ToolError;
}

/// Turns a boxed value of one error type into its tool error (`None` for another type).
type Convert = fn(Box<dyn Any>) -> Option<ToolError>;

/// One registered mapping: a type, and how to turn a boxed value of it into a tool error.
#[doc(hidden)]
pub struct ErrorMapping {
    type_id: fn() -> TypeId,
    convert: Convert,
}

impl ErrorMapping {
    /// The mapping of `E`.
    pub const fn of<E: IntoToolError>() -> Self {
        Self {
            type_id: TypeId::of::<E>,
            convert: convert::<E>,
        }
    }
}

fn convert<E: IntoToolError>(error: Box<dyn Any>) -> Option<ToolError> {
    error
        .downcast::<E>()
        .ok()
        .map(|error| error.into_tool_error())
}

inventory::collect!(ErrorMapping);

/// Every registered mapping by type, gathered once.
static MAPPINGS: LazyLock<HashMap<TypeId, Convert>> = LazyLock::new(|| {
    inventory::iter::<ErrorMapping>
        .into_iter()
        .map(|mapping| ((mapping.type_id)(), mapping.convert))
        .collect()
});

/// `error` through its type's registered mapping, or masked when its type has none.
fn classify<E>(error: E) -> ToolError
where
    E: std::error::Error + Send + Sync + 'static,
{
    match MAPPINGS.get(&TypeId::of::<E>()) {
        // The map is keyed by the type, so the mapping's downcast cannot fail; should it, the
        // call still fails masked rather than silently.
        Some(convert) => {
            convert(Box::new(error)).unwrap_or_else(|| ToolError::internal(MappingLost))
        }
        None => ToolError::internal(error),
    }
}

/// The registry found a mapping whose type did not match: a bug of this crate.
#[derive(Debug)]
struct MappingLost;

impl std::fmt::Display for MappingLost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an error mapping did not accept its own type")
    }
}

impl std::error::Error for MappingLost {}

/// An error of a type with a registered mapping (`#[derive(ToolError)]`) converts through
/// it; any other error is masked: its text goes to the log, never to the model.
///
/// `anyhow::Error` does not implement `std::error::Error`, and a `From` impl for it would
/// clash with this one; convert it with `.map_err(ToolError::internal)`.
impl<E> From<E> for ToolError
where
    E: std::error::Error + Send + Sync + 'static,
{
    fn from(error: E) -> Self {
        classify(error)
    }
}

/// Registers a hand-written [`IntoToolError`] implementation so that `?` uses it.
/// `#[derive(ToolError)]` does this itself. Shown as `error::register_error_mapping!`.
#[doc(hidden)]
#[macro_export]
macro_rules! register_error_mapping {
    ($type:ty) => {
        $crate::__private::inventory::submit! {
            $crate::__private::ErrorMapping::of::<$type>()
        }
    };
}

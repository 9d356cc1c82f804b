//! The two sides of a tool a schema can describe, which some profiles publish differently.

/// Which side of a tool a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SchemaRole {
    /// The arguments the client sends.
    Input,
    /// The structured result the server returns.
    Output,
}

//! Schemas: the profiles that shape what clients are shown.
//!
#![doc = include_str!("../../docs/schemas.md")]

// Every module that reads a schema (validation, repair, descriptions, the profiles) reads it
// through `doc`'s `SchemaDoc` and its predicates.

mod close;
mod describe;
mod doc;
mod elicit;
mod gemini;
mod generate;
mod portable;
mod profile;
mod rewrite;
mod role;
mod strict;

pub(crate) use close::close_nested_objects;
pub(crate) use describe::{describe, number_range, signature, union_types};
pub(crate) use doc::{
    SchemaDoc, constants_of, declared_types, find, is_map, is_null_schema, item_schema, member,
    required_names,
};
pub(crate) use elicit::elicitation_form;
pub(crate) use generate::{input_schema, is_object_schema, output_schema};
pub use profile::{SchemaProfile, UnknownProfile};
pub(crate) use role::SchemaRole;
pub(crate) use strict::{MAP_PAIR_KEY, MAP_PAIR_VALUE};

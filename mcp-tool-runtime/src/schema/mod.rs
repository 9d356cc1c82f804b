//! Schema generation and the profiles that shape what clients are shown.
//!
//! A tool's *canonical* schema is what schemars writes (JSON Schema 2020-12, with `$defs`).
//! The runtime validates against the canonical schema. Clients are shown a *published*
//! schema, derived from the canonical one by a [`SchemaProfile`] once per server, never per
//! call or per listing.
//!
//! The profiles themselves are documented on [`SchemaProfile`], where users read them.
//!
//! # Reading
//! Every module that reads a schema (validation, repair, descriptions, the profiles) reads
//! it through [`doc`]'s `SchemaDoc` and its predicates.

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
    SchemaDoc, constants_of, declared_types, is_map, is_null_schema, item_schema, required_names,
};
pub(crate) use elicit::elicitation_form;
pub(crate) use generate::{input_schema, is_object_schema, output_schema};
pub use profile::{SchemaProfile, UnknownProfile};
pub(crate) use role::SchemaRole;
pub(crate) use strict::{MAP_PAIR_KEY, MAP_PAIR_VALUE};

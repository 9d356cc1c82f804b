//! In-process integration tests of the core contract of `#[mcp_tool]`: messages, the error
//! envelope, error codes, masking, unknown tools, schemas, return types, tool sets and
//! whole-input structs. Every call goes through `McpServer::call`, exactly as `tools/call`
//! would.
//!
//! One module per section of the contract, each with the fixtures only its tests use;
//! `fixtures` holds the ones several sections share and the servers.

mod fixtures;

mod bounded;
mod caching;
mod closed_objects;
mod codes;
mod composition;
mod constraints;
mod custom_rules;
mod descriptions;
mod enums_and_defaults;
mod envelope;
mod error_types;
mod identity;
mod live_tools;
mod masking;
mod methods;
mod middleware;
mod missing_and_unknown;
mod numbers;
mod registry_errors;
mod return_types;
mod revisions;
mod schemas;
mod structured_outputs;
mod sync_tools;
mod test_client;
mod type_mismatches;
mod unknown_tools;
mod valid_call;
mod whole_input;
mod wire_names;

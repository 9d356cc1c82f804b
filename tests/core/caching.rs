//! Caching: tool definitions and the tool list are built once.

use mcp_tool_runtime::tool::ToolSet;

use crate::fixtures::{Counter, counter_server, quote_tool, server};

#[test]
fn tool_definitions_are_built_once() {
    let (first, second) = (quote_tool::<()>(), quote_tool::<()>());
    let (first, second) = (first.info(), second.info());
    assert!(std::ptr::eq(first, second));
    // The definition does not depend on the state type.
    assert!(std::ptr::eq(first, quote_tool::<Counter>().info()));
    assert!(std::ptr::eq(
        first.input_schema(),
        quote_tool::<()>().info().input_schema()
    ));
}

#[test]
fn method_definitions_are_built_once() {
    let first = Counter::tools();
    let second = Counter::tools();
    assert_eq!(first.len(), second.len());
    for (a, b) in first.iter().zip(&second) {
        assert!(std::ptr::eq(a.info(), b.info()), "{}", a.info().name());
    }
}

#[test]
fn the_tool_list_is_built_once_per_server() {
    let server = server();
    // Two snapshots of an unchanged tool set are one registry: nothing is rebuilt per call.
    let (first, second) = (server.registry(), server.registry());
    let (first, second) = (first.list(), second.list());
    assert!(std::ptr::eq(first, second));
    assert!(std::sync::Arc::ptr_eq(
        &first[0].input_schema,
        &server.registry().list()[0].input_schema
    ));
    assert!(std::ptr::eq(
        server.registry().published("quote").unwrap(),
        &first[0]
    ));
}

#[test]
fn the_list_keeps_registration_order() {
    let names: Vec<String> = counter_server()
        .registry()
        .list()
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(names, ["get", "add", "double", "broken", "hello"]);
}

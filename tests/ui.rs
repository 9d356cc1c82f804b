//! Compile-time checks of `#[mcp_tool]`: each case in `ui/` must fail with the reviewed
//! diagnostics in its `.stderr` file; each case in `ui/pass/` must compile and run (their
//! `main` asserts on the generated schemas and calls).
//!
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test -p mcp-tool-tests --test
//! ui`, then read every changed `.stderr`: each should show one clear error (or a few) on the
//! offending token. The output depends on the rustc version.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
    cases.pass("ui/pass/*.rs");
}

//! Shared helpers of mcp-tool's integration tests.

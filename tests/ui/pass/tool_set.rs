//! `#[mcp_tools]` with async and sync methods, an associated function without `self`, a
//! fully qualified `#[mcp_tool]` path, and an ordinary helper method beside the tools.
//! Importing `mcp_tool` for the methods does not warn as unused. A second, named block
//! with an explicit visibility, in another module, registered on `Arc` state.

#![deny(unused_imports, dead_code)]

use std::sync::Mutex;

use mcp_tool_runtime::{Json, McpServer, ToolError, mcp_tool, mcp_tools, tool::ToolSet};

#[derive(Default)]
struct Cart {
    items: Mutex<Vec<String>>,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Summary {
    count: usize,
}

#[mcp_tools]
impl Cart {
    /// Add an item to the cart.
    #[mcp_tool]
    async fn add_item(&self, sku: String) -> Result<String, ToolError> {
        self.items.lock().unwrap().push(sku.clone());
        Ok(format!("added {sku}"))
    }

    /// Summarize the cart.
    #[mcp_tool(read_only, name = "cart.summary")]
    fn summary(&self) -> Json<Summary> {
        Json(Summary {
            count: self.items.lock().unwrap().len(),
        })
    }

    /// The currency every price is in.
    #[mcp_tool_runtime::mcp_tool(read_only)]
    fn currency() -> &'static str {
        "EUR"
    }

    /// Not a tool: an ordinary helper beside the tools.
    fn clear(&self) {
        self.items.lock().unwrap().clear();
    }
}

mod admin {
    use mcp_tool_runtime::{mcp_tool, mcp_tools};

    #[mcp_tools(name = admin_tools, vis = pub)]
    impl super::Cart {
        /// Empty the cart.
        #[mcp_tool(destructive)]
        fn empty(&self) -> &'static str {
            self.clear();
            "emptied"
        }
    }
}

fn main() {
    let admin: Vec<mcp_tool_runtime::ToolDef<Cart>> = Cart::admin_tools();
    assert_eq!(admin[0].info().name(), "empty");
    let _shared = McpServer::builder(std::sync::Arc::new(Cart::default()))
        .tool_set()
        .tools(Cart::admin_tools())
        .build()
        .unwrap();
    let tools = Cart::tools();
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool.info().name())
        .collect();
    assert_eq!(names, ["add_item", "cart.summary", "currency"]);
    let cart = Cart::default();
    let _server = McpServer::builder(cart).tool_set().build().unwrap();
}

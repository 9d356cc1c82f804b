use mcp_tool_runtime::mcp_tool;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    city: String,
    celsius: f64,
}

/// Current weather of a city.
#[mcp_tool]
fn weather(city: String) -> Weather {
    Weather {
        city,
        celsius: 21.5,
    }
}

fn main() {}

//! Every corpus tool, under every profile, obeys that profile's rules.

use mcp_tool_corpus::{rules, server};
use mcp_tool_runtime::SchemaProfile;
use serde_json::Value;

fn published(profile: SchemaProfile) -> Vec<Value> {
    server(profile)
        .registry()
        .list()
        .iter()
        .map(|tool| serde_json::to_value(tool).unwrap())
        .collect()
}

#[test]
fn every_schema_obeys_its_profile_rules() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for profile in SchemaProfile::ALL {
        for tool in published(profile) {
            let name = tool["name"].as_str().unwrap().to_string();
            assert!(rules::name_ok(profile.name(), &name), "{profile}: {name}");
            let input = &tool["inputSchema"];
            let output = tool.get("outputSchema");
            let mut found = match profile {
                SchemaProfile::Portable => rules::portable(input, true),
                SchemaProfile::Strict => rules::strict(input),
                SchemaProfile::Gemini => rules::gemini(input),
                _ => Vec::new(),
            };
            checked += 1;
            // Output schemas are read by MCP clients' validators: portable unless full.
            if let Some(output) = output
                && profile != SchemaProfile::Full
            {
                found.extend(rules::portable(output, false));
                checked += 1;
            }
            for finding in found {
                failures.push(format!("{profile} {name} {}: {}", finding.at, finding.rule));
            }
        }
    }
    assert!(checked >= 4 * 40, "{checked} schemas");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_corpus_has_at_least_forty_types() {
    assert!(mcp_tool_corpus::tools().len() >= 40);
}

#[test]
#[ignore = "prints the published schemas for a look: --ignored --nocapture"]
fn dump() {
    let filter = std::env::var("DUMP").unwrap_or_default();
    for profile in SchemaProfile::ALL {
        for tool in published(profile) {
            if filter
                .split(',')
                .any(|f| format!("{profile}:{}", tool["name"].as_str().unwrap()) == f)
            {
                println!("{profile} {}", serde_json::to_string(&tool).unwrap());
            }
        }
    }
}

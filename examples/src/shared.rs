//! What several instances of an example share behind a load balancer: the store of tasks and
//! rate limits (`--redis URL`) and the key that seals multi-round-trip state
//! (`--request-state-key HEX`).

use std::sync::Arc;

use mcp_tool_runtime::store::{RedisStore, Store};

/// The options of the command line that concern sharing.
#[derive(Debug, Default, Clone)]
pub struct Sharing {
    /// `--redis URL`: tasks and rate limits in this Redis.
    pub redis: Option<String>,
    /// `--request-state-key HEX`: the key of sealed `requestState`s, decoded.
    pub request_state_key: Option<Vec<u8>>,
}

impl Sharing {
    /// Reads `word` (and its value from `rest`) if it is one of the sharing options: `Ok(true)`
    /// when it was.
    pub fn read(
        &mut self,
        word: &str,
        rest: &mut impl Iterator<Item = String>,
    ) -> Result<bool, String> {
        match word {
            "--redis" => self.redis = Some(rest.next().ok_or("--redis needs a URL")?),
            "--request-state-key" => {
                let text = rest.next().ok_or("--request-state-key needs hex digits")?;
                self.request_state_key = Some(hex(&text)?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The shared store, when `--redis` named one.
    pub async fn store(&self) -> Result<Option<Arc<dyn Store>>, String> {
        let Some(url) = &self.redis else {
            return Ok(None);
        };
        let store = RedisStore::connect(url)
            .await
            .map_err(|error| format!("cannot use Redis at {url}: {error}"))?;
        Ok(Some(Arc::new(store)))
    }
}

/// Bytes written as hex digits.
fn hex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text.trim();
    if !digits.len().is_multiple_of(2) {
        return Err("--request-state-key takes an even number of hex digits".into());
    }
    (0..digits.len())
        .step_by(2)
        .map(|at| {
            digits
                .get(at..at + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| format!("--request-state-key: '{digits}' is not hex"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::hex;

    #[test]
    fn hex_keys_decode_and_bad_ones_are_refused() {
        assert_eq!(hex("00ff10"), Ok(vec![0, 255, 16]));
        assert!(hex("abc").is_err());
        assert!(hex("zz").is_err());
    }
}

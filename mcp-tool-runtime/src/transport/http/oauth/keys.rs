//! The issuer's signing keys: found through its metadata, fetched once, kept while the
//! issuer is away, fetched again for a key id never seen (at most once per cooldown), and
//! refreshed in the background once old.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

use super::discovery::IssuerMetadata;
use super::fetch::{FetchError, Fetcher};

/// One verification key of the issuer's set.
pub(super) struct Key {
    kid: Option<String>,
    /// The algorithm the key is for, when the JWK says (`alg`).
    alg: Option<String>,
    /// The algorithms a key of its type can check: a token naming another is never
    /// checked with it (an RSA key as an HMAC secret, say).
    algorithms: &'static [Algorithm],
    pub(super) key: DecodingKey,
}

impl Key {
    /// The key of a JWK of an asymmetric type meant for signatures; `None` for any other
    /// (a symmetric `oct` key is never used: a public key set cannot hold a secret).
    fn from_jwk(jwk: &Jwk) -> Option<Self> {
        if matches!(jwk.common.public_key_use, Some(ref usage) if *usage != PublicKeyUse::Signature)
        {
            return None;
        }
        let algorithms: &'static [Algorithm] = match &jwk.algorithm {
            AlgorithmParameters::RSA(_) => &[
                Algorithm::RS256,
                Algorithm::RS384,
                Algorithm::RS512,
                Algorithm::PS256,
                Algorithm::PS384,
                Algorithm::PS512,
            ],
            AlgorithmParameters::EllipticCurve(_) => &[Algorithm::ES256, Algorithm::ES384],
            AlgorithmParameters::OctetKeyPair(_) => &[Algorithm::EdDSA],
            _ => return None,
        };
        Some(Self {
            kid: jwk.common.key_id.clone(),
            alg: jwk.common.key_algorithm.map(|alg| format!("{alg:?}")),
            algorithms,
            key: DecodingKey::from_jwk(jwk).ok()?,
        })
    }

    /// Whether this key may check a token signed with `alg` that names `kid`.
    fn fits(&self, kid: Option<&str>, alg: Algorithm) -> bool {
        let kid_fits = match (kid, &self.kid) {
            (Some(wanted), Some(own)) => wanted == own,
            (Some(_), None) => false,
            (None, _) => true,
        };
        kid_fits
            && self.algorithms.contains(&alg)
            && self
                .alg
                .as_deref()
                .is_none_or(|own| own == format!("{alg:?}"))
    }
}

/// The keys as last fetched.
#[derive(Default)]
pub(super) struct KeySet {
    keys: Vec<Arc<Key>>,
    fetched: Option<Instant>,
}

impl KeySet {
    /// The keys that may check a token signed with `alg` naming `kid`.
    pub(super) fn candidates(&self, kid: Option<&str>, alg: Algorithm) -> Vec<Arc<Key>> {
        self.keys
            .iter()
            .filter(|key| key.fits(kid, alg))
            .cloned()
            .collect()
    }

    fn parse(document: &Value) -> Result<Self, FetchError> {
        let Some(keys) = document.get("keys").and_then(Value::as_array) else {
            return Err(FetchError::BadAnswer(
                "the key set has no `keys` array".into(),
            ));
        };
        let keys = keys
            .iter()
            .filter_map(|jwk| serde_json::from_value::<Jwk>(jwk.clone()).ok())
            .filter_map(|jwk| Key::from_jwk(&jwk))
            .map(Arc::new)
            .collect();
        Ok(Self {
            keys,
            fetched: Some(Instant::now()),
        })
    }
}

/// How often the keys are fetched.
#[derive(Clone, Copy)]
pub(super) struct KeyPolicy {
    /// The least time between two fetches the call path causes (an unknown key id, or no
    /// keys yet).
    pub(super) cooldown: Duration,
    /// Keys older than this are fetched again, in the background.
    pub(super) max_age: Duration,
}

/// The issuer's keys, shared by every call.
pub(super) struct KeyStore {
    pub(super) issuer: Arc<IssuerMetadata>,
    fetcher: Arc<dyn Fetcher>,
    policy: KeyPolicy,
    keys: ArcSwap<KeySet>,
    /// When the call path last caused a fetch: its rate limit.
    last_attempt: Mutex<Option<Instant>>,
    /// One fetch at a time: calls that find a fetch under way wait for its keys.
    fetching: tokio::sync::Mutex<()>,
}

impl KeyStore {
    pub(super) fn new(
        issuer: Arc<IssuerMetadata>,
        fetcher: Arc<dyn Fetcher>,
        policy: KeyPolicy,
    ) -> Self {
        Self {
            issuer,
            fetcher,
            policy,
            keys: ArcSwap::from_pointee(KeySet::default()),
            last_attempt: Mutex::new(None),
            fetching: tokio::sync::Mutex::new(()),
        }
    }

    /// What the store was made of, to make another with a changed part.
    pub(super) fn parts(&self) -> (Arc<IssuerMetadata>, Arc<dyn Fetcher>, KeyPolicy) {
        (
            Arc::clone(&self.issuer),
            Arc::clone(&self.fetcher),
            self.policy,
        )
    }

    /// The keys as they are now.
    pub(super) fn current(&self) -> Arc<KeySet> {
        self.keys.load_full()
    }

    /// Fetches the key set now, whatever the rate limit; on failure the keys held stay.
    pub(super) async fn refresh(&self) -> Result<(), FetchError> {
        let _one = self.fetching.lock().await;
        self.fetch().await
    }

    /// Fetches the keys once more for a token whose key is not held, unless the call path
    /// did so less than the cooldown ago: a flood of tokens with made-up key ids costs the
    /// issuer one request per cooldown. Calls that arrive during a fetch wait for it.
    pub(super) async fn refetch_for_unknown(&self) -> Arc<KeySet> {
        let before = self.current().fetched;
        let _one = self.fetching.lock().await;
        if self.current().fetched != before {
            // Another call fetched while this one waited.
            return self.current();
        }
        if !self.may_attempt() {
            return self.current();
        }
        if let Err(error) = self.fetch().await {
            tracing::warn!(%error, "could not fetch the issuer's keys; the keys held stay in use");
        }
        self.current()
    }

    /// Starts a fetch in the background when the keys are older than the policy allows,
    /// and the call path may cause one: the call that notices goes on with the keys held.
    pub(super) fn refresh_if_old(self: &Arc<Self>) {
        let old = self
            .current()
            .fetched
            .is_some_and(|fetched| fetched.elapsed() > self.policy.max_age);
        if !old || !self.may_attempt() {
            return;
        }
        let store = Arc::clone(self);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Ok(_one) = store.fetching.try_lock()
                    && let Err(error) = store.fetch().await
                {
                    tracing::warn!(%error, "could not refresh the issuer's keys; the keys held stay in use");
                }
            });
        }
    }

    /// Whether the call path may cause a fetch now; if so, the attempt is recorded.
    fn may_attempt(&self) -> bool {
        let mut last = self
            .last_attempt
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let allowed = last.is_none_or(|at| at.elapsed() >= self.policy.cooldown);
        if allowed {
            *last = Some(Instant::now());
        }
        allowed
    }

    async fn fetch(&self) -> Result<(), FetchError> {
        let jwks_uri = self.issuer.jwks_uri(self.fetcher.as_ref()).await?;
        let document = self.fetcher.get_json(&jwks_uri).await?;
        let keys = KeySet::parse(&document)?;
        tracing::info!(keys = keys.keys.len(), %jwks_uri, "fetched the issuer's keys");
        self.keys.store(Arc::new(keys));
        Ok(())
    }
}

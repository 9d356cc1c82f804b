//! A token issuer's signing key, for the tests and benches that sign their own access
//! tokens with fixture keys (feature `jwt`).

use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::Value;

/// A signing key of a test's issuer: the private half, and the JWK it publishes.
pub struct SigningKey {
    /// The key id, in the JWK and in the header of each token it signs.
    pub kid: &'static str,
    /// What it signs with.
    pub alg: Algorithm,
    /// The private half.
    pub private: EncodingKey,
    /// The public half, as the issuer publishes it.
    pub public: Jwk,
}

impl SigningKey {
    /// The PEM private key `pem` for `alg` (RS256, ES256, or else EdDSA), published as `kid`.
    pub fn load(kid: &'static str, alg: Algorithm, pem: &[u8]) -> Self {
        let private = match alg {
            Algorithm::RS256 => EncodingKey::from_rsa_pem(pem),
            Algorithm::ES256 => EncodingKey::from_ec_pem(pem),
            _ => EncodingKey::from_ed_pem(pem),
        }
        .expect("a fixture key");
        let mut public = Jwk::from_encoding_key(&private, alg).expect("its JWK");
        public.common.key_id = Some(kid.to_string());
        Self {
            kid,
            alg,
            private,
            public,
        }
    }

    /// `claims` signed with this key, the header naming its kid and `typ: at+jwt`.
    pub fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid.to_string());
        header.typ = Some("at+jwt".into());
        encode(&header, claims, &self.private).expect("a signed token")
    }
}

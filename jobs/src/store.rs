//! Raw files, content-addressed by SHA-256, through `object_store` (a local directory by default).

use object_store::{ObjectStore, ObjectStoreExt, PutPayload, local::LocalFileSystem, path::Path};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// Where raw files live.
#[derive(Clone, Debug)]
pub struct FileStore {
    inner: Arc<dyn ObjectStore>,
}

/// Why a file could not be stored or read back.
#[derive(Debug, thiserror::Error)]
#[error("file store: {0}")]
pub struct StoreError(String);

impl FileStore {
    /// A local directory, created if missing.
    pub fn local(dir: &std::path::Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError(format!("cannot create {}: {e}", dir.display())))?;
        let fs = LocalFileSystem::new_with_prefix(dir).map_err(|e| StoreError(e.to_string()))?;
        Ok(Self { inner: Arc::new(fs) })
    }

    /// Any `object_store` backend.
    pub fn new(inner: Arc<dyn ObjectStore>) -> Self {
        Self { inner }
    }

    /// The SHA-256 of `bytes`, hex.
    pub fn sha256(bytes: &[u8]) -> String {
        hex::encode(Sha256::digest(bytes))
    }

    fn path(sha: &str) -> Path {
        Path::from(format!("bank-reports/{}/{sha}", sha.get(..2).unwrap_or("00")))
    }

    /// Stores `bytes` under their hash (writing the same bytes twice is harmless); returns the hash.
    pub async fn put(&self, bytes: Vec<u8>) -> Result<String, StoreError> {
        let sha = Self::sha256(&bytes);
        self.inner
            .put(&Self::path(&sha), PutPayload::from(bytes))
            .await
            .map_err(|e| StoreError(e.to_string()))?;
        Ok(sha)
    }

    /// The bytes stored under `sha`.
    pub async fn get(&self, sha: &str) -> Result<Vec<u8>, StoreError> {
        let r = self
            .inner
            .get(&Self::path(sha))
            .await
            .map_err(|e| StoreError(e.to_string()))?;
        Ok(r.bytes().await.map_err(|e| StoreError(e.to_string()))?.to_vec())
    }
}

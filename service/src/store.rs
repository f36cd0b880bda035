//! Raw files, content-addressed by SHA-256, through `object_store`: a local directory by default, or an S3-compatible
//! bucket by URL.

use object_store::{
    ObjectStore, ObjectStoreExt, PutPayload,
    aws::{AmazonS3Builder, AmazonS3ConfigKey},
    local::LocalFileSystem,
    path::Path,
    prefix::PrefixStore,
};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// The largest upload accepted by default, in bytes (`--max-upload-bytes`): a bank's sheet of a million rows fits.
pub const DEFAULT_MAX_UPLOAD_BYTES: usize = 256 * 1024 * 1024;

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

    /// The store `location` names: `s3://bucket[/prefix][?option=value&…]` for an S3-compatible bucket, otherwise
    /// (or `file://…`) a local directory. S3 options are `object_store`'s (`endpoint`, `region`, `allow_http`,
    /// `access_key_id`, `secret_access_key`, `skip_signature`, …); what the URL does not say comes from the usual
    /// `AWS_*` environment variables (`AWS_ENDPOINT`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, …).
    pub fn open(location: &str) -> Result<Self, StoreError> {
        let Some(rest) = location.strip_prefix("s3://") else {
            let dir = location.strip_prefix("file://").unwrap_or(location);
            return Self::local(std::path::Path::new(dir));
        };
        let (target, query) = rest.split_once('?').unwrap_or((rest, ""));
        let (bucket, prefix) = target.split_once('/').unwrap_or((target, ""));
        if bucket.is_empty() {
            return Err(StoreError(format!("{location}: no bucket after s3://")));
        }
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, "true"));
            let parsed: AmazonS3ConfigKey = key
                .parse()
                .map_err(|_| StoreError(format!("{location}: unknown S3 option {key:?}")))?;
            builder = builder.with_config(parsed, value);
        }
        let s3 = builder.build().map_err(|e| StoreError(format!("{location}: {e}")))?;
        let prefix = prefix.trim_matches('/');
        Ok(Self {
            inner: if prefix.is_empty() {
                Arc::new(s3)
            } else {
                Arc::new(PrefixStore::new(s3, prefix))
            },
        })
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

    /// Deletes the file stored under `sha`; a file already gone is no error (a purge run again).
    pub async fn delete(&self, sha: &str) -> Result<(), StoreError> {
        match self.inner.delete(&Self::path(sha)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(StoreError(e.to_string())),
        }
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

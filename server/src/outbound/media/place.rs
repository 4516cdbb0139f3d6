//! Where pictures are kept: the data dir's `media/` folder (the default), or an
//! S3-compatible object store shared by every node (`--media-url`; docs/operations.md,
//! Several nodes). Pictures are named by their content, so a name once written never
//! changes: what is learnt of one (its size) may be remembered.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use object_store::ObjectStore;
use object_store::path::Path as Key;

use crate::error::{ApiResult, AppError};
use crate::model::picture::is_hash;
use crate::platform::config::MediaSettings;

#[derive(Clone)]
pub(super) enum Place {
    Local(PathBuf),
    Remote(Arc<Remote>),
}

pub(super) struct Remote {
    store: Box<dyn ObjectStore>,
    prefix: Key,
    /// Sizes in bytes already asked for (a course's answer names its pictures' sizes).
    sizes: Mutex<HashMap<String, u64>>,
}

/// Sizes remembered at most; then the memory starts again.
const SIZES_KEPT: usize = 50_000;

fn unavailable(err: &object_store::Error) -> AppError {
    tracing::warn!(%err, "the picture store did not answer");
    AppError::unavailable("media_unavailable", "Pictures cannot be reached just now. Please try again shortly.", 10)
}

impl Place {
    /// The object store of `settings`, with the keys it names. No request is made yet.
    pub(super) fn remote(settings: &MediaSettings) -> Result<Place, String> {
        let (bucket, prefix) = settings.bucket_and_prefix()?;
        let mut builder = object_store::aws::AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_region(&settings.region)
            .with_access_key_id(settings.access_key_id.expose())
            .with_secret_access_key(settings.secret_access_key.expose());
        if let Some(endpoint) = &settings.endpoint {
            builder = builder.with_endpoint(endpoint).with_allow_http(endpoint.starts_with("http://"));
        }
        let store = builder.build().map_err(|err| format!("the picture store: {err}"))?;
        Ok(Place::Remote(Arc::new(Remote {
            store: Box::new(store),
            prefix: Key::from(prefix),
            sizes: Mutex::new(HashMap::new()),
        })))
    }

    fn key(remote: &Remote, name: &str) -> Key {
        remote.prefix.child(name)
    }

    pub(super) async fn exists(&self, name: &str) -> ApiResult<bool> {
        Ok(self.size(name).await? > 0)
    }

    /// The size of `name` in bytes; 0 when it is not there.
    pub(super) async fn size(&self, name: &str) -> ApiResult<u64> {
        match self {
            Place::Local(dir) => Ok(tokio::fs::metadata(dir.join(name)).await.map_or(0, |m| m.len())),
            Place::Remote(remote) => {
                if let Some(size) = remote.sizes.lock().unwrap_or_else(|p| p.into_inner()).get(name) {
                    return Ok(*size);
                }
                let size = match remote.store.head(&Self::key(remote, name)).await {
                    Ok(meta) => meta.size,
                    Err(object_store::Error::NotFound { .. }) => return Ok(0),
                    Err(err) => return Err(unavailable(&err)),
                };
                remote.remember(name, size);
                Ok(size)
            }
        }
    }

    /// The bytes of `name`, if it is there.
    pub(super) async fn read(&self, name: &str) -> ApiResult<Option<Vec<u8>>> {
        match self {
            Place::Local(dir) => match tokio::fs::read(dir.join(name)).await {
                Ok(bytes) => Ok(Some(bytes)),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(err) => Err(err.into()),
            },
            Place::Remote(remote) => match remote.store.get(&Self::key(remote, name)).await {
                Ok(found) => Ok(Some(found.bytes().await.map_err(|err| unavailable(&err))?.to_vec())),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(err) => Err(unavailable(&err)),
            },
        }
    }

    /// Writes `name` whole: a reader never sees half of it.
    pub(super) async fn write(&self, name: &str, bytes: Vec<u8>) -> ApiResult<()> {
        match self {
            Place::Local(dir) => {
                let tmp = dir.join(format!(".{name}.{}", uuid::Uuid::new_v4()));
                tokio::fs::write(&tmp, bytes).await?;
                tokio::fs::rename(&tmp, dir.join(name)).await?;
                Ok(())
            }
            Place::Remote(remote) => {
                let size = bytes.len() as u64;
                remote.store.put(&Self::key(remote, name), bytes.into()).await.map_err(|err| unavailable(&err))?;
                remote.remember(name, size);
                Ok(())
            }
        }
    }

    /// Removes the pictures whose hash is not in `used` and that are older than `grace`
    /// (one being stored right now stays), and half-written files left by a crash.
    /// Answers how many went.
    pub(super) async fn remove_unused(&self, used: HashSet<String>, grace: Duration) -> ApiResult<usize> {
        match self {
            Place::Local(dir) => {
                let dir = dir.clone();
                Ok(tokio::task::spawn_blocking(move || remove_unused_files(&dir, &used, grace)).await??)
            }
            Place::Remote(remote) => {
                let before = crate::platform::clock::now_ms() - i64::try_from(grace.as_millis()).unwrap_or(i64::MAX);
                // Pictures lie flat under the prefix: one level lists them all.
                let listed =
                    remote.store.list_with_delimiter(Some(&remote.prefix)).await.map_err(|err| unavailable(&err))?;
                let mut removed = 0;
                for meta in listed.objects {
                    let Some(name) = meta.location.filename() else { continue };
                    if unused(name, &used) && meta.last_modified.timestamp_millis() < before {
                        remote.store.delete(&meta.location).await.map_err(|err| unavailable(&err))?;
                        remote.sizes.lock().unwrap_or_else(|p| p.into_inner()).remove(name);
                        removed += 1;
                    }
                }
                Ok(removed)
            }
        }
    }
}

impl Remote {
    fn remember(&self, name: &str, size: u64) {
        let mut sizes = self.sizes.lock().unwrap_or_else(|p| p.into_inner());
        if sizes.len() >= SIZES_KEPT {
            sizes.clear();
        }
        sizes.insert(name.to_owned(), size);
    }
}

/// A stored picture whose hash nothing uses, or a half-written file.
fn unused(name: &str, used: &HashSet<String>) -> bool {
    match name.split_once('-').map(|(hash, _)| hash).filter(|hash| is_hash(hash)) {
        Some(hash) => !used.contains(hash),
        None => name.starts_with('.'),
    }
}

fn remove_unused_files(dir: &std::path::Path, used: &HashSet<String>, grace: Duration) -> std::io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let age = entry.metadata()?.modified()?.elapsed().unwrap_or_default();
        if unused(&name, used) && age >= grace {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

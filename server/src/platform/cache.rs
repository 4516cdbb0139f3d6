//! Answers that are the same for everyone (catalogue pages), kept until the
//! data changes, with their brotli form made once: compressing on every
//! request cost more than answering (860 against 7,300 requests a second).
//! An entry is good exactly while the version it was made at is unchanged (the
//! catalogue's: `Db::catalogue_version`). Entries are bounded by count and bytes.
//!
//! A page is first compressed quickly (brotli's quality 1: ~10 µs for a search's
//! page, with tables the size of the page); only a page asked for again gets the
//! smaller form (quality 5: 15% fewer bytes, ~150 µs and a 1 MB table), made once,
//! off the request's path. Most distinct searches are asked for once.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A JSON answer and the same bytes compressed with brotli.
#[derive(Clone)]
pub struct Cached {
    pub json: Arc<[u8]>,
    pub brotli: Arc<[u8]>,
    /// Compressed at the better quality (or being so, once the entry's `polishing`).
    best: bool,
}

/// brotli's quality for a page asked for once, and for a page asked for again.
const QUICK: u32 = 1;
const BEST: u32 = 5;

impl Cached {
    /// A first answer: compressed quickly.
    pub fn quick(json: Vec<u8>) -> Cached {
        Cached::at(json.into(), QUICK)
    }

    /// The same answer compressed at the better quality.
    pub fn best(json: Arc<[u8]>) -> Cached {
        Cached::at(json, BEST)
    }

    fn at(json: Arc<[u8]>, quality: u32) -> Cached {
        let mut brotli = Vec::with_capacity(json.len() / 4);
        {
            // Quality 5: ~0.15 ms for an 18 KB page against ~3 ms at 9, for <1% more bytes.
            let mut writer = brotli::CompressorWriter::new(&mut brotli, 4096, quality, 20);
            // Writing to memory cannot fail.
            writer.write_all(&json).ok();
        }
        Cached { json, brotli: brotli.into(), best: quality >= BEST }
    }

    fn bytes(&self) -> usize {
        self.json.len() + self.brotli.len()
    }
}

/// Locks for making answers: one per stripe of keys, so a burst of the same miss
/// makes it once while misses of other keys are made in parallel.
const STRIPES: usize = 64;

struct Entries {
    map: HashMap<String, (i64, Cached)>,
    bytes: usize,
}

pub struct VersionedCache {
    entries: Mutex<Entries>,
    capacity: usize,
    max_bytes: usize,
    making: Vec<tokio::sync::Mutex<()>>,
    hasher: RandomState,
}

impl VersionedCache {
    pub fn new(capacity: usize, max_bytes: usize) -> VersionedCache {
        VersionedCache {
            entries: Mutex::new(Entries { map: HashMap::new(), bytes: 0 }),
            capacity,
            max_bytes,
            making: (0..STRIPES).map(|_| tokio::sync::Mutex::new(())).collect(),
            hasher: RandomState::new(),
        }
    }

    /// Held while the answer for `key` is made (then look in the cache again first).
    pub async fn making(&self, key: &str) -> tokio::sync::MutexGuard<'_, ()> {
        let stripe = self.hasher.hash_one(key) as usize % STRIPES;
        self.making[stripe].lock().await
    }

    /// The answer stored for `key` at `version`, if any, and whether this caller should
    /// make its better form (`polish`): true once, for the first ask after the first.
    pub fn get(&self, key: &str, version: i64) -> Option<(Cached, bool)> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (_, cached) = entries.map.get_mut(key).filter(|(at, _)| *at == version)?;
        let polish = !cached.best;
        cached.best = true;
        Some((cached.clone(), polish))
    }

    /// Replaces the answer for `key` by its better form, if it is still the one at `version`.
    pub fn polished(&self, key: &str, version: i64, better: Cached) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let Entries { map, bytes } = &mut *entries;
        if let Some((at, cached)) = map.get_mut(key)
            && *at == version
        {
            *bytes = *bytes + better.bytes() - cached.bytes();
            *cached = better;
        }
    }

    /// Stores an answer; when full (by count or bytes), everything older than
    /// `version` goes first, then everything.
    pub fn put(&self, key: String, version: i64, body: Cached) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let Entries { map, bytes } = &mut *entries;
        let full =
            |map: &HashMap<_, _>, bytes: usize| map.len() >= self.capacity || bytes + body.bytes() > self.max_bytes;
        if full(map, *bytes) {
            map.retain(|_, (at, _)| *at == version);
            *bytes = map.values().map(|(_, cached)| cached.bytes()).sum();
            if full(map, *bytes) {
                map.clear();
                *bytes = 0;
            }
        }
        if body.bytes() > self.max_bytes {
            return;
        }
        *bytes += body.bytes();
        if let Some((_, old)) = map.insert(key, (version, body)) {
            *bytes -= old.bytes();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(cached: Option<(Cached, bool)>) -> Option<String> {
        cached.map(|(c, _)| String::from_utf8(c.json.to_vec()).unwrap())
    }

    #[test]
    fn an_entry_lives_while_its_version_does() {
        let cache = VersionedCache::new(2, 1 << 20);
        cache.put("a".into(), 1, Cached::quick(b"one".to_vec()));
        assert_eq!(text(cache.get("a", 1)).as_deref(), Some("one"));
        assert!(cache.get("a", 2).is_none(), "a newer version makes it stale");
        cache.put("b".into(), 2, Cached::quick(b"two".to_vec()));
        cache.put("c".into(), 2, Cached::quick(b"three".to_vec()));
        assert!(cache.get("a", 1).is_none(), "stale entries go first when full");
        assert!(cache.get("b", 2).is_some() && cache.get("c", 2).is_some());
    }

    #[test]
    fn the_cache_holds_no_more_bytes_than_allowed() {
        let page = || Cached::quick(vec![b'x'; 600]);
        let size = page().bytes();
        let cache = VersionedCache::new(100, size * 3);
        for key in ["a", "b", "c"] {
            cache.put(key.into(), 1, page());
        }
        assert!(["a", "b", "c"].iter().all(|k| cache.get(k, 1).is_some()));
        cache.put("d".into(), 1, page());
        assert!(cache.get("d", 1).is_some(), "the newest page is kept");
        assert!(cache.entries.lock().unwrap().bytes <= size * 3);
        // The same key again replaces its bytes rather than adding to them.
        cache.put("d".into(), 1, page());
        assert_eq!(cache.entries.lock().unwrap().bytes, size);
        // A page larger than the whole cache is not kept.
        cache.put("huge".into(), 1, Cached::quick(vec![b'y'; size * 40]));
        assert!(cache.get("huge", 1).is_none());
    }
}

#[cfg(test)]
mod brotli_tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_brotli_form_holds_the_same_bytes() {
        let json = br#"{"success":true,"data":[{"title":"Tomatoes"},{"title":"Tomatoes"}]}"#.repeat(20);
        let cached = Cached::quick(json.clone());
        assert!(cached.brotli.len() < json.len() / 4);
        let mut back = Vec::new();
        brotli::Decompressor::new(&cached.brotli[..], 4096).read_to_end(&mut back).unwrap();
        assert_eq!(back, json);
    }

    #[test]
    fn a_page_asked_for_again_is_polished_once() {
        let json: Vec<u8> = br#"{"title":"Beans lot 12","farmer":"Jean Bahati"},"#.repeat(40);
        let cache = VersionedCache::new(10, 1 << 20);
        let quick = Cached::quick(json.clone());
        cache.put("page".into(), 1, quick.clone());
        let (first, polish) = cache.get("page", 1).unwrap();
        assert!(polish, "the first ask after it was made polishes it");
        assert!(!cache.get("page", 1).unwrap().1, "and only that one");
        let best = Cached::best(first.json);
        assert!(best.brotli.len() < quick.brotli.len());
        cache.polished("page", 2, best.clone());
        assert_eq!(cache.get("page", 1).unwrap().0.brotli.len(), quick.brotli.len(), "not for another version");
        cache.polished("page", 1, best.clone());
        assert_eq!(cache.get("page", 1).unwrap().0.brotli.len(), best.brotli.len());
        assert_eq!(cache.entries.lock().unwrap().bytes, best.bytes());
        let mut back = Vec::new();
        brotli::Decompressor::new(&best.brotli[..], 4096).read_to_end(&mut back).unwrap();
        assert_eq!(back, json);
    }
}

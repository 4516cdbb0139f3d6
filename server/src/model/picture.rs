//! Pictures as the rest of the data names them: by the SHA-256 of their bytes (a
//! name `outbound::media` stores them under), at a few widths.

/// A picture in a list or a card.
pub const THUMBNAIL: u32 = 320;
/// A page's main picture on a phone: a 720p screen's width (360 px at 2×, 412 px at 1.75×).
pub const MEDIUM: u32 = 720;
/// A page's main picture on a wider screen, and pictures inside texts.
pub const DISPLAY: u32 = 1024;
/// Avatars are shown small; one size is enough.
pub const AVATAR_SIZES: &[u32] = &[THUMBNAIL];
/// Photos of products, farms, courses and posts.
pub const PHOTO_SIZES: &[u32] = &[THUMBNAIL, MEDIUM, DISPLAY];

/// Whether `text` is a picture's name: 64 lower-case hex digits.
pub fn is_hash(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

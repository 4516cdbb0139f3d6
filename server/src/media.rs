//! Uploaded images: checked by their bytes (not their declared type),
//! decoded and re-encoded (which strips EXIF/GPS and defeats polyglot
//! files) into a few sizes, and stored under names made from the content
//! hash, so they can be cached forever.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use sha2::{Digest, Sha256};

use crate::error::{ApiResult, AppError};

/// The largest upload accepted for one image (docs/product.md, Constants).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// Pictures larger than this in either dimension are refused before decoding.
const MAX_DIMENSION: u32 = 12_000;
const JPEG_QUALITY: u8 = 82;

/// Avatars are shown small; one size is enough.
pub const AVATAR_SIZES: &[u32] = &[320];
/// Photos of products and farms: a thumbnail for lists and a display size.
pub const PHOTO_SIZES: &[u32] = &[320, 1024];

#[derive(Clone)]
pub struct MediaStore {
    dir: PathBuf,
}

/// A lower-case hex SHA-256: how photos and avatars are named.
pub fn is_hash(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

pub fn too_large() -> AppError {
    AppError::too_large("image_too_large", "Image size should be less than 5MB")
}

pub fn not_an_image() -> AppError {
    AppError::unsupported_media_type("Please select a valid image file")
}

impl MediaStore {
    pub fn new(data_dir: &Path) -> std::io::Result<MediaStore> {
        let dir = data_dir.join("media");
        std::fs::create_dir_all(&dir)?;
        Ok(MediaStore { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The public URL of one stored size.
    pub fn url(hash: &str, size: u32) -> String {
        format!("/media/{hash}-{size}.jpg")
    }

    /// Checks, re-encodes and stores an image at each of `sizes`; returns its content hash.
    /// Storing the same bytes twice is cheap and yields the same hash.
    pub async fn store_image(&self, bytes: Vec<u8>, sizes: &'static [u32]) -> ApiResult<String> {
        let dir = self.dir.clone();
        tokio::task::spawn_blocking(move || store_blocking(&dir, &bytes, sizes))
            .await
            // A decoder that panics on a hostile file has still only seen a bad image.
            .unwrap_or_else(|_| Err(not_an_image()))
    }
}

fn store_blocking(dir: &Path, bytes: &[u8], sizes: &[u32]) -> ApiResult<String> {
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(too_large());
    }
    let hash = hex::encode(Sha256::digest(bytes));
    let missing: Vec<u32> = sizes.iter().copied().filter(|size| !dir.join(file_name(&hash, *size)).exists()).collect();
    if missing.is_empty() {
        return Ok(hash);
    }
    let image = decode(bytes)?;
    for size in missing {
        let encoded = encode_jpeg(&image, size)?;
        let path = dir.join(file_name(&hash, size));
        // Write then rename, so a reader never sees half a file.
        let tmp = dir.join(format!(".{}.{}", file_name(&hash, size), uuid::Uuid::new_v4()));
        std::fs::write(&tmp, encoded)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(hash)
}

fn file_name(hash: &str, size: u32) -> String {
    format!("{hash}-{size}.jpg")
}

/// Decodes JPEG, PNG, GIF or WebP (recognised by magic numbers), upright.
pub fn decode(bytes: &[u8]) -> ApiResult<DynamicImage> {
    let format = image::guess_format(bytes).map_err(|_| not_an_image())?;
    if !matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::Gif | ImageFormat::WebP) {
        return Err(not_an_image());
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DIMENSION);
    limits.max_image_height = Some(MAX_DIMENSION);
    limits.max_alloc = Some(512 * 1024 * 1024);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|_| not_an_image())?;
    let orientation = decoder.orientation().map_err(|_| not_an_image())?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|_| not_an_image())?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// Fits the image within `size`×`size` (never enlarging) and encodes it as
/// JPEG, with any transparency laid on white.
fn encode_jpeg(image: &DynamicImage, size: u32) -> ApiResult<Vec<u8>> {
    let fitted = if image.width() > size || image.height() > size {
        image.resize(size, size, image::imageops::FilterType::Triangle)
    } else {
        image.clone()
    };
    let rgba = fitted.to_rgba8();
    let mut rgb = image::RgbImage::new(rgba.width(), rgba.height());
    for (out, px) in rgb.pixels_mut().zip(rgba.pixels()) {
        let alpha = u16::from(px[3]);
        for channel in 0..3 {
            out[channel] = ((u16::from(px[channel]) * alpha + 255 * (255 - alpha)) / 255) as u8;
        }
    }
    let mut buffer = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut buffer, JPEG_QUALITY)
        .encode_image(&rgb)
        .map_err(AppError::internal)?;
    Ok(buffer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(width, height, image::Rgba([20, 120, 40, 128]));
        let mut out = Vec::new();
        DynamicImage::ImageRgba8(img).write_to(&mut Cursor::new(&mut out), ImageFormat::Png).unwrap();
        out
    }

    #[test]
    fn images_are_resized_reencoded_and_named_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = png(800, 400);
        let hash = store_blocking(dir.path(), &bytes, &[320]).unwrap();
        let stored = std::fs::read(dir.path().join(file_name(&hash, 320))).unwrap();
        assert_eq!(image::guess_format(&stored).unwrap(), ImageFormat::Jpeg);
        let decoded = image::load_from_memory(&stored).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (320, 160));
        assert_eq!(store_blocking(dir.path(), &bytes, &[320]).unwrap(), hash, "same bytes, same name");
    }

    #[test]
    fn small_images_are_not_enlarged() {
        let dir = tempfile::tempdir().unwrap();
        let hash = store_blocking(dir.path(), &png(50, 40), &[320]).unwrap();
        let decoded = image::load_from_memory(&std::fs::read(dir.path().join(file_name(&hash, 320))).unwrap()).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (50, 40));
    }

    #[test]
    fn other_content_is_refused_whatever_it_claims() {
        let dir = tempfile::tempdir().unwrap();
        for bytes in [&b"<svg xmlns='http://www.w3.org/2000/svg'/>"[..], b"GIF89a but not really", b"%PDF-1.4", b""] {
            assert_eq!(store_blocking(dir.path(), bytes, &[320]).unwrap_err().code(), "unsupported_media_type");
        }
        let mut truncated = png(100, 100);
        truncated.truncate(60);
        assert!(store_blocking(dir.path(), &truncated, &[320]).is_err());
    }
}

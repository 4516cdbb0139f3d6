//! Uploaded images: checked by their bytes (not their declared type),
//! decoded and re-encoded (which strips EXIF/GPS and defeats polyglot
//! files) into a few sizes, and stored under names made from the content
//! hash, so they can be cached forever: in the data dir, or in an object store
//! every node shares (`place.rs`).

mod place;

use std::collections::HashSet;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::extract::Request;
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::error::{ApiResult, AppError};

/// The largest upload accepted for one image (docs/product.md, Constants).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// Pictures are refused by their declared size before anything is decoded:
/// a phone photo is 12–16 MP (50 MP sensors save binned 12 MP pictures);
/// a "bomb" declares far more than its few hundred KB can honestly hold.
pub const MAX_PIXELS: u64 = 40_000_000;
const MAX_DIMENSION: u32 = 12_000;
/// What a decoder may allocate for one picture: 40 MP of 8-bit RGBA, with room to spare.
const MAX_DECODE_BYTES: u64 = 200 * 1024 * 1024;
/// Pictures are first shrunk (cheaply, in integers) to at most this size, so
/// the filters that make the stored sizes never work on a full-size picture.
const WORKING_SIZE: u32 = 2048;
const JPEG_QUALITY: u8 = 82;

/// Decoding happens at most this many megapixels at a time across the server
/// (e.g. one 40 MP picture, or twenty-six 1.5 MP phone photos).
const DECODE_BUDGET_MP: u32 = 40;
static DECODE_BUDGET: Semaphore = Semaphore::const_new(DECODE_BUDGET_MP as usize);
/// Request bodies that carry pictures hold at most this many KiB in memory
/// at a time across the server; further requests wait for room.
const BODY_BUDGET_KIB: u32 = 96 * 1024;
static BODY_BUDGET: Semaphore = Semaphore::const_new(BODY_BUDGET_KIB as usize);
/// How long a request waits for room before being told to come back.
const BUDGET_WAIT: Duration = Duration::from_secs(20);
const RETRY_AFTER_SECS: u64 = 10;

pub use crate::model::picture::{AVATAR_SIZES, DISPLAY, MEDIUM, PHOTO_SIZES, THUMBNAIL, is_hash};

#[derive(Clone)]
pub struct MediaStore {
    /// The data dir's `media/` folder: where pictures are kept, unless `place` is an object store.
    dir: PathBuf,
    place: place::Place,
}

/// A lower-case hex SHA-256: how photos and avatars are named.
pub fn too_large() -> AppError {
    AppError::too_large("image_too_large", "Image size should be less than 5MB")
}

pub fn not_an_image() -> AppError {
    AppError::unsupported_media_type("Please select a valid image file")
}

fn too_many_pixels() -> AppError {
    AppError::too_large("image_too_many_pixels", "This picture is too large (at most 40 megapixels)")
}

fn busy() -> AppError {
    AppError::unavailable(
        "server_busy",
        "The server is busy with other pictures. Please try again shortly.",
        RETRY_AFTER_SECS,
    )
}

/// Route layer for requests that carry pictures: reserves room for the body
/// (its declared length, else `limit`) in the server-wide budget before it is
/// read, and gives it back when the answer is sent. Bodies cannot exceed `limit`
/// (the route's `DefaultBodyLimit`), so memory held by uploads stays bounded
/// however many arrive at once.
pub async fn reserve_body(limit: usize, request: Request, next: Next) -> Response {
    let declared =
        request.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    let bytes = declared.unwrap_or(limit).min(limit);
    let kib = u32::try_from(bytes.div_ceil(1024)).unwrap_or(BODY_BUDGET_KIB).clamp(1, BODY_BUDGET_KIB);
    let Ok(Ok(_permit)) = tokio::time::timeout(BUDGET_WAIT, BODY_BUDGET.acquire_many(kib)).await else {
        return busy().into_response();
    };
    next.run(request).await
}

impl MediaStore {
    pub fn new(data_dir: &Path) -> std::io::Result<MediaStore> {
        let dir = data_dir.join("media");
        crate::platform::files::create_private_dir(&dir)?;
        Ok(MediaStore { place: place::Place::Local(dir.clone()), dir })
    }

    /// Pictures kept in the object store `settings` names (docs/operations.md, Several nodes).
    pub fn in_store(data_dir: &Path, settings: &crate::platform::config::MediaSettings) -> Result<MediaStore, String> {
        let local = MediaStore::new(data_dir).map_err(|err| format!("{}: {err}", data_dir.display()))?;
        Ok(MediaStore { place: place::Place::remote(settings)?, ..local })
    }

    /// The data dir's folder, which holds the pictures unless an object store does.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn is_local(&self) -> bool {
        matches!(self.place, place::Place::Local(_))
    }

    /// The public URL of one stored size.
    pub fn url(hash: &str, size: u32) -> String {
        format!("/media/{hash}-{size}.jpg")
    }

    /// The size in bytes of one stored size of a picture (0 when it is not stored, or the
    /// store did not answer). On a blocking thread (a course's size is written in the
    /// transaction that changed it); an object store's answer is remembered.
    pub fn bytes_of(&self, hash: &str, size: u32) -> u64 {
        let name = file_name(hash, size);
        match &self.place {
            place::Place::Local(dir) => std::fs::metadata(dir.join(name)).map_or(0, |m| m.len()),
            remote @ place::Place::Remote(_) => {
                tokio::runtime::Handle::current().block_on(remote.size(&name)).unwrap_or(0)
            }
        }
    }

    /// The sizes of one picture that are stored.
    pub async fn sizes_of(&self, hash: &str) -> ApiResult<Vec<u32>> {
        let mut sizes = [AVATAR_SIZES, PHOTO_SIZES].concat();
        sizes.sort_unstable();
        sizes.dedup();
        let mut stored = Vec::new();
        for size in sizes {
            if self.place.exists(&file_name(hash, size)).await? {
                stored.push(size);
            }
        }
        Ok(stored)
    }

    /// Removes the stored pictures whose hash is not in `used` and that are
    /// older than `grace` (so one being stored right now stays), and
    /// half-written files left by a crash. Answers how many files went.
    pub async fn remove_unused(&self, used: HashSet<String>, grace: Duration) -> ApiResult<usize> {
        self.place.remove_unused(used, grace).await
    }

    /// Makes a photo's `size` from its next larger stored size, if it is missing.
    async fn make_size(&self, hash: &str, size: u32) -> ApiResult<()> {
        if self.place.exists(&file_name(hash, size)).await? {
            return Ok(());
        }
        let mut source = None;
        for larger in PHOTO_SIZES.iter().filter(|larger| **larger > size) {
            if let Some(bytes) = self.place.read(&file_name(hash, *larger)).await? {
                source = Some(bytes);
                break;
            }
        }
        let source = source.ok_or_else(not_an_image)?;
        // A stored size is at most DISPLAY px square: one or two megapixels of the budget.
        let Ok(Ok(permit)) = tokio::time::timeout(BUDGET_WAIT, DECODE_BUDGET.acquire_many(2)).await else {
            return Err(busy());
        };
        let made = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            encode_jpeg(&decode(&source)?, size)
        })
        .await;
        let encoded = made.unwrap_or_else(|_| Err(not_an_image()))?;
        self.place.write(&file_name(hash, size), encoded).await
    }

    /// Checks, re-encodes and stores an image at each of `sizes`; returns its content hash.
    /// Storing the same bytes twice is cheap and yields the same hash.
    pub async fn store_image(&self, bytes: Vec<u8>, sizes: &'static [u32]) -> ApiResult<String> {
        if bytes.len() > MAX_IMAGE_BYTES {
            return Err(too_large());
        }
        let hash = hex::encode(Sha256::digest(&bytes));
        let mut missing = Vec::new();
        for &size in sizes {
            if !self.place.exists(&file_name(&hash, size)).await? {
                missing.push(size);
            }
        }
        if missing.is_empty() {
            return Ok(hash);
        }
        // Read the declared size first (cheap), then wait for room to decode it.
        let pixels = declared_pixels(&bytes)?;
        let megapixels =
            u32::try_from(pixels.div_ceil(1_000_000)).unwrap_or(DECODE_BUDGET_MP).clamp(1, DECODE_BUDGET_MP);
        let Ok(Ok(permit)) = tokio::time::timeout(BUDGET_WAIT, DECODE_BUDGET.acquire_many(megapixels)).await else {
            return Err(busy());
        };
        let encoded = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            encode_sizes(&bytes, &missing)
        })
        .await;
        // A decoder that panics on a hostile file has still only seen a bad image.
        for (size, jpeg) in encoded.unwrap_or_else(|_| Err(not_an_image()))? {
            self.place.write(&file_name(&hash, size), jpeg).await?;
        }
        Ok(hash)
    }

    /// A stored picture's file for `/media/{name}` when an object store keeps them (the
    /// data dir's folder is served as files): 404 for any other name.
    pub async fn serve(&self, name: &str) -> Response {
        if stored_file(name).is_none() {
            return axum::http::StatusCode::NOT_FOUND.into_response();
        }
        match self.place.read(name).await {
            Ok(Some(bytes)) => ([(axum::http::header::CONTENT_TYPE, "image/jpeg")], bytes).into_response(),
            Ok(None) => axum::http::StatusCode::NOT_FOUND.into_response(),
            Err(err) => err.into_response(),
        }
    }
}

/// Decodes `bytes` once and encodes it at each of `sizes`.
fn encode_sizes(bytes: &[u8], sizes: &[u32]) -> ApiResult<Vec<(u32, Vec<u8>)>> {
    let image = decode(bytes)?;
    sizes.iter().map(|&size| Ok((size, encode_jpeg(&image, size)?))).collect()
}

/// A photo's size asked for by its file name (`{hash}-{size}.jpg`), when it is one of `PHOTO_SIZES`.
fn photo_file(name: &str) -> Option<(&str, u32)> {
    stored_file(name).filter(|(_, size)| PHOTO_SIZES.contains(size))
}

/// A stored picture's file name (`{hash}-{size}.jpg`), of a photo's or an avatar's size.
fn stored_file(name: &str) -> Option<(&str, u32)> {
    let (hash, size) = name.strip_suffix(".jpg")?.split_once('-')?;
    let size = size.parse().ok().filter(|size| PHOTO_SIZES.contains(size) || AVATAR_SIZES.contains(size))?;
    is_hash(hash).then_some((hash, size))
}

/// Route layer for `/media`: a photo stored before one of its sizes existed
/// (720 px came after 320 and 1024; originals are not kept) is given that size
/// from its next larger stored one the first time it is asked for.
pub async fn make_missing_size(store: MediaStore, request: Request, next: Next) -> Response {
    if let Some((hash, size)) = photo_file(request.uri().path().trim_start_matches('/')) {
        // Not made (no larger size, a damaged file, a busy server): the file is simply not there.
        if let Err(err) = store.make_size(hash, size).await {
            tracing::debug!(hash, size, code = err.code(), "photo size not made");
        }
    }
    next.run(request).await
}

fn file_name(hash: &str, size: u32) -> String {
    format!("{hash}-{size}.jpg")
}

fn reader(bytes: &[u8]) -> ApiResult<ImageReader<Cursor<&[u8]>>> {
    let format = image::guess_format(bytes).map_err(|_| not_an_image())?;
    if !matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::Gif | ImageFormat::WebP) {
        return Err(not_an_image());
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DIMENSION);
    limits.max_image_height = Some(MAX_DIMENSION);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    Ok(reader)
}

/// Width × height as the file declares them, read from its header alone.
fn declared_pixels(bytes: &[u8]) -> ApiResult<u64> {
    let decoder = reader(bytes)?.into_decoder().map_err(|err| refusal(&err))?;
    let (width, height) = decoder.dimensions();
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PIXELS {
        return Err(too_many_pixels());
    }
    Ok(pixels)
}

fn refusal(err: &image::ImageError) -> AppError {
    match err {
        image::ImageError::Limits(_) => too_many_pixels(),
        _ => not_an_image(),
    }
}

/// Decodes JPEG, PNG, GIF or WebP (recognised by magic numbers), upright and
/// at most `WORKING_SIZE` on its longer side.
pub fn decode(bytes: &[u8]) -> ApiResult<DynamicImage> {
    let mut decoder = reader(bytes)?.into_decoder().map_err(|err| refusal(&err))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(too_many_pixels());
    }
    let orientation = decoder.orientation().map_err(|_| not_an_image())?;
    let full = DynamicImage::from_decoder(decoder).map_err(|err| refusal(&err))?;
    let mut image = if full.width() > WORKING_SIZE || full.height() > WORKING_SIZE {
        // Integer area averaging straight from the decoded picture, which is then freed.
        full.thumbnail(WORKING_SIZE, WORKING_SIZE)
    } else {
        full
    };
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
    // Not `set_optimized_huffman_tables` (~8% fewer bytes): the image crate's decoder,
    // which makes a missing size from a stored one (`make_size`), garbles every picture
    // this encoder writes so (libjpeg reads them right, and the image crate reads libjpeg's
    // own fitted tables right); the test below catches it.
    let mut encoder = jpeg_encoder::Encoder::new(&mut buffer, JPEG_QUALITY);
    encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::R_4_2_0);
    encoder.set_chroma_subsampling_method(jpeg_encoder::ChromaSubsamplingMethod::Average);
    // Dimensions are at most WORKING_SIZE (2048): they fit a u16.
    let (width, height) = (rgb.width() as u16, rgb.height() as u16);
    encoder.encode(rgb.as_raw(), width, height, jpeg_encoder::ColorType::Rgb).map_err(AppError::internal)?;
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

    /// What `store_image` does, without the runtime.
    fn store(dir: &Path, bytes: &[u8]) -> ApiResult<String> {
        declared_pixels(bytes)?;
        let hash = hex::encode(Sha256::digest(bytes));
        for (size, jpeg) in encode_sizes(bytes, &[320])? {
            std::fs::write(dir.join(file_name(&hash, size)), jpeg)?;
        }
        Ok(hash)
    }

    #[test]
    fn images_are_resized_reencoded_and_named_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = png(800, 400);
        let hash = store(dir.path(), &bytes).unwrap();
        let stored = std::fs::read(dir.path().join(file_name(&hash, 320))).unwrap();
        assert_eq!(image::guess_format(&stored).unwrap(), ImageFormat::Jpeg);
        let decoded = image::load_from_memory(&stored).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (320, 160));
        assert_eq!(store(dir.path(), &bytes).unwrap(), hash, "same bytes, same name");
    }

    /// The luma component's sampling factors in a baseline JPEG's frame header (SOF0).
    fn luma_sampling(jpeg: &[u8]) -> u8 {
        let sof = jpeg.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a baseline frame");
        // Marker, length (2), precision, height (2), width (2), components, then Y's id and factors.
        jpeg[sof + 2 + 2 + 1 + 4 + 1 + 1]
    }

    #[test]
    fn pictures_are_stored_with_colour_at_half_resolution_and_keep_their_colours() {
        let dir = tempfile::tempdir().unwrap();
        // Odd sizes: the halved colour planes cover a last lone row and column.
        let img = image::RgbImage::from_fn(333, 201, |x, _| {
            if x < 166 { image::Rgb([200, 40, 30]) } else { image::Rgb([30, 90, 200]) }
        });
        let mut bytes = Vec::new();
        DynamicImage::ImageRgb8(img).write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png).unwrap();
        let hash = store(dir.path(), &bytes).unwrap();
        let stored = std::fs::read(dir.path().join(file_name(&hash, 320))).unwrap();
        assert_eq!(luma_sampling(&stored), 0x22, "4:2:0, as cameras and libjpeg store photos");
        let decoded = image::load_from_memory(&stored).unwrap().to_rgb8();
        assert_eq!(decoded.dimensions(), (320, 193));
        for (x, want) in [(40, [200, 40, 30]), (280, [30, 90, 200]), (319, [30, 90, 200])] {
            let got = decoded.get_pixel(x, 192).0;
            assert!(got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 12), "{x}: {got:?} for {want:?}");
        }
    }

    #[test]
    fn small_images_are_not_enlarged() {
        let dir = tempfile::tempdir().unwrap();
        let hash = store(dir.path(), &png(50, 40)).unwrap();
        let decoded = image::load_from_memory(&std::fs::read(dir.path().join(file_name(&hash, 320))).unwrap()).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (50, 40));
    }

    #[test]
    fn large_pictures_are_shrunk_before_the_filters_run() {
        let image = decode(&png(3000, 1500)).unwrap();
        assert_eq!((image.width(), image.height()), (WORKING_SIZE, WORKING_SIZE / 2));
    }

    #[test]
    fn only_photo_sizes_of_a_hash_are_made_on_demand() {
        let hash = "ab".repeat(32);
        assert_eq!(photo_file(&format!("{hash}-720.jpg")), Some((hash.as_str(), MEDIUM)));
        for name in [
            format!("{hash}-500.jpg"),
            format!("{hash}-720.png"),
            format!("{}-720.jpg", "AB".repeat(32)),
            "../../etc-720.jpg".to_owned(),
            format!("{hash}-720.jpg/x"),
            format!("{hash}--720.jpg"),
        ] {
            assert_eq!(photo_file(&name), None, "{name}");
        }
    }

    #[tokio::test]
    async fn a_missing_middle_size_is_made_from_the_larger_one() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore { dir: dir.path().to_owned(), place: place::Place::Local(dir.path().to_owned()) };
        let hash = store.store_image(png(1600, 1200), &[THUMBNAIL, DISPLAY]).await.unwrap();
        store.make_size(&hash, MEDIUM).await.unwrap();
        let made = image::load_from_memory(&std::fs::read(dir.path().join(file_name(&hash, MEDIUM))).unwrap()).unwrap();
        assert_eq!((made.width(), made.height()), (720, 540));
        let unknown = "cd".repeat(32);
        assert!(store.make_size(&unknown, MEDIUM).await.is_err(), "nothing to make it from");
        assert!(!dir.path().join(file_name(&unknown, MEDIUM)).exists());
    }

    #[test]
    fn other_content_is_refused_whatever_it_claims() {
        let dir = tempfile::tempdir().unwrap();
        for bytes in [
            &b"<svg xmlns='http://www.w3.org/2000/svg'/>"[..],
            b"GIF89a\x01\x00\x01\x00 but not really",
            b"%PDF-1.4",
            b"",
        ] {
            assert_eq!(store(dir.path(), bytes).unwrap_err().code(), "unsupported_media_type");
        }
        let mut truncated = png(100, 100);
        truncated.truncate(60);
        assert!(store(dir.path(), &truncated).is_err());
    }
}

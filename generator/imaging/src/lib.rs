//! One raster image in, its variants out: decoding (with the camera's orientation applied),
//! resizing with `fast_image_resize`, and encoding AVIF (ravif), lossy WebP (libwebp through
//! `webp`) and the source's own format as the fallback (`image`).
//!
//! A crate of its own, so that the codecs' generic code, which is instantiated here, is
//! compiled optimised even in the debug build `make run` and the tests make (the workspace's
//! `profile.dev.package.imaging`): unoptimised, a first build encodes the site's photographs
//! some twenty times slower. It may use image, fast_image_resize, ravif and webp, and nothing
//! of the other crates.

use fast_image_resize as fir;
use image::{DynamicImage, ImageDecoder, ImageReader};
use std::io::Cursor;

/// A format a variant is encoded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    Avif,
    Webp,
    Jpeg,
    Png,
}

impl Format {
    pub fn ext(self) -> &'static str {
        match self {
            Format::Avif => "avif",
            Format::Webp => "webp",
            Format::Jpeg => "jpg",
            Format::Png => "png",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            Format::Avif => "image/avif",
            Format::Webp => "image/webp",
            Format::Jpeg => "image/jpeg",
            Format::Png => "image/png",
        }
    }

    /// The fallback for a source: PNG stays PNG (it may be transparent), anything else JPEG.
    pub fn fallback_for(extension: &str) -> Format {
        if extension.eq_ignore_ascii_case("png") {
            Format::Png
        } else {
            Format::Jpeg
        }
    }
}

/// What every variant is made with. Part of every cache key: change a number here and the
/// variants are encoded again.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    pub widths: &'static [u32],
    /// ravif's 1–100 scale.
    pub avif_quality: f32,
    /// rav1e's 1 (slowest) – 10 (fastest).
    pub avif_speed: u8,
    pub webp_quality: f32,
    pub jpeg_quality: u8,
}

pub const SETTINGS: Settings = Settings {
    widths: &[480, 800, 1200, 1600],
    avif_quality: 60.0,
    avif_speed: 9,
    webp_quality: 80.0,
    jpeg_quality: 80,
};

impl Settings {
    /// The settings that change the bytes of one variant in `format`, for its cache key.
    pub fn describe(&self, format: Format) -> String {
        let codec = match format {
            Format::Avif => format!("avif q{} s{}", self.avif_quality, self.avif_speed),
            Format::Webp => format!("webp q{}", self.webp_quality),
            Format::Jpeg => format!("jpeg q{}", self.jpeg_quality),
            Format::Png => "png default".to_string(),
        };
        format!("v1 lanczos3 {codec}")
    }

    /// The widths made of a source `source_width` wide: the configured ones it can fill, and
    /// the source's own width when it lies between two of them (never an upscale).
    pub fn widths_for(&self, source_width: u32) -> Vec<u32> {
        let mut widths: Vec<u32> = self
            .widths
            .iter()
            .copied()
            .filter(|w| *w <= source_width)
            .collect();
        let largest = self.widths.iter().copied().max().unwrap_or(0);
        if source_width < largest && widths.last() != Some(&source_width) {
            widths.push(source_width);
        }
        widths
    }
}

/// The width and height of an image as it is shown (after its orientation is applied),
/// reading only its header.
pub fn dimensions(bytes: &[u8]) -> Result<(u32, u32), String> {
    let mut decoder = reader(bytes)?.into_decoder().map_err(|e| e.to_string())?;
    let (w, h) = decoder.dimensions();
    let orientation = decoder.orientation().map_err(|e| e.to_string())?;
    Ok(if turns(orientation) { (h, w) } else { (w, h) })
}

/// Whether the image needs no turning: its own bytes can stand for its upright copy.
pub fn is_upright(bytes: &[u8]) -> bool {
    reader(bytes)
        .and_then(|r| r.into_decoder().map_err(|e| e.to_string()))
        .and_then(|mut d| d.orientation().map_err(|e| e.to_string()))
        .is_ok_and(|o| o == image::metadata::Orientation::NoTransforms)
}

fn turns(orientation: image::metadata::Orientation) -> bool {
    use image::metadata::Orientation::*;
    matches!(
        orientation,
        Rotate90 | Rotate270 | Rotate90FlipH | Rotate270FlipH
    )
}

/// The largest image the site takes, the same in every build and upload: 50 megapixels
/// (a phone's 48 MP photograph fits), neither side over 16,384 px. An image's header is not
/// its size: a 661-byte PNG can declare 100,000 × 100,000 pixels, 30 GB once decoded, so
/// every decoder is handed these limits before it allocates anything.
pub const MAX_PIXELS: u64 = 50_000_000;
pub const MAX_SIDE: u32 = 16_384;
/// What one decode may allocate: the largest allowed image at 16 bits per RGBA channel.
const MAX_ALLOC: u64 = MAX_PIXELS * 8 + 64 * 1024 * 1024;

fn limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    limits
}

/// Why an image cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageProblem {
    /// Not a JPEG, PNG or WebP at all.
    UnknownFormat,
    /// More pixels, or a longer side, than the limits allow.
    TooLarge { width: u32, height: u32 },
    /// Its bytes do not decode (a signature without an image, a cut-off file).
    Unreadable(String),
}

impl ImageProblem {
    pub fn english(&self) -> String {
        match self {
            ImageProblem::UnknownFormat => "it is not a JPEG, PNG or WebP image".into(),
            ImageProblem::TooLarge { width, height } => format!(
                "it is {width} × {height} px; the site takes at most {} megapixels and {MAX_SIDE} px a side",
                MAX_PIXELS / 1_000_000
            ),
            ImageProblem::Unreadable(why) => format!("it cannot be decoded ({why})"),
        }
    }

    pub fn polish(&self) -> String {
        match self {
            ImageProblem::UnknownFormat => {
                "Ten plik nie jest obrazem JPEG, PNG ani WebP. Prześlij zdjęcie w jednym z tych formatów.".into()
            }
            ImageProblem::TooLarge { width, height } => format!(
                "Obraz ma {width} × {height} pikseli, a strona przyjmuje najwyżej {} megapikseli i {MAX_SIDE} pikseli z każdej strony. Zmniejsz zdjęcie i prześlij je ponownie.",
                MAX_PIXELS / 1_000_000
            ),
            ImageProblem::Unreadable(_) => {
                "Tego pliku nie da się odczytać jako obrazu: jest uszkodzony albo tylko udaje zdjęcie. Zapisz zdjęcie ponownie w programie graficznym i prześlij je jeszcze raz.".into()
            }
        }
    }
}

impl std::fmt::Display for ImageProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.english())
    }
}

/// A raster image that decodes within the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inspected {
    pub format: image::ImageFormat,
    /// As shown (after the camera's orientation).
    pub width: u32,
    pub height: u32,
}

/// Proves that `bytes` are a JPEG, PNG or WebP within the limits by decoding them whole:
/// what an upload must pass before anything is stored.
pub fn inspect(bytes: &[u8]) -> Result<Inspected, ImageProblem> {
    let format = image::guess_format(bytes).map_err(|_| ImageProblem::UnknownFormat)?;
    if !matches!(
        format,
        image::ImageFormat::Jpeg | image::ImageFormat::Png | image::ImageFormat::WebP
    ) {
        return Err(ImageProblem::UnknownFormat);
    }
    let (width, height) = checked_dimensions(bytes)?;
    decode(bytes).map_err(ImageProblem::Unreadable)?;
    Ok(Inspected {
        format,
        width,
        height,
    })
}

/// The size the header declares, refused past the limits before anything is allocated.
fn checked_dimensions(bytes: &[u8]) -> Result<(u32, u32), ImageProblem> {
    let decoder = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| ImageProblem::Unreadable(e.to_string()))?;
    let (width, height) = decoder
        .into_dimensions()
        .map_err(|e| ImageProblem::Unreadable(e.to_string()))?;
    let pixels = u64::from(width) * u64::from(height);
    if width > MAX_SIDE || height > MAX_SIDE || pixels > MAX_PIXELS {
        return Err(ImageProblem::TooLarge { width, height });
    }
    Ok((width, height))
}

fn reader(bytes: &[u8]) -> Result<ImageReader<Cursor<&[u8]>>, String> {
    checked_dimensions(bytes).map_err(|p| p.english())?;
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    reader.limits(limits());
    Ok(reader)
}

/// The whole image, upright, as 8-bit RGB or RGBA.
pub fn decode(bytes: &[u8]) -> Result<DynamicImage, String> {
    let mut decoder = reader(bytes)?.into_decoder().map_err(|e| e.to_string())?;
    let orientation = decoder.orientation().map_err(|e| e.to_string())?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    image.apply_orientation(orientation);
    Ok(if image.color().has_alpha() {
        DynamicImage::ImageRgba8(image.into_rgba8())
    } else {
        DynamicImage::ImageRgb8(image.into_rgb8())
    })
}

/// `image` scaled to `width`, keeping its aspect ratio (Lanczos3), as 8-bit RGB, or RGBA when
/// it has an alpha channel.
///
/// Every image is resized as RGBA: `fast_image_resize` then compiles one pixel type (its
/// `only_u8x4`) instead of thirteen, which took most of the first build's minute of optimised
/// code. An opaque image's alpha is 255 everywhere and is not premultiplied, so its colours come
/// out as they would from the RGB resizer.
pub fn resize(image: &DynamicImage, width: u32) -> Result<DynamicImage, String> {
    let (source_width, source_height) = (image.width(), image.height());
    let height = scaled_height(source_width, source_height, width);
    if (width, height) == (source_width, source_height) {
        return Ok(image.clone());
    }
    let opaque = !image.color().has_alpha();
    let source = image.to_rgba8();
    let source = fir::images::TypedImageRef::<fir::pixels::U8x4>::from_buffer(
        source_width,
        source_height,
        source.as_raw(),
    )
    .map_err(|e| e.to_string())?;
    let mut pixels = vec![0; width as usize * height as usize * 4];
    let mut target =
        fir::images::TypedImage::<fir::pixels::U8x4>::from_buffer(width, height, &mut pixels)
            .map_err(|e| e.to_string())?;
    let options = fir::ResizeOptions::new()
        .resize_alg(fir::ResizeAlg::Convolution(fir::FilterType::Lanczos3))
        .use_alpha(!opaque);
    fir::Resizer::new()
        .resize_typed(&source, &mut target, &options)
        .map_err(|e| e.to_string())?;
    let resized = image::RgbaImage::from_raw(width, height, pixels)
        .map(DynamicImage::ImageRgba8)
        .ok_or_else(|| format!("the resized image is not {width}×{height} pixels"))?;
    Ok(if opaque {
        DynamicImage::ImageRgb8(resized.into_rgb8())
    } else {
        resized
    })
}

/// The height of a `width`-wide copy of a `source_width`×`source_height` image.
pub fn scaled_height(source_width: u32, source_height: u32, width: u32) -> u32 {
    let exact = u64::from(source_height) * u64::from(width);
    let rounded = (exact + u64::from(source_width) / 2) / u64::from(source_width.max(1));
    u32::try_from(rounded).unwrap_or(u32::MAX).max(1)
}

/// `image` encoded as `format` with `settings`.
pub fn encode(
    image: &DynamicImage,
    format: Format,
    settings: &Settings,
) -> Result<Vec<u8>, String> {
    match format {
        Format::Avif => avif(image, settings),
        Format::Webp => webp(image, settings),
        Format::Jpeg => {
            let mut out = Vec::new();
            let encoder =
                image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, settings.jpeg_quality);
            DynamicImage::ImageRgb8(image.to_rgb8())
                .write_with_encoder(encoder)
                .map_err(|e| e.to_string())?;
            Ok(out)
        }
        Format::Png => {
            let mut out = Vec::new();
            let encoder = image::codecs::png::PngEncoder::new(&mut out);
            image
                .write_with_encoder(encoder)
                .map_err(|e| e.to_string())?;
            Ok(out)
        }
    }
}

fn avif(image: &DynamicImage, settings: &Settings) -> Result<Vec<u8>, String> {
    let encoder = ravif::Encoder::new()
        .with_quality(settings.avif_quality)
        .with_speed(settings.avif_speed);
    // Always as RGBA: ravif's `encode_rgba` is compiled in ravif and leaves an opaque image's
    // alpha out by itself, where `encode_rgb`, generic inside, would have this crate compile a
    // second copy of the whole AV1 encoder (8- and 10-bit): 70 s of every first build.
    let rgba = image.to_rgba8();
    let (w, h) = (rgba.width() as usize, rgba.height() as usize);
    let pixels: Vec<ravif::RGBA8> = rgba
        .as_raw()
        .chunks_exact(4)
        .map(|p| ravif::RGBA8::new(p[0], p[1], p[2], p[3]))
        .collect();
    let encoded = encoder.encode_rgba(ravif::Img::new(&pixels[..], w, h));
    encoded.map(|e| e.avif_file).map_err(|e| e.to_string())
}

fn webp(image: &DynamicImage, settings: &Settings) -> Result<Vec<u8>, String> {
    let (w, h) = (image.width(), image.height());
    let memory = match image {
        DynamicImage::ImageRgba8(rgba) => webp::Encoder::from_rgba(rgba.as_raw(), w, h)
            .encode_simple(false, settings.webp_quality),
        other => {
            let rgb = other.to_rgb8();
            webp::Encoder::from_rgb(rgb.as_raw(), w, h).encode_simple(false, settings.webp_quality)
        }
    };
    memory
        .map(|m| m.to_vec())
        .map_err(|e| format!("WebP encoding failed: {e:?}"))
}

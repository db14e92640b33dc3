//! The codecs: decoding within the limits (with the camera's orientation applied), resizing
//! with `fast_image_resize`, and encoding AVIF (ravif), lossy WebP (libwebp through `webp`) and
//! the source's own format as the fallback (`image`). Only the worker program links them
//! ([`crate::worker::serve`]).

use fast_image_resize as fir;
use image::{DynamicImage, ImageDecoder, ImageReader};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Cursor;

use crate::{scaled_height, Format, ImageProblem, Inspected, Settings, MAX_PIXELS, MAX_SIDE};

/// What one decode may allocate: the largest allowed image at 16 bits per RGBA channel.
const MAX_ALLOC: u64 = MAX_PIXELS * 8 + 64 * 1024 * 1024;

fn limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    limits
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

/// Proves that `bytes` are a JPEG, PNG or WebP within the limits by decoding them whole:
/// what an upload must pass before anything is stored.
pub fn inspect(bytes: &[u8]) -> Result<Inspected, ImageProblem> {
    let format = match image::guess_format(bytes) {
        Ok(image::ImageFormat::Jpeg) => Format::Jpeg,
        Ok(image::ImageFormat::Png) => Format::Png,
        Ok(image::ImageFormat::WebP) => Format::Webp,
        _ => return Err(ImageProblem::UnknownFormat),
    };
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

/// The variants `wanted` (a format and a width each) of the image `source`, in that order:
/// decoded once, resized once per width, every format of a width encoded from it, in
/// parallel. An error is the source's own: it does not decode, or a variant does not encode.
pub fn variants(
    source: &[u8],
    wanted: &[(Format, u32)],
    settings: &Settings,
) -> Result<Vec<Vec<u8>>, String> {
    let image = decode(source)?;
    let mut widths: Vec<u32> = wanted.iter().map(|(_, width)| *width).collect();
    widths.sort_unstable();
    widths.dedup();
    let resized: HashMap<u32, DynamicImage> = widths
        .par_iter()
        .map(|w| resize(&image, *w).map(|r| (*w, r)))
        .collect::<Result<_, String>>()?;
    wanted
        .par_iter()
        .map(|(format, width)| match resized.get(width) {
            Some(scaled) => encode(scaled, *format, settings),
            None => Err(format!("no {width} px copy was made")),
        })
        .collect()
}

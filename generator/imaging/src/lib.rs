//! Photographs' variants: what they are (formats, widths, qualities, the limits every image is
//! held to) and the program that makes them. Decoding, resizing and encoding run in a process
//! of their own, the `imaging` worker ([`worker`]), never inside the generator or the sidecar:
//!
//! - a hostile picture (an upload, a pushed file) is decoded where a crash or a runaway
//!   allocation takes down one worker, not the server that holds the inbox;
//! - the generator and the sidecar compile without the codecs (AV1, libwebp, the resizer, the
//!   decoders: most of a first build's optimised code), so a fresh clone's `make run` serves
//!   the site while the worker still compiles, and shows its photographs as they are until
//!   then.
//!
//! The library without its default `codecs` feature is this crate's definitions and the
//! worker's client; with it, the codecs ([`codecs`]-gated functions) and the worker's side of
//! the protocol. The codecs are optimised even in debug builds (the workspace's
//! `profile.dev.package`): unoptimised, they encode photographs some twenty times slower.

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

    /// The format named by `ext` (as [`Format::ext`] writes it).
    pub fn from_ext(ext: &str) -> Option<Format> {
        [Format::Avif, Format::Webp, Format::Jpeg, Format::Png]
            .into_iter()
            .find(|f| f.ext() == ext)
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

/// The largest image the site takes, the same in every build and upload: 50 megapixels
/// (a phone's 48 MP photograph fits), neither side over 16,384 px. An image's header is not
/// its size: a 661-byte PNG can declare 100,000 × 100,000 pixels, 30 GB once decoded, so
/// every decoder is handed these limits before it allocates anything.
pub const MAX_PIXELS: u64 = 50_000_000;
pub const MAX_SIDE: u32 = 16_384;

/// Why an image cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageProblem {
    /// Not a JPEG, PNG or WebP at all.
    UnknownFormat,
    /// More pixels, or a longer side, than the limits allow.
    TooLarge { width: u32, height: u32 },
    /// Its bytes do not decode (a signature without an image, a cut-off file).
    Unreadable(String),
    /// Nothing was decoded: the worker could not run (not built yet, not installed, or it
    /// failed on its own), and why. Not the image's fault: the same bytes may pass later.
    Unchecked(String),
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
            ImageProblem::Unchecked(why) => format!("it could not be checked: {why}"),
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
            ImageProblem::Unchecked(_) => {
                "Serwer nie może teraz sprawdzić zdjęcia: program, który je przetwarza, nie działa (przy pierwszym uruchomieniu strony jeszcze się kompiluje). Nic nie zostało zapisane. Spróbuj ponownie za kilka minut, a jeśli to się powtórzy, powiadom administratora.".into()
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
    pub format: Format,
    /// As shown (after the camera's orientation).
    pub width: u32,
    pub height: u32,
}

/// The height of a `width`-wide copy of a `source_width`×`source_height` image.
pub fn scaled_height(source_width: u32, source_height: u32, width: u32) -> u32 {
    let exact = u64::from(source_height) * u64::from(width);
    let rounded = (exact + u64::from(source_width) / 2) / u64::from(source_width.max(1));
    u32::try_from(rounded).unwrap_or(u32::MAX).max(1)
}

pub mod worker;

#[cfg(feature = "codecs")]
mod codecs;
#[cfg(feature = "codecs")]
pub use codecs::{decode, dimensions, encode, inspect, is_upright, resize, variants};

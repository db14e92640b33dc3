//! `cargo run --release -p site --example photos -- DIR N [WIDTHxHEIGHT [QUALITY]]`: writes N
//! different JPEG "photographs" of 3000×2000 at quality 90 (or the size and quality given:
//! `4000x3000 92` is a phone's, about 4 MB) with gradients,
//! shapes and sensor-like noise, so that they compress like photographs, not like flat colour,
//! for `make bench`.

use image::{Rgb, RgbImage};

fn photo(seed: u32, (w, h): (u32, u32)) -> RgbImage {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let tint = [noise() % 90, noise() % 90, noise() % 90];
    let (cx, cy, r) = (noise() % w, noise() % h, 300 + noise() % 600);
    RgbImage::from_fn(w, h, |x, y| {
        let sky = 255 * y / h;
        let dx = i64::from(x) - i64::from(cx);
        let dy = i64::from(y) - i64::from(cy);
        let inside = dx * dx + dy * dy < i64::from(r) * i64::from(r);
        let wave = ((f64::from(x) / 37.0).sin() * 20.0 + (f64::from(y) / 53.0).cos() * 20.0) as i32;
        let grain = (noise() % 24) as i32 - 12;
        let channel = |c: usize| {
            let base = if inside {
                200 - tint[c] as i32
            } else {
                (sky as i32 + tint[c] as i32) / 2 + 40
            };
            (base + wave + grain).clamp(0, 255) as u8
        };
        Rgb([channel(0), channel(1), channel(2)])
    })
}

fn main() -> Result<(), String> {
    const USAGE: &str = "usage: photos DIR N [WIDTHxHEIGHT [QUALITY]]";
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().ok_or(USAGE)?);
    let n: u32 = args.next().and_then(|n| n.parse().ok()).ok_or(USAGE)?;
    let size = match args.next() {
        None => (3000, 2000),
        Some(s) => s
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .filter(|&(w, h)| w > 0 && h > 0 && w <= 16_384 && h <= 16_384)
            .ok_or(USAGE)?,
    };
    let quality: u8 = match args.next() {
        None => 90,
        Some(q) => q
            .parse()
            .ok()
            .filter(|q| (1..=100).contains(q))
            .ok_or(USAGE)?,
    };
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    (0..n).try_for_each(|i| {
        let path = dir.join(format!("foto-{i:03}.jpg"));
        let file = std::fs::File::create(&path).map_err(|e| e.to_string())?;
        let mut out = std::io::BufWriter::new(file);
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality);
        photo(i, size)
            .write_with_encoder(encoder)
            .map_err(|e| e.to_string())
    })
}

//! `cargo run --release -p site --example photos -- DIR N`: writes N different 3000×2000
//! JPEG "photographs" (gradients, shapes and sensor-like noise, so that they compress like
//! photographs, not like flat colour) for `make bench`.

use image::{Rgb, RgbImage};

fn photo(seed: u32) -> RgbImage {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let (w, h) = (3000u32, 2000u32);
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
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().ok_or("usage: photos DIR N")?);
    let n: u32 = args
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or("usage: photos DIR N")?;
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    (0..n).try_for_each(|i| {
        let path = dir.join(format!("foto-{i:03}.jpg"));
        let file = std::fs::File::create(&path).map_err(|e| e.to_string())?;
        let mut out = std::io::BufWriter::new(file);
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
        photo(i)
            .write_with_encoder(encoder)
            .map_err(|e| e.to_string())
    })
}

//! Hostile images for tests: files whose header declares far more pixels than their bytes
//! hold, as an attacker uploads them. Built here once for every crate's tests (the `testing`
//! feature).

/// A PNG of 661 bytes or so whose header declares `width` × `height` pixels.
pub fn png_declaring(width: u32, height: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]); // 8-bit RGB, deflate, no filter, no interlace
    chunk(&mut out, b"IHDR", &header);
    // A few rows of zeros, deflated: far less than the header promises.
    let rows = zlib_stored_zeros(600);
    chunk(&mut out, b"IDAT", &rows);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// The PNG of the security finding: 100,000 × 100,000 pixels declared.
pub fn png_bomb() -> Vec<u8> {
    png_declaring(100_000, 100_000)
}

/// A PNG signature and nothing an image decoder can read after it.
pub fn fake_png() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(b"this is not an image, only its first eight bytes are");
    out
}

/// `jpeg` (a real JPEG) with its frame header changed to declare `width` × `height`.
pub fn jpeg_declaring(jpeg: &[u8], width: u16, height: u16) -> Vec<u8> {
    let mut out = jpeg.to_vec();
    let mut i = 2;
    while i + 9 < out.len() {
        if out[i] != 0xFF {
            i += 1;
            continue;
        }
        let marker = out[i + 1];
        let length = usize::from(u16::from_be_bytes([out[i + 2], out[i + 3]]));
        // SOF0–SOF15, but DHT (C4), JPG (C8) and DAC (CC).
        if (0xC0..=0xCF).contains(&marker) && ![0xC4, 0xC8, 0xCC].contains(&marker) {
            out[i + 5..i + 7].copy_from_slice(&height.to_be_bytes());
            out[i + 7..i + 9].copy_from_slice(&width.to_be_bytes());
            return out;
        }
        i += 2 + length;
    }
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend(kind);
    out.extend(data);
    let crc = crc32(&out[start..]);
    out.extend(crc.to_be_bytes());
}

/// A zlib stream of stored (uncompressed) blocks holding `n` zero bytes.
fn zlib_stored_zeros(n: u16) -> Vec<u8> {
    let mut out = vec![0x78, 0x01, 0x01];
    out.extend(n.to_le_bytes());
    out.extend((!n).to_le_bytes());
    out.extend(std::iter::repeat_n(0u8, usize::from(n)));
    // Adler-32 of n zeros: a stays 1, b adds 1 for each byte.
    out.extend(((u32::from(n) << 16) | 1).to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hostile_files_are_small_and_declare_what_they_say() {
        let bomb = png_bomb();
        assert!(bomb.len() < 1024, "{} bytes", bomb.len());
        let declared = image::ImageReader::new(std::io::Cursor::new(&bomb))
            .with_guessed_format()
            .expect("guessed")
            .into_dimensions()
            .expect("a readable header");
        assert_eq!(declared, (100_000, 100_000));
        assert_eq!(
            crc32(b"IEND"),
            0xAE42_6082,
            "the CRC of every PNG's last chunk"
        );
    }
}

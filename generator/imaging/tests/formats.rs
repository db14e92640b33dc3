//! The library's own checks, as a program that links the optimised library: as unit tests they
//! made cargo compile the whole library a second time, optimised, in test mode (20 s of a fresh
//! build, for five tests).

use image::DynamicImage;
use imaging::{decode, dimensions, encode, resize, scaled_height, Format, SETTINGS};

fn gradient(w: u32, h: u32) -> DynamicImage {
    DynamicImage::ImageRgb8(image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    }))
}

#[test]
fn widths_never_exceed_the_source_and_include_an_in_between_source_width() {
    assert_eq!(SETTINGS.widths_for(2400), vec![480, 800, 1200, 1600]);
    assert_eq!(SETTINGS.widths_for(1600), vec![480, 800, 1200, 1600]);
    assert_eq!(SETTINGS.widths_for(1000), vec![480, 800, 1000]);
    assert_eq!(SETTINGS.widths_for(800), vec![480, 800]);
    assert_eq!(SETTINGS.widths_for(300), vec![300]);
}

#[test]
fn heights_keep_the_aspect_ratio() {
    assert_eq!(scaled_height(2400, 1350, 480), 270);
    assert_eq!(scaled_height(3000, 2000, 800), 533);
    assert_eq!(scaled_height(10, 1, 4), 1, "never zero");
}

#[test]
fn every_format_encodes_a_resized_image_its_decoder_reads_back() {
    let small = resize(&gradient(64, 36), 32).expect("resized");
    assert_eq!((small.width(), small.height()), (32, 18));
    for format in [Format::Avif, Format::Webp, Format::Jpeg, Format::Png] {
        let bytes = encode(&small, format, &SETTINGS).expect("encoded");
        let guessed = image::guess_format(&bytes).expect("a known format");
        let expected = match format {
            Format::Avif => image::ImageFormat::Avif,
            Format::Webp => image::ImageFormat::WebP,
            Format::Jpeg => image::ImageFormat::Jpeg,
            Format::Png => image::ImageFormat::Png,
        };
        assert_eq!(guessed, expected, "{format:?}");
        if format != Format::Avif {
            assert_eq!(dimensions(&bytes).expect("header"), (32, 18), "{format:?}");
        }
    }
}

#[test]
fn an_avif_carries_an_alpha_plane_only_for_a_picture_that_is_see_through() {
    // AVIF stores transparency as an auxiliary image named by this URN.
    let alpha = |bytes: &[u8]| bytes.windows(15).any(|w| w == b"auxiliary:alpha");
    let opaque = resize(&gradient(64, 36), 32).expect("resized");
    assert!(!alpha(
        &encode(&opaque, Format::Avif, &SETTINGS).expect("encoded")
    ));
    let mut see_through = opaque.to_rgba8();
    see_through.get_pixel_mut(0, 0).0[3] = 0;
    let see_through = DynamicImage::ImageRgba8(see_through);
    assert!(alpha(
        &encode(&see_through, Format::Avif, &SETTINGS).expect("encoded")
    ));
}

#[test]
fn a_file_that_is_no_image_is_an_error_not_a_panic() {
    assert!(decode(b"<svg/>").is_err());
    assert!(dimensions(b"not an image").is_err());
}

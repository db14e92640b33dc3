//! The library's own checks, as a program that links the optimised library: as unit tests they
//! made cargo compile the whole library a second time, optimised, in test mode (20 s of a fresh
//! build, for five tests). The worker program's protocol is tested here too (`mod worker`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

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

/// The worker program, run as the generator and the sidecar run it.
mod worker {
    use super::gradient;
    use imaging::worker::{Failure, Worker};
    use imaging::{Format, ImageProblem, Inspected, SETTINGS};

    fn worker() -> Worker {
        Worker::at(env!("CARGO_BIN_EXE_imaging"))
    }

    fn jpeg(w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::new();
        gradient(w, h)
            .write_to(
                &mut std::io::Cursor::new(&mut out),
                image::ImageFormat::Jpeg,
            )
            .expect("encoded");
        out
    }

    #[test]
    fn it_reads_a_header_and_refuses_what_is_no_image_as_the_image_problem() {
        let header = worker().header(&jpeg(64, 36)).expect("a header");
        assert_eq!(
            (header.width, header.height, header.upright),
            (64, 36, true)
        );
        assert!(matches!(
            worker().header(b"not an image"),
            Err(Failure::Image(why)) if !why.is_empty()
        ));
    }

    #[test]
    fn it_inspects_uploads_with_every_answer_the_sidecar_tells_apart() {
        assert_eq!(
            worker().inspect(&jpeg(64, 36)),
            Ok(Inspected {
                format: Format::Jpeg,
                width: 64,
                height: 36
            })
        );
        assert_eq!(
            worker().inspect(b"GIF89a......"),
            Err(ImageProblem::UnknownFormat)
        );
        let mut cut = jpeg(64, 36);
        cut.truncate(cut.len() / 3);
        assert!(matches!(
            worker().inspect(&cut),
            Err(ImageProblem::Unreadable(_))
        ));
        // A worker that cannot run is nobody's verdict on the picture.
        assert!(matches!(
            Worker::at("/nonexistent/imaging").inspect(&jpeg(8, 8)),
            Err(ImageProblem::Unchecked(_))
        ));
    }

    #[test]
    fn it_makes_the_variants_asked_for_in_their_order() {
        let wanted = [(Format::Avif, 32), (Format::Jpeg, 16), (Format::Webp, 32)];
        let made = worker()
            .variants(&jpeg(64, 36), &wanted, &SETTINGS)
            .expect("variants");
        assert_eq!(made.len(), 3);
        assert_eq!(
            image::guess_format(&made[0]).expect("known"),
            image::ImageFormat::Avif
        );
        let small = image::load_from_memory(&made[1]).expect("a JPEG");
        assert_eq!((small.width(), small.height()), (16, 9));
        let webp = image::load_from_memory(&made[2]).expect("a WebP");
        assert_eq!((webp.width(), webp.height()), (32, 18));
        assert!(matches!(
            worker().variants(b"<svg/>", &wanted, &SETTINGS),
            Err(Failure::Image(_))
        ));
    }

    #[test]
    fn a_wrong_command_line_is_the_workers_failure_not_the_images() {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_imaging"))
            .arg("resize")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("runs");
        assert_eq!(status.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&status.stderr).contains("usage"));
        assert!(matches!(
            Worker::at("/bin/false").header(&jpeg(8, 8)),
            Err(Failure::Worker(_))
        ));
    }
}

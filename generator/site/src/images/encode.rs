//! Decoding, resizing and encoding run in the `imaging` worker, a process of its own
//! (`imaging::worker`): a hostile picture takes down one worker, never the build or the sidecar,
//! and this crate compiles without the codecs.

pub(crate) use imaging::worker::{Failure, Header, Worker};
pub(crate) use imaging::{scaled_height, Format, Settings, SETTINGS};
pub use imaging::{ImageProblem, Inspected, MAX_PIXELS, MAX_SIDE};

/// Proves that `bytes` are a JPEG, PNG or WebP within the limits by decoding them whole, in
/// the worker: what an upload must pass before anything is stored. Without a worker that
/// answers, [`ImageProblem::Unchecked`]: nothing may be kept then.
pub fn inspect(bytes: &[u8]) -> Result<Inspected, ImageProblem> {
    match Worker::find() {
        Ok(worker) => worker.inspect(bytes),
        Err(Failure::Worker(why) | Failure::Image(why)) => Err(ImageProblem::Unchecked(why)),
    }
}

/// Why no photograph can be read now, if so: the worker is not where it is looked for, or it
/// is there but does not start yet. A worker still being written (copied in, or its build not
/// done with it) fails to start ("Text file busy"), and one that started answers even an empty
/// image (as the image's own problem), so only a worker that ran counts as there.
pub fn worker_missing() -> Option<String> {
    match Worker::find() {
        Err(Failure::Worker(why) | Failure::Image(why)) => Some(why),
        Ok(worker) => match worker.header(&[]) {
            Ok(_) | Err(Failure::Image(_)) => None,
            Err(Failure::Worker(why)) => Some(why),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::DynamicImage;
    use std::io::Cursor;

    fn gradient(w: u32, h: u32) -> DynamicImage {
        DynamicImage::ImageRgb8(image::RgbImage::from_fn(w, h, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        }))
    }

    #[test]
    fn uploads_are_decoded_within_the_limits_before_anything_is_kept() {
        use crate::images::testing::{fake_png, jpeg_declaring, png_bomb, png_declaring};
        let mut jpeg = Vec::new();
        gradient(64, 36)
            .write_to(&mut Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
            .expect("encoded");
        let fine = inspect(&jpeg).expect("a real photograph");
        assert_eq!(
            (fine.format, fine.width, fine.height),
            (Format::Jpeg, 64, 36)
        );
        assert_eq!(
            inspect(&png_bomb()),
            Err(ImageProblem::TooLarge {
                width: 100_000,
                height: 100_000
            })
        );
        assert_eq!(
            inspect(&jpeg_declaring(&jpeg, 65_500, 65_500)),
            Err(ImageProblem::TooLarge {
                width: 65_500,
                height: 65_500
            })
        );
        // Within the limits, but the bytes hold far less than the header promises.
        assert!(matches!(
            inspect(&png_declaring(4000, 3000)),
            Err(ImageProblem::Unreadable(_))
        ));
        assert!(matches!(
            inspect(&fake_png()),
            Err(ImageProblem::Unreadable(_))
        ));
        assert_eq!(inspect(b"GIF89a......"), Err(ImageProblem::UnknownFormat));
        assert!(ImageProblem::TooLarge {
            width: 1,
            height: 2
        }
        .polish()
        .contains("50 megapikseli"));
        // The build's header reading keeps the same limits, and says it is the image's fault.
        let worker = Worker::find().expect("the worker, built beside the tests");
        assert!(matches!(worker.header(&png_bomb()), Err(Failure::Image(_))));
        assert!(matches!(
            worker.header(&jpeg_declaring(&jpeg, 65_500, 65_500)),
            Err(Failure::Image(_))
        ));
    }
}

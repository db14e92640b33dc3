//! Decoding, resizing and encoding are the `imaging` crate's, optimised even in debug builds.

pub(crate) use imaging::{
    decode, dimensions, encode, is_upright, resize, scaled_height, Format, Settings, SETTINGS,
};
pub use imaging::{inspect, ImageProblem, Inspected, MAX_PIXELS, MAX_SIDE};

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
            (image::ImageFormat::Jpeg, 64, 36)
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
        // The build's decoders keep the same limits.
        assert!(decode(&png_bomb()).is_err());
        assert!(dimensions(&jpeg_declaring(&jpeg, 65_500, 65_500)).is_err());
    }
}

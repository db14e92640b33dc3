//! Decoding, resizing and encoding are the `imaging` crate's, optimised even in debug builds.

pub(crate) use imaging::{
    decode, dimensions, encode, is_upright, resize, scaled_height, Format, Settings, SETTINGS,
};

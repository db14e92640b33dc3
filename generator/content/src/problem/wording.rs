//! Problems of the site's own words (`content/napisy.yaml`, [`crate::wording`]): a key the
//! table does not know, one it needs, and a text too long, empty or broken over lines, or a
//! phone number whose link dials another number than it shows.

use super::texts::{texts, Texts};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WordingProblem {
    /// A key that is no text of the table (or one the SPEC fixes).
    Unknown {
        key: String,
    },
    /// A text of the table the file does not give.
    Missing {
        key: &'static str,
        label: &'static str,
    },
    Empty {
        label: &'static str,
    },
    TooLong {
        label: &'static str,
        max: usize,
    },
    NotOneLine {
        label: &'static str,
    },
    /// A `tel:` link whose shown number is not the number it dials.
    PhoneMismatch {
        label: &'static str,
        shown: String,
        dialed: String,
    },
}

impl WordingProblem {
    pub(super) fn texts(&self) -> Texts {
        use WordingProblem as P;
        match self {
            P::Unknown { key } => texts(
                format!("'{key}' is no text of the site's words (content/napisy.yaml)"),
                format!("„{key}” nie jest żadnym z napisów strony."),
            ),
            P::Missing { key, label } => texts(
                format!("'{key}' ({label}) is missing"),
                format!("brakuje napisu „{label}”."),
            ),
            P::Empty { label } => texts(
                format!("'{label}' is empty"),
                format!("napis „{label}” nie może być pusty."),
            ),
            P::TooLong { label, max } => texts(
                format!("'{label}' is longer than {max} characters"),
                format!("napis „{label}” może mieć najwyżej {max} znaków."),
            ),
            P::NotOneLine { label } => texts(
                format!("'{label}' must be one line"),
                format!("napis „{label}” musi być jednym wierszem."),
            ),
            P::PhoneMismatch { label, shown, dialed } => texts(
                format!("'{label}': the number shown '{shown}' is not the number the link dials ({dialed})"),
                format!("w napisie „{label}” numer „{shown}” nie zgadza się z numerem, który wybiera link (tel:{dialed}): popraw jeden z nich."),
            ),
        }
    }
}

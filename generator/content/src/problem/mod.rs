//! Every problem a check can find, as a value: it says what is wrong in English (for `make
//! check`, read by the developers and editors of the files) and in Polish (for the panel),
//! both made from the same fields, so a reworded English message can never leave its Polish
//! behind. Where a problem is — a file and a line — is carried beside it, in a [`Diagnostic`].
//!
//! The problems are grouped by what they are about, one module each: a file and its front
//! matter, what a document refers to, the house style, the facts of `site.yaml`, and what the
//! panel sends.

mod booking;
mod diagnostic;
mod document;
mod edit;
mod file;
mod markup;
mod place;
mod site;
mod style;
mod texts;
mod value;
mod wording;

pub use booking::BookingProblem;
pub use diagnostic::{Diagnostic, Edited, Place};
pub use document::{DateField, DocumentProblem};
pub use edit::{EditProblem, Field};
pub use file::FileProblem;
pub use markup::Markup;
pub(crate) use site::WEEKDAYS;
pub use site::{BookingKey, OffPlatform, SiteProblem};
pub use style::StyleProblem;
pub use value::Problem;
pub use wording::WordingProblem;

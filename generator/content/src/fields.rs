//! The texts a visitor reads in a document's front matter — the home page's headline, a
//! service's card and the label of its button — as one table: which documents have which
//! (by kind and template), whether one may be empty and how long it may be. The build checks
//! the files against it, the panel's save checks what it would write against it, and the
//! panel shows its fields from it, so the three never disagree.

use serde::Serialize;

use crate::kind::Kind;
use crate::problem::{EditProblem, Field, Problem};

/// One text of the front matter that the panel edits as a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TextField {
    /// The front-matter key.
    #[serde(skip)]
    pub key: &'static str,
    /// The name of its value in the panel's settings.
    #[ts(type = "string")]
    pub name: &'static str,
    #[serde(skip)]
    pub field: Field,
    /// The field's label in the panel.
    #[ts(type = "string")]
    pub label: &'static str,
    /// What the field is for, under it in the panel.
    #[ts(type = "string")]
    pub hint: &'static str,
    pub max: usize,
    pub required: bool,
}

const fn text(
    key: &'static str,
    name: &'static str,
    field: Field,
    label: &'static str,
    hint: &'static str,
    max: usize,
    required: bool,
) -> TextField {
    TextField {
        key,
        name,
        field,
        label,
        hint,
        max,
        required,
    }
}

const HEADING: TextField = text(
    "heading",
    "heading",
    Field::Heading,
    "Nagłówek",
    "Największy napis na górze strony.",
    100,
    false,
);
const HOME_HEADING: TextField = TextField {
    required: true,
    ..HEADING
};
const SUBTITLE: TextField = text(
    "subtitle",
    "subtitle",
    Field::Subtitle,
    "Podtytuł",
    "Jedno lub dwa zdania pod nagłówkiem.",
    300,
    false,
);
const HOME_SUBTITLE: TextField = TextField {
    required: true,
    ..SUBTITLE
};
const PROMPT: TextField = text(
    "prompt",
    "prompt",
    Field::Prompt,
    "Zachęta do bezpłatnej konsultacji",
    "Pogrubione zdanie nad przyciskiem „Umów wizytę”.",
    200,
    true,
);
const INTRO: TextField = text(
    "intro",
    "intro",
    Field::Intro,
    "Wstęp",
    "Zdanie pod tytułem na stronie usługi.",
    300,
    true,
);
const CARD_TITLE: TextField = text(
    "card_title",
    "cardTitle",
    Field::CardTitle,
    "Tytuł na karcie usługi",
    "Na kartach usług i w menu. Puste pole: tytuł strony.",
    60,
    false,
);
const CARD_DESCRIPTION: TextField = text(
    "card_description",
    "cardDescription",
    Field::CardDescription,
    "Opis na karcie usługi",
    "Jedno zdanie na karcie w liście usług i na stronie głównej.",
    200,
    true,
);
const BUTTON_LABEL: TextField = text(
    "button_label",
    "buttonLabel",
    Field::ButtonLabel,
    "Napis na przycisku rezerwacji",
    "Przycisk na dole strony usługi, na przykład „Umów sesję dla pary”.",
    40,
    true,
);

const NAME: TextField = text(
    "name",
    "name",
    Field::Name,
    "Imię i nazwisko",
    "Tak, jak ma się wyświetlać na stronie „O nas”.",
    80,
    true,
);
const ROLE: TextField = text(
    "role",
    "role",
    Field::Role,
    "Rola",
    "Jedno zdanie pod imieniem, na przykład „Psycholożka, pracuje z parami”.",
    150,
    true,
);
const PHOTO_ALT: TextField = text(
    "photo_alt",
    "photoAlt",
    Field::PhotoAlt,
    "Tekst alternatywny zdjęcia",
    "Co przedstawia zdjęcie, dla osób, które go nie widzą.",
    200,
    true,
);

/// The texts a document of `kind` rendered with `template` shows, in the panel's order.
pub fn text_fields(kind: Kind, template: Option<&str>) -> &'static [TextField] {
    match (kind, template.unwrap_or(kind.template())) {
        (Kind::Page, "home") => &[HOME_HEADING, HOME_SUBTITLE, PROMPT],
        // The panel's own page shows no heading of its own.
        (Kind::Page, "admin") => &[],
        (Kind::Page, _) => &[HEADING, SUBTITLE],
        (Kind::Service, _) => &[INTRO, CARD_TITLE, CARD_DESCRIPTION, BUTTON_LABEL],
        (Kind::Team, _) => &[NAME, ROLE, PHOTO_ALT],
        (Kind::Article, _) => &[],
    }
}

/// A one-line text of at most `max` characters.
pub fn one_line(field: Field, text: &str, max: usize) -> Result<(), Problem> {
    if text.contains(['\n', '\r']) {
        return Err(EditProblem::NotOneLine { field }.into());
    }
    if text.chars().count() > max {
        return Err(EditProblem::TooLong { field, max }.into());
    }
    Ok(())
}

/// The front-matter key of the point of a picture that a crop keeps in view.
pub const FOCUS_KEY: &str = "image_focus";

/// The point of a picture that a crop keeps in view, in percent of its width and height from
/// the top left corner: written `"50% 30%"`, as CSS's `object-position` reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Focus {
    pub x: u8,
    pub y: u8,
}

impl Focus {
    /// The focus `text` writes, or why it is none.
    pub fn parse(text: &str) -> Result<Focus, Problem> {
        let percent = |part: &str| {
            part.strip_suffix('%')
                .and_then(|n| n.trim().parse::<u8>().ok())
                .filter(|n| *n <= 100)
        };
        let mut parts = text.split_whitespace();
        match (
            parts.next().and_then(percent),
            parts.next().and_then(percent),
            parts.next(),
        ) {
            (Some(x), Some(y), None) => Ok(Focus { x, y }),
            _ => Err(EditProblem::FocusForm {
                value: text.to_string(),
            }
            .into()),
        }
    }

    /// Checks an optional focus: empty means the middle of the picture.
    pub fn check(text: &str) -> Result<(), Problem> {
        if text.is_empty() {
            return Ok(());
        }
        Focus::parse(text).map(|_| ())
    }
}

impl std::fmt::Display for Focus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}% {}%", self.x, self.y)
    }
}

impl TextField {
    /// Why `value` (absent, or empty when not required: the field is left out) cannot be
    /// this field's text.
    pub fn check(&self, value: Option<&str>) -> Result<(), Problem> {
        let text = value.unwrap_or_default();
        if self.required && text.trim().is_empty() {
            return Err(EditProblem::Empty { field: self.field }.into());
        }
        one_line(self.field, text, self.max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_and_template_has_its_own_texts() {
        let keys = |kind, template| {
            text_fields(kind, template)
                .iter()
                .map(|f| f.key)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            keys(Kind::Page, Some("home")),
            ["heading", "subtitle", "prompt"]
        );
        assert_eq!(keys(Kind::Page, None), ["heading", "subtitle"]);
        assert!(keys(Kind::Page, Some("admin")).is_empty());
        assert_eq!(
            keys(Kind::Service, None),
            ["intro", "card_title", "card_description", "button_label"]
        );
        assert!(keys(Kind::Article, None).is_empty());
    }

    #[test]
    fn a_focus_is_two_percentages() {
        assert_eq!(Focus::parse("50% 30%").unwrap(), Focus { x: 50, y: 30 });
        assert_eq!(Focus::parse(" 0%  100% ").unwrap().to_string(), "0% 100%");
        for bad in ["50%", "50 30", "101% 0%", "-1% 5%", "50% 30% 1%", "środek"] {
            assert_eq!(
                Focus::parse(bad).unwrap_err().sentence(),
                format!("Punkt ostrości „{bad}”: podaj dwie liczby od 0 do 100 ze znakiem %, na przykład „50% 30%” (poziomo, potem pionowo)."),
                "{bad}"
            );
        }
        assert!(Focus::check("").is_ok());
    }

    #[test]
    fn a_text_is_refused_in_polish_when_empty_long_or_broken() {
        let [heading, ..] = text_fields(Kind::Page, Some("home")) else {
            panic!("the home page has a heading");
        };
        assert_eq!(
            heading.check(Some(" ")).unwrap_err().sentence(),
            "Nagłówek: pole nie może być puste."
        );
        assert_eq!(
            heading.check(None).unwrap_err().sentence(),
            "Nagłówek: pole nie może być puste."
        );
        assert_eq!(
            heading.check(Some("a\nb")).unwrap_err().sentence(),
            "Nagłówek: tekst musi mieścić się w jednym wierszu."
        );
        let long = "ż".repeat(101);
        assert_eq!(
            heading.check(Some(&long)).unwrap_err().sentence(),
            "Nagłówek: tekst może mieć najwyżej 100 znaków."
        );
        assert!(heading.check(Some(&"ż".repeat(100))).is_ok());
        let [other, ..] = text_fields(Kind::Page, None) else {
            panic!("a page has a heading");
        };
        assert!(other.check(Some("")).is_ok(), "optional elsewhere");
    }
}

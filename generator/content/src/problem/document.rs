//! Problems of what a document refers to or says about itself: links and images that lead
//! nowhere, facts that do not exist, dates that are not dates, a therapist or a template that
//! is not there, two files with one address, old addresses (`aliases:`) that cannot be one,
//! pictures without words for those who cannot see them.

use std::path::PathBuf;

use super::texts::{texts, Texts};
use crate::facts::NAMES;

/// Which date a date problem is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateField {
    /// An article's `date`, also as the panel sends it.
    Article,
    /// The `from` of the notice of `site.yaml`.
    NoticeFrom,
    /// The `until` of the notice of `site.yaml`.
    NoticeUntil,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentProblem {
    /// An internal link that is not an absolute path.
    LinkForm {
        url: String,
    },
    /// An internal link to a route (or a file of `content/images/`) that does not exist.
    LinkNowhere {
        url: String,
    },
    /// A link to the admin panel, which visitors cannot use.
    LinkToPanel {
        url: String,
    },
    /// A public page's link to an article that is not public (unpublished or scheduled).
    LinkToHidden {
        url: String,
        route: String,
    },
    /// An image in the Markdown that is not a file of `content/images/`.
    ImageNotFound {
        url: String,
    },
    /// A file of `content/images/` that a page shows but that cannot be read as an image.
    ImageBroken {
        path: String,
        error: String,
    },
    /// An image of a front-matter field that is neither an address, a stock id nor a file.
    ImageField {
        field: String,
        value: String,
    },
    /// A shown image without alt text (`field` is the alt text's field, `image` the image).
    NoAlt {
        field: String,
        image: String,
    },
    /// An image of the Markdown without alt text.
    NoAltInText {
        url: String,
    },
    /// A photograph narrower than the smallest width it is shown at (a warning).
    Narrow {
        image: String,
        width: u32,
        smallest: u32,
    },
    /// A `{{ name }}` that is no fact of `site.yaml`.
    UnknownFact {
        name: String,
    },
    /// A `{{ cena.<id> }}` that names no row of the price list.
    UnknownPrice {
        id: String,
        known: Vec<String>,
    },
    /// A row of the price list whose id is empty, not lowercase letters, digits and '-', or
    /// (`repeated`) the id of an earlier row.
    PriceId {
        id: String,
        repeated: bool,
    },
    /// A literal amount that is the price of exactly one row: the text would keep it when
    /// the price list changes.
    LiteralPrice {
        amount: u32,
        row: String,
        placeholder: String,
    },
    /// A literal amount that several rows cost (a warning): which one is meant only the
    /// author knows.
    AmbiguousPrice {
        amount: u32,
        rows: Vec<String>,
    },
    Date {
        field: DateField,
        value: String,
    },
    /// An article's `therapist` that is no file of `content/team/`.
    UnknownTherapist {
        slug: String,
    },
    /// Two files of one kind with one name; `other` is the one that sorts first.
    DuplicateSlug {
        slug: String,
        other: PathBuf,
    },
    /// A page whose `template` is not a file of `templates/`.
    MissingTemplate {
        name: String,
    },
    AliasNoSlash {
        alias: String,
    },
    AliasTrailingSlash {
        alias: String,
    },
    AliasReserved {
        alias: String,
        prefix: String,
    },
    AliasCharacters {
        alias: String,
    },
    AliasIsRoute {
        alias: String,
    },
    AliasRepeated {
        alias: String,
        file: PathBuf,
        line: usize,
    },
    AliasShadowsFile {
        alias: String,
    },
    /// The page `page` (its address) would hold what no template writes: the publish gate
    /// refused the build, and nothing was published.
    UnsafeMarkup {
        page: String,
        found: Box<super::markup::Markup>,
        /// Whether what caused it was found in the content (else in a template).
        in_content: bool,
    },
    /// The title search results and link previews show (`<title>`: the search title or the
    /// title, with the practice's name) is longer than [`crate::titles::TITLE_MAX_CHARS`].
    TitleTooLong {
        shown: String,
        chars: usize,
        max: usize,
    },
    /// A page search engines may index that no other page links to.
    Orphan {
        route: String,
    },
}

const DATE_FORM_EN: &str = "is not a date in the form YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS]";
const DATE_FORM_PL: &str =
    "nie istnieje albo nie ma postaci RRRR-MM-DD (lub RRRR-MM-DD GG:MM, czasu polskiego).";

fn date(field: DateField, value: &str) -> Texts {
    let (english, polish) = match field {
        DateField::Article => ("date", format!("data „{value}”")),
        DateField::NoticeFrom => ("notice from", format!("komunikat, data „od”: „{value}”")),
        DateField::NoticeUntil => ("notice until", format!("komunikat, data „do”: „{value}”")),
    };
    texts(
        format!("{english}: '{value}' {DATE_FORM_EN}"),
        format!("{polish} {DATE_FORM_PL}"),
    )
}

impl DocumentProblem {
    pub(super) fn texts(&self) -> Texts {
        use DocumentProblem as P;
        match self {
            P::LinkForm { url } => texts(
                format!("the link '{url}' must be a full address or start with '/'"),
                format!("link „{url}” musi być pełnym adresem (https://…) albo zaczynać się od „/”."),
            ),
            P::LinkNowhere { url } => texts(
                format!("the link '{url}' leads to no page of this site"),
                format!("link „{url}” prowadzi do strony, której nie ma w serwisie."),
            ),
            P::LinkToPanel { url } => texts(
                format!("the link '{url}' leads to the admin panel, which is not a page for visitors"),
                format!("link „{url}” prowadzi do panelu administracyjnego, a nie do strony dla odwiedzających: wybierz inną stronę."),
            ),
            P::LinkToHidden { url, route } => texts(
                format!("the link '{url}' leads to the article {route}, which is not published"),
                format!("link „{url}” prowadzi do artykułu {route}, który nie jest opublikowany (jest wycofany albo zaplanowany na później)."),
            ),
            P::ImageNotFound { url } => texts(
                format!("the image '{url}' is not a file under content/images/"),
                format!("obrazu „{url}” nie ma wśród obrazów strony (content/images/)."),
            ),
            P::ImageBroken { path, error } => texts(
                format!("the image '{path}' cannot be shown: {error}"),
                format!("obrazu „{path}” nie da się pokazać ({error}); wybierz inny obraz."),
            ),
            P::ImageField { field, value } => texts(
                format!("{field} '{value}' is neither a full address, a 'photo-…' id nor a file under content/images/"),
                format!("obrazu „{value}” (pole {field}) nie ma wśród obrazów strony; wybierz przesłany obraz albo podaj pełny adres."),
            ),
            P::NoAlt { field, image } => texts(
                format!("{field}: describe the image in words (its alt text): the page shows '{image}' to people who cannot see it"),
                "podaj tekst alternatywny obrazu: co przedstawia, dla osób, które go nie widzą.".into(),
            ),
            P::NoAltInText { url } => texts(
                format!("the image '{url}' has no alt text: describe it between the brackets, ![opis]({url})"),
                format!("obraz „{url}” nie ma tekstu alternatywnego: opisz go w nawiasach kwadratowych, ![opis]({url})."),
            ),
            P::Narrow { image, width, smallest } => texts(
                format!("the image '{image}' is {width} px wide, narrower than the smallest width it is shown at ({smallest} px): it will look blurry; use a larger original"),
                format!("obraz „{image}” ma {width} px szerokości, mniej niż najmniejsza szerokość, w jakiej jest pokazywany ({smallest} px): będzie nieostry; użyj większego oryginału."),
            ),
            P::UnknownPrice { id, known } => texts(
                format!("'{{{{ cena.{id} }}}}' names no row of cennik.yaml; known ids: {}", known.join(", ")),
                format!("„{{{{ cena.{id} }}}}” nie jest żadną pozycją cennika; znane: {}.", known.join(", ")),
            ),
            P::PriceId { id, repeated: true } => texts(
                format!("the id '{id}' is used by an earlier row of the price list"),
                format!("identyfikator „{id}” ma już wcześniejsza pozycja cennika: nadaj tej pozycji inny."),
            ),
            P::PriceId { id, repeated: false } => texts(
                format!("the id '{id}' of a price row must be lowercase letters, digits and '-'"),
                format!("identyfikator pozycji cennika „{id}” może mieć tylko małe litery bez polskich znaków, cyfry i „-”."),
            ),
            P::LiteralPrice { amount, row, placeholder } => texts(
                format!("{amount} zł is the price of '{row}' in cennik.yaml: write {placeholder}, so that a change of the price list changes this text too"),
                format!("{amount} zł to cena pozycji „{row}” z cennika: wpisz {placeholder}, a zmiana w cenniku zmieni też ten tekst."),
            ),
            P::AmbiguousPrice { amount, rows } => texts(
                format!("{amount} zł is the price of several rows of cennik.yaml ({}): name the one meant with its {{{{ cena.… }}}}, or this text keeps the old price when the list changes", rows.join(", ")),
                format!("{amount} zł kosztuje kilka pozycji cennika ({}): wpisz tę, o którą chodzi, jako {{{{ cena.… }}}}, inaczej po zmianie cennika ten tekst zostanie ze starą ceną.", rows.join(", ")),
            ),
            P::UnknownFact { name } => texts(
                format!("'{{{{ {name} }}}}' is not a fact of site.yaml; known: {}", NAMES.join(", ")),
                format!("„{{{{ {name} }}}}” nie jest znaną daną gabinetu; znane: {}.", NAMES.join(", ")),
            ),
            P::Date { field, value } => date(*field, value),
            P::UnknownTherapist { slug } => texts(
                format!("therapist '{slug}' is not a file under content/team/"),
                format!("terapeuty „{slug}” nie ma w zespole."),
            ),
            P::DuplicateSlug { slug, other } => texts(
                format!("duplicate slug '{slug}': {} defines it too", other.display()),
                format!("adres „{slug}” jest już zajęty przez inny plik."),
            ),
            P::MissingTemplate { name } => texts(
                format!("template: there is no templates/{name}.html"),
                format!("nie ma szablonu „{name}”."),
            ),
            P::AliasNoSlash { alias } => texts(
                format!("alias '{alias}' must start with '/'"),
                format!("stary adres „{alias}” musi zaczynać się od „/”."),
            ),
            P::AliasTrailingSlash { alias } => texts(
                format!("alias '{alias}' must name a page, without a '/' at the end"),
                format!("stary adres „{alias}” musi wskazywać stronę, bez „/” na końcu."),
            ),
            P::AliasReserved { alias, prefix } => texts(
                format!("alias '{alias}' is under {prefix}, which belongs to files or the API"),
                format!("stary adres „{alias}” leży pod {prefix}, które należy do plików albo API."),
            ),
            P::AliasCharacters { alias } => texts(
                format!("alias '{alias}' may hold only letters a-z, A-Z, digits and '-', '_', '.', '~' between single '/', and no part may start with '.' or '_'"),
                format!("stary adres „{alias}” może zawierać tylko litery a–z, A–Z, cyfry oraz „-”, „_”, „.”, „~” między pojedynczymi „/”, a żadna jego część nie może zaczynać się od „.” ani „_”."),
            ),
            P::AliasIsRoute { alias } => texts(
                format!("alias '{alias}' is the address of an existing page"),
                format!("stary adres „{alias}” jest adresem istniejącej strony."),
            ),
            P::AliasRepeated { alias, file, line } => texts(
                format!("alias '{alias}' is already an alias in {}:{line}", file.display()),
                format!("stary adres „{alias}” jest już podany w {}, wiersz {line}.", file.display()),
            ),
            P::AliasShadowsFile { alias } => texts(
                format!("alias '{alias}' is the address of a published file of the site"),
                format!("stary adres „{alias}” jest adresem opublikowanego pliku serwisu."),
            ),
            P::UnsafeMarkup { page, found, in_content } => {
                let (en, pl) = found.phrases();
                let (en_fix, pl_fix) = match in_content {
                    true => ("remove it from the text, or rename the file it names", "usuń ten fragment z tekstu albo zmień nazwę pliku, którą on podaje"),
                    false => ("a template writes it: fix the template", "pisze to szablon strony: trzeba go poprawić"),
                };
                texts(
                    format!("the page {page} would hold {en}, which the site's templates never write; nothing was published: {en_fix}"),
                    format!("strona {page} zawierałaby {pl}, czego szablony strony nigdy nie piszą, więc nic nie zostało opublikowane: {pl_fix}."),
                )
            }
            P::TitleTooLong { shown, chars, max } => texts(
                format!("the title search results show, '{shown}', has {chars} characters; at most {max} fit: shorten title (or seo_title, which search results show instead)"),
                format!("tytuł w wynikach wyszukiwania, „{shown}”, ma {chars} znaków, a mieści się najwyżej {max}: skróć tytuł (albo tytuł dla wyszukiwarek, seo_title, który wyszukiwarki pokazują zamiast niego)."),
            ),
            P::Orphan { route } => texts(
                format!("no other page of the site links to {route}: visitors and search engines find it only by its address; link it from a page on the same subject, list it (listed: true) or keep it out of search engines (noindex: true)"),
                format!("żadna inna strona serwisu nie prowadzi do {route}: odwiedzający i wyszukiwarki trafią na nią tylko po adresie. Dodaj do niej link na stronie o podobnym temacie, pokaż ją na liście (listed: true) albo ukryj przed wyszukiwarkami (noindex: true)."),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;

    #[test]
    fn links_and_dates_read_the_same_in_both_languages() {
        let nowhere = Problem::from(DocumentProblem::LinkNowhere {
            url: "/nie-ma".into(),
        });
        assert_eq!(
            nowhere.english(),
            "the link '/nie-ma' leads to no page of this site"
        );
        assert_eq!(
            nowhere.polish(),
            "link „/nie-ma” prowadzi do strony, której nie ma w serwisie."
        );
        let date = Problem::from(DocumentProblem::Date {
            field: DateField::Article,
            value: "2025-02-30".into(),
        });
        assert_eq!(
            date.english(),
            "date: '2025-02-30' is not a date in the form YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS]"
        );
        assert!(date
            .sentence()
            .starts_with("Data „2025-02-30” nie istnieje"));
        let notice = Problem::from(DocumentProblem::Date {
            field: DateField::NoticeUntil,
            value: "jutro".into(),
        });
        assert!(notice
            .sentence()
            .starts_with("Komunikat, data „do”: „jutro” nie istnieje"));
        let fact = Problem::from(DocumentProblem::UnknownFact {
            name: "ulica".into(),
        });
        assert!(fact
            .english()
            .starts_with("'{{ ulica }}' is not a fact of site.yaml; known: nazwa, godziny, adres"));
        assert!(fact
            .polish()
            .starts_with("„{{ ulica }}” nie jest znaną daną gabinetu"));
    }
}

//! What the publish gate of the site found in a rendered page that its templates never write:
//! an element or attribute outside what they produce, an event handler, an address that runs
//! code, a script. Each is said as a phrase in both languages, which the problem of the
//! document that caused it ([`super::DocumentProblem::UnsafeMarkup`]) puts in a sentence.

/// One thing a page would hold that no template writes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Markup {
    /// An element outside the allow-list (`<iframe>`, `<style>`, `<base>`…).
    Element { name: String },
    /// An attribute outside the allow-list (`style`, `srcdoc`, `http-equiv`…).
    Attribute { element: String, name: String },
    /// An event handler (`onclick`, `onfocus`…): code that would run.
    Handler { element: String, name: String },
    /// An address whose scheme runs code or carries a document (`javascript:`, `data:` outside
    /// a picture, any scheme the site does not link).
    Scheme {
        element: String,
        attribute: String,
        scheme: String,
    },
    /// An address with a character an address never holds unencoded (a space, a quote, `<`):
    /// what a name written into an attribute without escaping leaves behind.
    Unescaped { element: String, attribute: String },
    /// A script loaded from anywhere but the site's own built files.
    ForeignScript { src: String },
    /// Inline code that is none of the templates' own scripts.
    InlineScript,
    /// A `<script>` of a type that is neither code nor data the templates write.
    ScriptType { kind: String },
    /// A stylesheet or module loaded from anywhere but the site's own files.
    ForeignResource { element: String, url: String },
}

impl Markup {
    /// The phrase in Polish ("atrybut „onfocus” w znaczniku <img>").
    pub fn polish(&self) -> String {
        self.phrases().1
    }

    /// The phrase in English and in Polish ("an attribute 'onfocus' on <img>").
    pub(super) fn phrases(&self) -> (String, String) {
        use Markup as M;
        match self {
            M::Element { name } => (
                format!("an element <{name}>"),
                format!("znacznik <{name}>"),
            ),
            M::Attribute { element, name } => (
                format!("an attribute '{name}' on <{element}>"),
                format!("atrybut „{name}” w znaczniku <{element}>"),
            ),
            M::Handler { element, name } => (
                format!("an event handler '{name}' on <{element}> (code that would run)"),
                format!("obsługę zdarzenia „{name}” w znaczniku <{element}> (kod, który by się uruchomił)"),
            ),
            M::Scheme { element, attribute, scheme } => (
                format!("an address '{scheme}:' in '{attribute}' of <{element}>"),
                format!("adres „{scheme}:” w atrybucie „{attribute}” znacznika <{element}>"),
            ),
            M::Unescaped { element, attribute } => (
                format!("an address with an unencoded space, quote or angle bracket in '{attribute}' of <{element}>"),
                format!("adres z niezakodowaną spacją, cudzysłowem lub nawiasem ostrym w atrybucie „{attribute}” znacznika <{element}>"),
            ),
            M::ForeignScript { src } => (
                format!("a script from '{src}', which is not a file of the site"),
                format!("skrypt z adresu „{src}”, który nie jest plikiem strony"),
            ),
            M::InlineScript => (
                "an inline script no template writes".into(),
                "skrypt wpisany w stronę, którego nie pisze żaden szablon".into(),
            ),
            M::ScriptType { kind } => (
                format!("a <script type=\"{kind}\">"),
                format!("znacznik <script type=\"{kind}\">"),
            ),
            M::ForeignResource { element, url } => (
                format!("<{element}> loading '{url}', which is not a file of the site"),
                format!("znacznik <{element}> wczytujący „{url}”, który nie jest plikiem strony"),
            ),
        }
    }
}

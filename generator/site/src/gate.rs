//! The publish gate: every page a build renders is parsed (html5ever's tokenizer, as a
//! browser reads it) and held to what the templates produce before anything is published.
//! A page may hold only the elements and attributes of the allow-list below, no event handler,
//! no address that runs code (`javascript:`, `data:` outside a picture, any scheme the site
//! does not link), no address with an unencoded space, quote or angle bracket (what a name
//! written into an attribute unescaped leaves behind), no script loaded from anywhere but the
//! site's own built files, and no inline script but the templates' own (by the hashes of
//! their sources, the same the Content-Security-Policy allows). The builder runs it on the
//! pages it rendered, never on the ones it reused, nor on one rendered again to the very bytes
//! it passed last time under the same allowed scripts: those passed when they were rendered.
//!
//! What it finds is told as the content file and line that caused it ([`locate`], and
//! [`crate::page_gate`] for a build's pages): the document or file of `content/` whose text
//! holds what the page shows, or else the template.

use std::cell::RefCell;
use std::collections::BTreeSet;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

use content::problem::Markup;

/// Elements the templates, the Markdown of content (after the sanitiser) and the islands'
/// prerendered HTML produce: HTML, and the few SVG elements of the site's icons.
#[rustfmt::skip]
const ELEMENTS: &[&str] = &[
    "a", "abbr", "address", "article", "aside", "b", "bdi", "bdo", "blockquote", "body", "br",
    "button", "caption", "cite", "code", "col", "colgroup", "data", "dd", "del", "details",
    "dfn", "dialog", "div", "dl", "dt", "em", "fieldset", "figcaption", "figure", "footer",
    "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i",
    "img", "input", "ins", "kbd", "label", "legend", "li", "link", "main", "mark", "menu",
    "meta", "nav", "noscript", "ol", "optgroup", "option", "output", "p", "picture", "pre",
    "q", "rp", "rt", "ruby", "s", "samp", "script", "search", "section", "select", "small",
    "source", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td",
    "textarea", "tfoot", "th", "thead", "time", "title", "tr", "tt", "u", "ul", "var", "wbr",
    // The icons' SVG.
    "svg", "path", "g", "circle", "ellipse", "rect", "line", "polyline", "polygon", "defs",
    "lineargradient", "radialgradient", "stop", "clippath", "symbol", "desc",
];

/// Elements a picture of `content/images/` (an SVG file, published as it is and openable on
/// the site's origin) may hold: drawing only, no script, no foreign content.
#[rustfmt::skip]
const SVG_ELEMENTS: &[&str] = &[
    "svg", "path", "g", "circle", "ellipse", "rect", "line", "polyline", "polygon", "defs",
    "lineargradient", "radialgradient", "stop", "clippath", "symbol", "desc", "title", "use",
    "mask", "pattern", "text", "tspan", "filter", "fegaussianblur", "feoffset", "feblend",
    "feflood", "fecomposite", "femerge", "femergenode", "fecolormatrix", "metadata",
];

/// Attributes any allowed element may carry (besides `aria-*` and `data-*`).
#[rustfmt::skip]
const ATTRIBUTES: &[&str] = &[
    // HTML
    "accept", "action", "align", "alt", "async", "autocomplete", "autocapitalize", "charset",
    "checked", "cite", "class", "cols", "colspan", "content", "crossorigin", "datetime",
    "decoding", "defer", "dir", "disabled", "download", "enctype", "enterkeyhint",
    "fetchpriority", "for", "headers", "height", "hidden", "href", "hreflang", "id", "inert",
    "inputmode", "integrity", "itemprop", "itemscope", "itemtype", "label", "lang", "loading",
    "max", "maxlength", "media", "method", "min", "minlength", "multiple", "name",
    "novalidate", "open", "pattern", "placeholder", "property", "readonly", "referrerpolicy",
    "rel", "required", "reversed", "role", "rows", "rowspan", "scope", "selected", "size",
    "sizes", "span", "spellcheck", "src", "srcset", "start", "step", "tabindex", "target",
    "title", "translate", "type", "value", "width", "wrap",
    // SVG
    "clip-rule", "clip-path", "cx", "cy", "d", "fill", "fill-opacity", "fill-rule",
    "focusable", "gradienttransform", "gradientunits", "offset", "opacity", "points",
    "preserveaspectratio", "r", "rx", "ry", "stop-color", "stop-opacity", "stroke",
    "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
    "stroke-opacity", "stroke-width", "transform", "version", "viewbox", "x", "x1", "x2",
    "xmlns", "y", "y1", "y2", "xmlns:xlink", "xlink:href", "fx", "fy", "spreadmethod",
    "patternunits", "patterncontentunits", "maskunits", "maskcontentunits", "clippathunits",
    "filterunits", "stddeviation", "in", "in2", "result", "mode", "operator", "flood-color",
    "flood-opacity", "dx", "dy", "values", "text-anchor", "dominant-baseline", "font-family",
    "font-size", "font-weight", "font-style", "letter-spacing", "xml:space", "vector-effect",
];

/// Attributes whose value is an address (`srcset`: a list of them).
const URL_ATTRIBUTES: &[&str] = &[
    "href",
    "src",
    "srcset",
    "action",
    "formaction",
    "cite",
    "xlink:href",
];

/// Schemes a link of the site may use; `data:` only for a picture's own bytes.
const SCHEMES: &[&str] = &["http", "https", "mailto", "tel", "sms", "geo", "webcal"];

/// `<link rel>` values that load something into the page: only the site's own files.
const LOADING_RELS: &[&str] = &[
    "stylesheet",
    "preload",
    "modulepreload",
    "prefetch",
    "import",
];

/// One thing a page holds that no template writes, at a line of the page, with the texts that
/// may lead to what caused it in the content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub found: Markup,
    /// The 1-based line of the page.
    pub line: u64,
    /// Texts from the page around it (an attribute's value, a script's text, an address),
    /// most telling first: [`locate`] looks for them in the content.
    pub clues: Vec<String>,
}

/// Whether `path` is one of the site's own built files (under `/assets/`).
fn own_file(path: &str) -> bool {
    path.starts_with("/assets/") && !path.contains("..") && !path.contains('\\')
}

/// The scheme of an address, lowercase, as a browser reads it (tabs and newlines dropped,
/// leading spaces and control characters trimmed); `None` for a relative address.
fn scheme(url: &str) -> Option<String> {
    let cleaned: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let end = cleaned.find([':', '/', '?', '#'])?;
    (cleaned.as_bytes()[end] == b':').then(|| cleaned[..end].to_ascii_lowercase())
}

/// Whether an address holds a character no address holds unencoded (an apostrophe may stand:
/// a link to a page named `O'Neill` is one).
fn unescaped(url: &str) -> bool {
    url.trim_matches(|c: char| c.is_ascii_whitespace())
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>' | '`'))
}

/// The addresses of an attribute's value: one, or each candidate of a `srcset`.
fn addresses<'a>(name: &str, value: &'a str) -> Vec<&'a str> {
    match name {
        "srcset" => value
            .split(',')
            .filter_map(|candidate| candidate.split_ascii_whitespace().next())
            .collect(),
        _ => vec![value],
    }
}

/// The gate's reading of one page.
#[derive(Default)]
struct State {
    findings: Vec<Finding>,
    /// The inline script being read: its line and text.
    script: Option<(u64, String)>,
    /// How deep inside `<svg>` the tokenizer is (its `<title>` is no RCDATA there).
    svg: usize,
}

/// What a text is held to: a page (with the inline scripts it may hold), or an SVG picture
/// (no script at all, and addresses only to its own parts, `#id`).
#[derive(Clone, Copy)]
enum Policy<'a> {
    Page(&'a BTreeSet<String>),
    Svg,
}

struct Sink<'a> {
    policy: Policy<'a>,
    state: RefCell<State>,
}

impl Sink<'_> {
    fn find(&self, found: Markup, line: u64, clues: Vec<String>) {
        let clues = clues.into_iter().filter(|c| !c.trim().is_empty()).collect();
        self.state
            .borrow_mut()
            .findings
            .push(Finding { found, line, clues });
    }

    /// One attribute of an opening tag (`element`: its name; nothing is copied unless found).
    fn attribute(&self, element: &str, name: &str, value: &str, line: u64) {
        let clue = || vec![value.to_string(), name.to_string()];
        if name.starts_with("on") {
            let (element, name) = (element.to_string(), name.to_string());
            return self.find(Markup::Handler { element, name }, line, clue());
        }
        let allowed = ATTRIBUTES.contains(&name)
            || name.starts_with("aria-")
            || (name.starts_with("data-") && name.len() > 5);
        if !allowed {
            let (element, name) = (element.to_string(), name.to_string());
            return self.find(Markup::Attribute { element, name }, line, clue());
        }
        if !URL_ATTRIBUTES.contains(&name) {
            return;
        }
        if matches!(self.policy, Policy::Svg) && !value.trim_start().starts_with('#') {
            let found = Markup::ForeignResource {
                element: element.to_string(),
                url: value.to_string(),
            };
            return self.find(found, line, clue());
        }
        let picture = matches!(element, "img" | "source") && name != "href";
        for url in addresses(name, value) {
            match scheme(url) {
                None => {}
                Some(s) if SCHEMES.contains(&s.as_str()) => {}
                Some(s) if s == "data" && picture => {}
                Some(scheme) => {
                    let attribute = name.to_string();
                    let found = Markup::Scheme {
                        element: element.to_string(),
                        attribute,
                        scheme,
                    };
                    return self.find(found, line, vec![url.to_string(), value.to_string()]);
                }
            }
            if unescaped(url) {
                let attribute = name.to_string();
                let found = Markup::Unescaped {
                    element: element.to_string(),
                    attribute,
                };
                return self.find(found, line, clue());
            }
        }
    }

    /// An opening tag: its element and attributes; for a script, whether it is the site's.
    fn start(&self, tag: &Tag, line: u64) {
        let element: &str = &tag.name;
        let elements = match self.policy {
            Policy::Page(_) => ELEMENTS,
            Policy::Svg => SVG_ELEMENTS,
        };
        if !elements.contains(&element) {
            let clues = vec![format!("<{element}"), element.to_string()];
            let name = element.to_string();
            self.find(Markup::Element { name }, line, clues);
        }
        for attr in &tag.attrs {
            // The tokenizer lowers an attribute's name in HTML; SVG's foreign names keep theirs.
            let name: &str = &attr.name.local;
            if name.bytes().any(|b| b.is_ascii_uppercase()) {
                self.attribute(element, &name.to_ascii_lowercase(), &attr.value, line);
            } else {
                self.attribute(element, name, &attr.value, line);
            }
        }
        let value = |name: &str| {
            tag.attrs
                .iter()
                .find(|a| (*a.name.local).eq_ignore_ascii_case(name))
                .map(|a| a.value.to_string())
        };
        match element {
            "script" => self.script(value("type"), value("src"), line),
            "link" => {
                let rel = value("rel").unwrap_or_default().to_ascii_lowercase();
                let href = value("href").unwrap_or_default();
                let loads = rel
                    .split_ascii_whitespace()
                    .any(|r| LOADING_RELS.contains(&r));
                if loads && !own_file(&href) {
                    let found = Markup::ForeignResource {
                        element: element.to_string(),
                        url: href.clone(),
                    };
                    self.find(found, line, vec![href]);
                }
            }
            "form" => {
                let action = value("action").unwrap_or_default();
                if !(action.is_empty() || (action.starts_with('/') && !action.starts_with("//"))) {
                    let found = Markup::ForeignResource {
                        element: element.to_string(),
                        url: action.clone(),
                    };
                    self.find(found, line, vec![action]);
                }
            }
            _ => {}
        }
    }

    fn script(&self, kind: Option<String>, src: Option<String>, line: u64) {
        let kind = kind.unwrap_or_default().to_ascii_lowercase();
        let data = crate::headers::DATA_SCRIPT_TYPES.contains(&kind.as_str());
        if !(data || matches!(kind.as_str(), "" | "module" | "text/javascript")) {
            return self.find(Markup::ScriptType { kind: kind.clone() }, line, vec![kind]);
        }
        match src {
            Some(src) if !data && own_file(&src) => {}
            Some(src) => self.find(Markup::ForeignScript { src: src.clone() }, line, vec![src]),
            None if data => {}
            None => self.state.borrow_mut().script = Some((line, String::new())),
        }
    }

    /// The end of a script: inline code must be one of the templates' own.
    fn end_script(&self) {
        let open = self.state.borrow_mut().script.take();
        let allowed = match self.policy {
            Policy::Page(hashes) => hashes,
            Policy::Svg => &BTreeSet::new(),
        };
        if let Some((line, text)) = open {
            if !allowed.contains(&crate::headers::script_hash(&text)) {
                let short: String = text.trim().chars().take(80).collect();
                self.find(Markup::InlineScript, line, vec![short]);
            }
        }
    }
}

impl TokenSink for Sink<'_> {
    type Handle = ();

    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<()> {
        match token {
            Token::TagToken(tag) => match tag.kind {
                TagKind::StartTag => {
                    self.start(&tag, line);
                    let in_svg = self.state.borrow().svg > 0;
                    match tag.name.as_ref() {
                        "svg" if !tag.self_closing => self.state.borrow_mut().svg += 1,
                        "script" if !in_svg => {
                            return TokenSinkResult::RawData(RawKind::ScriptData)
                        }
                        "title" | "textarea" if !in_svg => {
                            return TokenSinkResult::RawData(RawKind::Rcdata)
                        }
                        "style" | "xmp" | "iframe" | "noembed" | "noframes" if !in_svg => {
                            return TokenSinkResult::RawData(RawKind::Rawtext)
                        }
                        "plaintext" => return TokenSinkResult::Plaintext,
                        _ => {}
                    }
                }
                TagKind::EndTag => match tag.name.as_ref() {
                    "script" => self.end_script(),
                    "svg" => {
                        let mut state = self.state.borrow_mut();
                        state.svg = state.svg.saturating_sub(1);
                    }
                    _ => {}
                },
            },
            Token::CharacterTokens(text) => {
                if let Some((_, body)) = self.state.borrow_mut().script.as_mut() {
                    body.push_str(&text);
                }
            }
            Token::EOFToken => self.end_script(),
            _ => {}
        }
        TokenSinkResult::Continue
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.state.borrow().svg > 0
    }
}

/// The fingerprint of a set of allowed inline scripts (their CSP hashes): a page's bytes and
/// this decide the gate's verdict.
pub fn allowed_fingerprint(inline_allowed: &BTreeSet<String>) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for script in inline_allowed {
        hash.update(script.as_bytes());
        hash.update([0]);
    }
    hash.finalize().into()
}

/// Everything in `html` that no template writes; `inline_allowed` are the CSP hashes of the
/// inline scripts the page may hold (the templates', or none on the panel's origin).
pub fn check(html: &str, inline_allowed: &BTreeSet<String>) -> Vec<Finding> {
    run(html, Policy::Page(inline_allowed))
}

/// Everything in an SVG picture that is not drawing: a script, an event handler, an element
/// outside the drawing ones, an address to anything but its own parts.
pub fn check_svg(svg: &str) -> Vec<Finding> {
    run(svg, Policy::Svg)
}

fn run(html: &str, policy: Policy<'_>) -> Vec<Finding> {
    let sink = Sink {
        policy,
        state: RefCell::default(),
    };
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.state.into_inner().findings
}

/// Where a clue stands in `text`: its 0-based line, when `text` holds it.
fn line_in(text: &str, clue: &str) -> Option<usize> {
    let at = text.find(clue)?;
    Some(text[..at].matches('\n').count())
}

/// The pieces of a clue worth looking for on their own: the clue, then its words of four or
/// more characters, longest first.
fn needles(clues: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for clue in clues {
        let clue: String = clue.chars().take(120).collect();
        out.push(clue.clone());
        let mut words: Vec<&str> = clue
            .split(|c: char| c.is_whitespace() || "\"'<>=`(),;".contains(c))
            .filter(|w| w.chars().count() >= 4)
            .collect();
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        out.extend(words.into_iter().map(str::to_string));
    }
    out.dedup();
    out
}

/// A text of the sources the gate looks through for what caused a finding, with the file it
/// is and the 1-based line its text starts at.
pub(crate) struct Source<'a> {
    pub file: std::path::PathBuf,
    pub first_line: usize,
    pub text: std::borrow::Cow<'a, str>,
    /// Whether it is content (else a template).
    pub content: bool,
}

/// The file and line of the first source that holds one of the finding's clues, most
/// telling clue first, and whether that source is content.
pub(crate) fn locate<'a>(
    finding: &Finding,
    sources: &'a [Source<'_>],
) -> Option<(&'a std::path::Path, usize, bool)> {
    for needle in needles(&finding.clues) {
        for source in sources {
            if let Some(line) = line_in(&source.text, &needle) {
                return Some((&source.file, source.first_line + line, source.content));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(html: &str) -> Vec<Markup> {
        let allowed = BTreeSet::from([crate::headers::script_hash("ok()")]);
        check(html, &allowed).into_iter().map(|f| f.found).collect()
    }

    #[test]
    fn what_the_templates_write_passes() {
        let page = "<!doctype html><html lang=\"pl\"><head><meta charset=\"utf-8\"><title>A &amp; b</title><script>ok()</script><link rel=\"stylesheet\" href=\"/assets/style.1.css\"><script type=\"module\" src=\"/assets/islands/site.1.js\"></script></head><body><a href=\"https://booksy.com/x?a=1&amp;b=2\" target=\"_blank\" rel=\"noopener\" data-zlw-doctor=\"m\" aria-label=\"x\">x</a><a href=\"tel:+48583452190\">t</a><a href=\"https://pl.wikipedia.org/wiki/O'Neill\">o</a><a href=\"mailto:k@example.pl\">m</a><picture><source type=\"image/avif\" srcset=\"/assets/img/a.480.k.avif 480w, /assets/img/a.800.k.avif 800w\" sizes=\"100vw\"><img src=\"data:image/png;base64,AA==\" alt=\"\" width=\"1\" height=\"1\"></picture><svg viewBox=\"0 0 1 1\" aria-hidden=\"true\"><title>t</title><path d=\"M0 0\"/></svg><script type=\"application/json\">{\"a\":\"</b>\"}</script><form method=\"post\" action=\"/api/contact\"><textarea name=\"m\"><b onclick=x></textarea></form></body></html>";
        assert_eq!(found(page), Vec::<Markup>::new());
    }

    #[test]
    fn the_attacks_of_the_issue_are_found() {
        // The file name `a"><script x=`…`.png` written into a srcset unescaped.
        let name = "<source type=\"image/avif\" srcset=\"/assets/img/a\"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.480.k.avif 480w\">";
        let f = found(name);
        assert!(f.contains(&Markup::InlineScript), "{f:?}");
        // `q" onmouseover="…" x=".png`.
        let handler = found(
            "<source srcset=\"/assets/img/q\" onmouseover=\"alert(1)\" x=\".480.k.avif 480w\">",
        );
        assert!(handler.contains(&Markup::Handler {
            element: "source".into(),
            name: "onmouseover".into()
        }));
        assert!(
            found("<img src=\"/images/q autofocus.svg\" alt=\"\">").contains(&Markup::Unescaped {
                element: "img".into(),
                attribute: "src".into()
            })
        );
        assert_eq!(
            found("<a href=\" JaVa\tScRiPt:alert(1)\">x</a>"),
            vec![Markup::Scheme {
                element: "a".into(),
                attribute: "href".into(),
                scheme: "javascript".into()
            }]
        );
        assert!(matches!(
            found("<a href=\"data:text/html,<b>\">x</a>")[..],
            [Markup::Scheme { .. }]
        ));
        assert_eq!(
            found("<iframe srcdoc=\"x\"></iframe>"),
            vec![
                Markup::Element {
                    name: "iframe".into()
                },
                Markup::Attribute {
                    element: "iframe".into(),
                    name: "srcdoc".into()
                }
            ]
        );
        assert_eq!(
            found("<script src=\"http://127.0.0.1:8099/cp.js\"></script><script>alert(1)</script><script type=\"text/x-tpl\">x</script>"),
            vec![
                Markup::ForeignScript { src: "http://127.0.0.1:8099/cp.js".into() },
                Markup::InlineScript,
                Markup::ScriptType { kind: "text/x-tpl".into() }
            ]
        );
        assert!(matches!(
            found("<p style=\"x\">a</p>")[..],
            [Markup::Attribute { .. }]
        ));
        assert!(matches!(
            found("<svg><script>alert(1)</script></svg>")[..],
            [Markup::InlineScript]
        ));
        assert!(matches!(
            found("<link rel=\"stylesheet\" href=\"https://evil.example/a.css\">")[..],
            [Markup::ForeignResource { .. }]
        ));
        assert!(matches!(
            found("<meta http-equiv=\"refresh\" content=\"0;url=https://x\">")[..],
            [Markup::Attribute { .. }]
        ));
    }

    #[test]
    fn an_svg_picture_may_only_draw() {
        let drawing = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><title>Las</title><defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"#fff\"/></linearGradient></defs><rect width=\"10\" height=\"10\" fill=\"url(#g)\"/><use xlink:href=\"#g\"/></svg>";
        assert_eq!(check_svg(drawing), Vec::new());
        let kinds =
            |svg: &str| -> Vec<Markup> { check_svg(svg).into_iter().map(|f| f.found).collect() };
        assert!(matches!(
            kinds("<svg><script>alert(1)</script></svg>")[..],
            [Markup::Element { .. }, Markup::InlineScript]
        ));
        assert!(matches!(
            kinds("<svg onload=\"alert(1)\"></svg>")[..],
            [Markup::Handler { .. }]
        ));
        assert!(matches!(
            kinds("<svg><foreignObject><iframe></iframe></foreignObject></svg>")[..],
            [Markup::Element { .. }, Markup::Element { .. }]
        ));
        assert!(matches!(
            kinds("<svg><a href=\"javascript:alert(1)\"><rect/></a></svg>")[..],
            [Markup::Element { .. }, Markup::ForeignResource { .. }]
        ));
        assert!(matches!(
            kinds("<svg><use href=\"https://evil.example/x.svg#a\"/></svg>")[..],
            [Markup::ForeignResource { .. }]
        ));
        let line = check_svg("<svg>\n<rect/>\n<rect onclick=\"x\"/></svg>")[0].line;
        assert_eq!(line, 3);
    }

    #[test]
    fn a_finding_is_traced_to_the_text_that_holds_it() {
        let findings = check(
            "<p>\n<img src=\"/images/q\" onfocus=\"alert(document.domain)\" x=\".svg\"></p>",
            &BTreeSet::new(),
        );
        assert_eq!(findings[0].line, 2);
        let sources = [
            Source {
                file: "content/blog/a.md".into(),
                first_line: 1,
                text: "---\ntitle: A\n---\nTekst.\n".into(),
                content: true,
            },
            Source {
                file: "content/blog/b.md".into(),
                first_line: 5,
                text: "Tekst\n![x](q\" onfocus=\"alert(document.domain)\" x=\".svg)\n".into(),
                content: true,
            },
        ];
        let at = locate(&findings[0], &sources);
        assert_eq!(
            at,
            Some((std::path::Path::new("content/blog/b.md"), 6, true))
        );
    }
}

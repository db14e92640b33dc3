//! All YAML parsing lives here, so that the frozen `serde_yaml` can be swapped in one place,
//! and so do the targeted edits the admin panel makes to YAML files: `serde_yaml` cannot
//! write a file back with its comments and layout, so a change replaces the lines of the
//! fields it changes and nothing else, and is then parsed again to prove that exactly those
//! fields changed.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// A YAML problem with the 1-based line inside the parsed text, when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub line: Option<usize>,
    /// The parser's own words (English).
    pub message: String,
    pub kind: YamlKind,
}

/// What kind of problem the parser found, where the Polish of the panel can say it better
/// than the parser's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlKind {
    UnknownField(String),
    MissingField(String),
    DuplicateField(String),
    /// A quote opened on the problem's line is never closed on it: the parser read on and
    /// stumbled lines later, where it reported.
    UnclosedQuote,
    /// A mistake of the notation itself, of a kind people make.
    Syntax(Syntax),
    /// A value of the wrong kind: `found` and `expected` in Polish ("tekst", "lista").
    WrongType {
        found: &'static str,
        expected: &'static str,
    },
    Other,
}

/// The mistakes of notation the parser names, as people make them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// A line that is neither `name: value` nor a list item where one was expected.
    ExpectedKey,
    /// `title: Terapia: jak działa` — a colon and a space inside a value.
    ColonInValue,
    /// A value starting with a character YAML reserves (`@`, `` ` ``) or a tab.
    BadStart,
    /// A tab in the indentation.
    Tab,
    /// `\q` inside double quotes.
    Escape,
    /// `[a, b` without its `]`.
    UnclosedList,
    /// `{a: b` without its `}`.
    UnclosedMap,
    /// The file ends inside a value.
    EndOfFile,
    /// A list item indented differently from the others.
    ListIndent,
    /// A name without its colon.
    MissingColon,
    /// A second `---` inside, or an indented first line.
    TwoDocuments,
}

impl Syntax {
    /// The parser's words for each mistake (libyaml's, as serde_yaml passes them on).
    const WORDS: [(&'static str, Syntax); 13] = [
        ("did not find expected key", Syntax::ExpectedKey),
        ("mapping values are not allowed", Syntax::ColonInValue),
        ("cannot start any token", Syntax::BadStart),
        ("cannot start any plain scalar", Syntax::BadStart),
        ("tab character", Syntax::Tab),
        ("unknown escape character", Syntax::Escape),
        ("did not find expected ',' or ']'", Syntax::UnclosedList),
        ("did not find expected ',' or '}'", Syntax::UnclosedMap),
        ("unexpected end of stream", Syntax::EndOfFile),
        ("did not find expected '-' indicator", Syntax::ListIndent),
        ("block sequence entries are not allowed", Syntax::ListIndent),
        ("could not find expected ':'", Syntax::MissingColon),
        ("more than one document", Syntax::TwoDocuments),
    ];

    fn of(message: &str) -> Option<Syntax> {
        Self::WORDS
            .iter()
            .find(|(words, _)| message.contains(words))
            .map(|(_, syntax)| *syntax)
    }

    /// What is wrong and how to put it right, in Polish.
    pub fn polish(self) -> &'static str {
        match self {
            Syntax::ExpectedKey => "w tym miejscu powinno być pole w postaci „nazwa: wartość”; sprawdź wcięcie tego wiersza i cudzysłowy w wierszu wyżej",
            Syntax::ColonInValue => "w wartości jest dwukropek ze spacją („: ”), więc zapis wygląda jak kolejne pole; ujmij całą wartość w cudzysłów (\"…\")",
            Syntax::BadStart => "wartość zaczyna się od znaku zastrzeżonego w YAML-u (np. @ albo `) albo od tabulatora; ujmij wartość w cudzysłów",
            Syntax::Tab => "wcięcie zrobiono tabulatorem, a YAML przyjmuje tylko spacje",
            Syntax::Escape => "w cudzysłowie jest ukośnik „\\” przed znakiem, którego nie można tak zapisać; napisz „\\\\” albo ujmij wartość w apostrofy",
            Syntax::UnclosedList => "lista w nawiasach kwadratowych nie jest zamknięta znakiem „]” albo brakuje w niej przecinka",
            Syntax::UnclosedMap => "zapis w nawiasach klamrowych nie jest zamknięty znakiem „}” albo brakuje w nim przecinka",
            Syntax::EndOfFile => "plik kończy się w środku wartości; sprawdź, czy każdy cudzysłów i nawias jest zamknięty",
            Syntax::ListIndent => "element listy ma inne wcięcie niż pozostałe; każdy zaczyna się od „- ” z tym samym wcięciem",
            Syntax::MissingColon => "po nazwie pola brakuje dwukropka („nazwa: wartość”)",
            Syntax::TwoDocuments => "zapis dzieli się na dwa dokumenty (wiersz „---” w środku albo wcięty pierwszy wiersz); zostaw jeden, bez wcięcia na początku",
        }
    }
}

/// The field serde names after `what` in `message` ("unknown field `autor`, expected …").
fn field_after(message: &str, what: &str) -> Option<String> {
    let rest = &message[message.find(what)? + what.len()..];
    Some(rest[..rest.find('`')?].to_string())
}

/// What serde calls a kind of value ("a string", "a sequence", "integer `5`"), in Polish.
fn kind_of_value(words: &str) -> &'static str {
    let words = words.trim();
    const NAMED: [(&str, &str); 19] = [
        ("string", "tekst"),
        ("str", "tekst"),
        ("sequence", "lista"),
        ("seq", "lista"),
        ("map", "zestaw pól („nazwa: wartość”)"),
        ("struct", "zestaw pól („nazwa: wartość”)"),
        ("integer", "liczba całkowita"),
        ("i64", "liczba całkowita"),
        ("u64", "liczba całkowita"),
        ("u32", "liczba całkowita"),
        ("u16", "liczba całkowita"),
        ("u8", "liczba całkowita"),
        ("floating point", "liczba"),
        ("f64", "liczba"),
        ("boolean", "tak/nie (true/false)"),
        ("bool", "tak/nie (true/false)"),
        ("unit", "pusta wartość"),
        ("null", "pusta wartość"),
        ("option", "wartość"),
    ];
    NAMED
        .iter()
        .find(|(english, _)| {
            words
                .trim_start_matches("a ")
                .trim_start_matches("an ")
                .starts_with(english)
        })
        .map_or("inna wartość", |(_, polish)| *polish)
}

impl YamlKind {
    /// The kind of a serde error, read from the messages serde's derive writes
    /// (`serde::de::Error::unknown_field` and its siblings, `invalid type`) and those of the
    /// parser: they give their problems as text only.
    fn of(message: &str) -> YamlKind {
        if let Some(f) = field_after(message, "unknown field `") {
            YamlKind::UnknownField(f)
        } else if let Some(f) = field_after(message, "missing field `") {
            YamlKind::MissingField(f)
        } else if let Some(f) = field_after(message, "duplicate field `") {
            YamlKind::DuplicateField(f)
        } else if let Some(rest) = message.split_once("invalid type: ").map(|(_, r)| r) {
            let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
            YamlKind::WrongType {
                found: kind_of_value(found),
                expected: kind_of_value(expected),
            }
        } else if let Some(syntax) = Syntax::of(message) {
            YamlKind::Syntax(syntax)
        } else {
            YamlKind::Other
        }
    }
}

/// Whether the value of `line` (after `name:` or `- `) opens a quote it does not close.
fn opens_quote(line: &str) -> bool {
    let trimmed = line.trim_start();
    let value = match trimmed.strip_prefix("- ") {
        Some(item) => item.trim_start(),
        None => match trimmed.split_once(": ") {
            Some((_, value)) => value.trim_start(),
            None => return false,
        },
    };
    let Some(quote) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return false;
    };
    let mut rest = value[1..].chars().peekable();
    while let Some(c) = rest.next() {
        match c {
            '\\' if quote == '"' => {
                rest.next();
            }
            // Two apostrophes inside apostrophes are one.
            '\'' if quote == '\'' && rest.peek() == Some(&'\'') => {
                rest.next();
            }
            c if c == quote => return false,
            _ => {}
        }
    }
    true
}

/// The line (1-based) of the last quote opened and not closed on its own line at or before
/// `reported`: where a mistake the parser reports later really is.
fn unclosed_quote(text: &str, reported: usize) -> Option<usize> {
    text.lines()
        .take(reported)
        .enumerate()
        .filter(|(_, line)| opens_quote(line))
        .map(|(i, _)| i + 1)
        .last()
}

/// Parses `text` into `T`, keeping the line of the first problem: where the mistake is,
/// which for a quote left open is the line it was opened on, not the one the parser
/// stumbled at.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|e| {
        let mut line = e.location().map(|l| l.line());
        let full = e.to_string();
        // serde_yaml appends " at line L column C"; the caller prints the line itself.
        let message = match full.find(" at line ") {
            Some(i) => full[..i].to_string(),
            None => full,
        };
        let mut kind = YamlKind::of(&message);
        if let (YamlKind::Syntax(_), Some(reported)) = (&kind, line) {
            if let Some(opened) = unclosed_quote(text, reported) {
                line = Some(opened);
                kind = YamlKind::UnclosedQuote;
            }
        }
        YamlError {
            line,
            kind,
            message,
        }
    })
}

/// A value to write, with its mappings' keys in the order they are written.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Str(String),
    Bool(bool),
    Int(i64),
    List(Vec<Node>),
    Map(Vec<(String, Node)>),
}

impl Node {
    pub fn str(text: impl Into<String>) -> Node {
        Node::Str(text.into())
    }

    pub fn map(entries: Vec<(&str, Node)>) -> Node {
        Node::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    fn json(&self) -> Value {
        match self {
            Node::Str(s) => Value::String(s.clone()),
            Node::Bool(b) => Value::Bool(*b),
            Node::Int(n) => Value::from(*n),
            Node::List(items) => Value::Array(items.iter().map(Node::json).collect()),
            Node::Map(entries) => {
                Value::Object(entries.iter().map(|(k, v)| (k.clone(), v.json())).collect())
            }
        }
    }
}

/// One change of a YAML mapping: the value at `path` (a top-level key, or keys down through
/// nested mappings) becomes `value`, or the key goes away with `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub path: Vec<String>,
    pub value: Option<Node>,
}

impl Change {
    pub fn set(path: &[&str], value: Node) -> Self {
        Change {
            path: path.iter().map(|p| p.to_string()).collect(),
            value: Some(value),
        }
    }

    pub fn remove(path: &[&str]) -> Self {
        Change {
            path: path.iter().map(|p| p.to_string()).collect(),
            value: None,
        }
    }
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The key a line defines at exactly `indent` spaces, if it does.
fn key_at(line: &str, indent: usize) -> Option<&str> {
    if indent_of(line) != indent || is_blank_or_comment(line) {
        return None;
    }
    let rest = &line[indent..];
    if rest.starts_with("- ") || rest == "-" {
        return None;
    }
    let (key, _) = rest.split_once(':')?;
    let key = key.trim();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .unwrap_or(key);
    Some(key)
}

/// The end (exclusive) of the value of the key on line `start` at `indent`: the following
/// lines that are indented deeper (or are a sequence at the same indent), blank lines and
/// comments inside them included, trailing ones not.
fn value_end(lines: &[&str], start: usize, indent: usize) -> usize {
    let mut end = start + 1;
    let mut i = start + 1;
    while i < lines.len() {
        let line = lines[i];
        if is_blank_or_comment(line) {
            i += 1;
            continue;
        }
        let deeper = indent_of(line) > indent;
        let sequence = indent_of(line) == indent && line[indent..].starts_with('-');
        if !(deeper || sequence) {
            break;
        }
        i += 1;
        end = i;
    }
    end
}

/// Where the key at `path` is within `lines[from..to]` at `indent`: its line and value end.
fn find(lines: &[&str], from: usize, to: usize, path: &[String]) -> Option<(usize, usize, usize)> {
    let first = path.first()?;
    let indent = (from..to)
        .map(|i| lines[i])
        .find(|l| !is_blank_or_comment(l))
        .map_or(0, indent_of);
    let line = (from..to).find(|&i| key_at(lines[i], indent) == Some(first.as_str()))?;
    let end = value_end(lines, line, indent);
    if path.len() == 1 {
        Some((line, end, indent))
    } else {
        find(lines, line + 1, end, &path[1..])
    }
}

/// The 1-based line of the key at `path` (a top-level key, or keys down through nested
/// mappings) in `text`, if it is there: where a problem of that value is reported.
pub fn line_of(text: &str, path: &[String]) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    find(&lines, 0, lines.len(), path).map(|(line, _, _)| line + 1)
}

/// A YAML scalar in double quotes, escaped.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn scalar(value: &Node) -> Option<String> {
    match value {
        Node::Str(s) => Some(quoted(s)),
        Node::Bool(b) => Some(b.to_string()),
        Node::Int(n) => Some(n.to_string()),
        Node::List(items)
            if items
                .iter()
                .all(|i| !matches!(i, Node::List(_) | Node::Map(_))) =>
        {
            let inner: Vec<String> = items.iter().filter_map(scalar).collect();
            Some(format!("[{}]", inner.join(", ")))
        }
        _ => None,
    }
}

/// `key: value` at `indent`, as lines (a mapping or a sequence of mappings in block style).
fn emit(key: &str, value: &Node, indent: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    if let Some(s) = scalar(value) {
        out.push(format!("{pad}{key}: {s}"));
        return;
    }
    out.push(format!("{pad}{key}:"));
    emit_value(value, indent + 2, out);
}

fn emit_value(value: &Node, indent: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    match value {
        Node::Map(map) => {
            for (k, v) in map {
                emit(k, v, indent, out);
            }
        }
        Node::List(items) => {
            for item in items {
                let mut lines = Vec::new();
                match scalar(item) {
                    Some(s) => lines.push(s),
                    None => {
                        emit_value(item, indent + 2, &mut lines);
                        if let Some(first) = lines.first_mut() {
                            *first = first[indent + 2..].to_string();
                        }
                    }
                }
                for (i, line) in lines.into_iter().enumerate() {
                    if i == 0 {
                        out.push(format!("{pad}- {line}"));
                    } else {
                        out.push(line);
                    }
                }
            }
        }
        other => out.push(format!("{pad}{}", scalar(other).unwrap_or_default())),
    }
}

/// The comment after a one-line scalar (`title: "A"   # why`), with its spacing.
fn trailing_comment(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once(':')?;
    let value = rest.trim_start();
    let offset = line.len() - value.len();
    let end = match value.chars().next()? {
        '"' => {
            let mut escaped = false;
            let mut end = None;
            for (i, c) in value.char_indices().skip(1) {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => {
                        end = Some(i + 1);
                        break;
                    }
                    _ => {}
                }
            }
            end?
        }
        '\'' => {
            let bytes = value.as_bytes();
            let mut i = 1;
            loop {
                if i >= bytes.len() {
                    return None;
                }
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    break i + 1;
                }
                i += 1;
            }
        }
        '#' => 0,
        _ => value.find(" #").unwrap_or(value.len()),
    };
    let rest = &line[offset + end..];
    rest.trim_start().starts_with('#').then_some(rest)
}

/// The object `node` is, made one (empty) if it is anything else.
fn object_of(node: &mut Value) -> &mut Map<String, Value> {
    if !node.is_object() {
        *node = Value::Object(Map::new());
    }
    match node {
        Value::Object(map) => map,
        _ => unreachable!("made an object above"),
    }
}

fn apply_to_value(tree: &mut Value, path: &[String], value: Option<Value>) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut node = tree;
    for key in parents {
        node = object_of(node)
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let map = object_of(node);
    match value {
        Some(v) => {
            map.insert(last.clone(), v);
        }
        None => {
            map.remove(last);
        }
    }
}

/// A parsed YAML value as a typed one, without parsing the text again.
pub fn typed<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    serde_json::from_value(value.clone()).map_err(|e| e.to_string())
}

/// `text` (a YAML mapping) with `changes` made to the lines of the fields they name; every
/// other line stays as it was. Fails, writing nothing, if the result would not parse to
/// exactly the old data with these changes.
pub fn edit(text: &str, changes: &[Change]) -> Result<String, String> {
    let before: Value = parse(text).map_err(|e| e.message)?;
    edit_parsed(text, before, changes).map(|(out, _)| out)
}

/// Like [`edit`], for a text already parsed into `before`; also returns the edited value.
pub fn edit_parsed(
    text: &str,
    before: Value,
    changes: &[Change],
) -> Result<(String, Value), String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for change in changes {
        let view: Vec<&str> = lines.iter().map(String::as_str).collect();
        let found = find(&view, 0, view.len(), &change.path);
        let key = change.path.last().cloned().unwrap_or_default();
        match (found, &change.value) {
            (Some((line, end, _)), None) => {
                lines.drain(line..end);
            }
            (Some((line, end, indent)), Some(value)) => {
                let mut new = Vec::new();
                emit(&key, value, indent, &mut new);
                if end == line + 1 && new.len() == 1 {
                    if let Some(comment) = trailing_comment(&lines[line]) {
                        new[0].push_str(comment);
                    }
                }
                lines.splice(line..end, new);
            }
            (None, None) => {}
            (None, Some(value)) => {
                // The deepest parent that exists gets the rest of the path as new lines.
                let mut depth = change.path.len() - 1;
                let (at, indent) = loop {
                    if depth == 0 {
                        let end = view.iter().rposition(|l| !is_blank_or_comment(l));
                        break (end.map_or(view.len(), |e| e + 1), 0);
                    }
                    if let Some((line, end, indent)) =
                        find(&view, 0, view.len(), &change.path[..depth])
                    {
                        let child = (line + 1..end)
                            .map(|i| view[i])
                            .find(|l| !is_blank_or_comment(l))
                            .map_or(indent + 2, indent_of);
                        break (end, child);
                    }
                    depth -= 1;
                };
                let mut nested = value.clone();
                for key in change.path[depth + 1..].iter().rev() {
                    nested = Node::Map(vec![(key.clone(), nested)]);
                }
                let mut new = Vec::new();
                emit(&change.path[depth], &nested, indent, &mut new);
                lines.splice(at..at, new);
            }
        }
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') || !out.is_empty() {
        out.push('\n');
    }
    let mut expected = before;
    for change in changes {
        apply_to_value(
            &mut expected,
            &change.path,
            change.value.as_ref().map(Node::json),
        );
    }
    let after: Value =
        parse(&out).map_err(|e| format!("the edited YAML does not parse: {}", e.message))?;
    if after != expected {
        return Err("the edit would change more than the fields it names".into());
    }
    Ok((out, after))
}

/// One item of a list rewritten by [`edit_list`].
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// The old item at this index, kept as it was written (comments and all).
    Keep(usize),
    /// A new value; `comments_of` an old item whose comment lines it takes over.
    New {
        value: Node,
        comments_of: Option<usize>,
    },
}

/// `text` with the block list at top-level `key` made of `items`: kept items are moved as
/// they are written, new ones written in block style; lines outside the list stay as they
/// were. Fails, writing nothing, if the result would not parse to exactly that list.
pub fn edit_list(text: &str, key: &str, items: &[Item]) -> Result<String, String> {
    let before: Value = parse(text).map_err(|e| e.message)?;
    edit_list_parsed(text, before, key, items).map(|(out, _)| out)
}

/// Like [`edit_list`], for a text already parsed into `before`; also returns the edited value.
pub fn edit_list_parsed(
    text: &str,
    before: Value,
    key: &str,
    items: &[Item],
) -> Result<(String, Value), String> {
    let lines: Vec<&str> = text.lines().collect();
    let (line, end, _) =
        find(&lines, 0, lines.len(), &[key.to_string()]).ok_or(format!("no list '{key}'"))?;
    let dash = (line + 1..end)
        .map(|i| lines[i])
        .find(|l| !is_blank_or_comment(l))
        .map_or(2, indent_of);
    // Each old item: its comment lines, then its own lines.
    let mut chunks: Vec<(Vec<&str>, Vec<&str>)> = Vec::new();
    let mut comments: Vec<&str> = Vec::new();
    for &l in &lines[line + 1..end] {
        let starts = indent_of(l) == dash && l[dash..].starts_with('-');
        if starts {
            chunks.push((std::mem::take(&mut comments), vec![l]));
        } else if is_blank_or_comment(l) && (chunks.is_empty() || indent_of(l) <= dash) {
            comments.push(l);
        } else if let Some(last) = chunks.last_mut() {
            last.1.append(&mut comments);
            last.1.push(l);
        }
    }
    let trailing = comments;
    let old_items = before
        .get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if old_items.len() != chunks.len() {
        return Err(format!(
            "the list '{key}' is not written one item per '-' line"
        ));
    }
    let mut out: Vec<String> = lines[..=line].iter().map(|l| l.to_string()).collect();
    if lines[line].trim_end().ends_with("[]") {
        out[line] = format!("{key}:");
    }
    let mut expected = Vec::new();
    for item in items {
        match item {
            Item::Keep(i) => {
                let (c, own) = chunks.get(*i).ok_or(format!("no item {i}"))?;
                out.extend(c.iter().chain(own).map(|l| l.to_string()));
                expected.push(old_items[*i].clone());
            }
            Item::New { value, comments_of } => {
                if let Some((c, _)) = comments_of.and_then(|i| chunks.get(i)) {
                    out.extend(c.iter().map(|l| l.to_string()));
                }
                emit_value(&Node::List(vec![value.clone()]), dash, &mut out);
                expected.push(value.json());
            }
        }
    }
    if items.is_empty() {
        out[line] = format!("{key}: []");
    }
    out.extend(trailing.iter().map(|l| l.to_string()));
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    let mut result = out.join("\n");
    result.push('\n');
    let mut want = before;
    apply_to_value(&mut want, &[key.to_string()], Some(Value::Array(expected)));
    let after: Value =
        parse(&result).map_err(|e| format!("the edited YAML does not parse: {}", e.message))?;
    if after != want {
        return Err("the edit would change more than the list".into());
    }
    Ok((result, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Meta {
        title: String,
    }

    #[test]
    fn unknown_field_reports_its_line() {
        let err = parse::<Meta>("title: a\nauthor: b\n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(
            err.message.contains("unknown field `author`"),
            "{}",
            err.message
        );
        assert_eq!(err.kind, YamlKind::UnknownField("author".into()));
    }

    #[test]
    fn missing_field_is_named() {
        let err = parse::<Meta>("{}\n").unwrap_err();
        assert!(
            err.message.contains("missing field `title`"),
            "{}",
            err.message
        );
        assert_eq!(err.kind, YamlKind::MissingField("title".into()));
    }

    use serde_json::json;

    const SITE: &str = "# Fakty gabinetu.\nname: \"Gabinet\"   # nazwa zostaje\nphone: \"+48 58 345 21 90\"\naddress:\n  street: \"al. Grunwaldzka 82/4\"\n  # kod pocztowy\n  postal_code: \"80-244\"\n  city: \"Gdańsk\"\nopening_hours:\n  - days: [\"Monday\", \"Tuesday\"]\n    opens: \"09:00\"\n    closes: \"20:00\"\n# Obrazy.\nog_image: \"og.png\"\n";

    #[test]
    fn a_nested_key_is_found_on_its_own_line() {
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(line_of(SITE, &path(&["address", "postal_code"])), Some(7));
        assert_eq!(line_of(SITE, &path(&["og_image"])), Some(14));
        assert_eq!(line_of(SITE, &path(&["address", "country"])), None);
    }

    #[test]
    fn an_edit_changes_only_the_lines_of_its_fields_and_keeps_comments() {
        let out = edit(
            SITE,
            &[
                Change::set(&["name"], Node::str("Gabinet \"Harmonia\"")),
                Change::set(&["address", "postal_code"], Node::str("80-245")),
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            SITE.replace("name: \"Gabinet\"", "name: \"Gabinet \\\"Harmonia\\\"\"")
                .replace("80-244", "80-245")
        );
    }

    #[test]
    fn blocks_are_replaced_whole_and_missing_keys_added_at_the_end_of_their_parent() {
        let row = |day: &str, closes: &str| {
            Node::map(vec![
                ("days", Node::List(vec![Node::str(day)])),
                ("opens", Node::str("10:00")),
                ("closes", Node::str(closes)),
            ])
        };
        let hours = Node::List(vec![row("Friday", "14:00"), row("Saturday", "12:00")]);
        let out = edit(
            SITE,
            &[
                Change::set(&["opening_hours"], hours),
                Change::set(&["address", "country"], Node::str("PL")),
                Change::set(
                    &["notice"],
                    Node::map(vec![
                        ("text", Node::str("Nieczynne")),
                        ("from", Node::str("2025-12-24")),
                        ("until", Node::str("2026-01-01")),
                    ]),
                ),
            ],
        )
        .unwrap();
        assert!(out.contains("opening_hours:\n  - days: [\"Friday\"]\n    opens: \"10:00\"\n    closes: \"14:00\"\n  - days: [\"Saturday\"]"), "{out}");
        assert!(
            out.contains("  city: \"Gdańsk\"\n  country: \"PL\"\nopening_hours:"),
            "{out}"
        );
        assert!(out.ends_with("og_image: \"og.png\"\nnotice:\n  text: \"Nieczynne\"\n  from: \"2025-12-24\"\n  until: \"2026-01-01\"\n"), "{out}");
        assert!(out.contains("# Obrazy.\n") && out.contains("  # kod pocztowy\n"));
        let back = edit(&out, &[Change::remove(&["notice"])]).unwrap();
        assert!(!back.contains("notice") && back.ends_with("og_image: \"og.png\"\n"));
    }

    #[test]
    fn no_change_is_byte_identical_and_odd_text_round_trips() {
        assert_eq!(edit(SITE, &[]).unwrap(), SITE);
        for odd in [
            "a'b",
            "zażółć \"gęślą\" jaźń",
            "back\\slash",
            "# nie komentarz",
            "tab\there",
            "- lista",
            "key: value",
        ] {
            let out = edit(SITE, &[Change::set(&["name"], Node::str(odd))]).unwrap();
            let parsed: Value = parse(&out).unwrap();
            assert_eq!(parsed["name"], json!(odd), "{odd}");
            assert!(out.contains("# nazwa zostaje"), "{out}");
        }
    }

    #[test]
    fn comments_after_any_kind_of_scalar_are_kept() {
        for line in ["t: \"a # b\"  # c", "t: 'it''s' # c", "t: plain # c"] {
            let out = edit(&format!("{line}\n"), &[Change::set(&["t"], Node::str("x"))]).unwrap();
            assert!(
                out.ends_with("# c\n") && out.starts_with("t: \"x\""),
                "{line} -> {out}"
            );
        }
    }

    #[test]
    fn an_edit_that_would_change_other_fields_is_refused() {
        // A key whose value continues on lines the edit cannot see as its own.
        let tricky = "a: \"x\"\nb: [1,\n2]\n";
        assert!(edit(tricky, &[Change::set(&["a"], Node::str("y"))]).is_ok());
        let flow = "m: {a: 1, b: 2}\n";
        assert!(edit(flow, &[Change::set(&["m", "a"], Node::Int(3))]).is_err());
    }

    const PRICES: &str = "# Cennik.\nitems:\n  # bezpłatna\n  - name: \"A\"\n    price: 0\n  - name: \"B\"   # druga\n    price: 190\n\n  - name: \"C\"\n    price: 250\n# koniec\n";

    fn row(name: &str, price: i64) -> Node {
        Node::map(vec![("name", Node::str(name)), ("price", Node::Int(price))])
    }

    #[test]
    fn a_list_keeps_unchanged_items_as_written_and_moves_them_with_their_comments() {
        assert_eq!(
            edit_list(
                PRICES,
                "items",
                &[Item::Keep(0), Item::Keep(1), Item::Keep(2)]
            )
            .unwrap(),
            PRICES
        );
        let out = edit_list(
            PRICES,
            "items",
            &[
                Item::Keep(2),
                Item::New {
                    value: row("A2", 10),
                    comments_of: Some(0),
                },
                Item::New {
                    value: row("D", 300),
                    comments_of: None,
                },
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            "# Cennik.\nitems:\n\n  - name: \"C\"\n    price: 250\n  # bezpłatna\n  - name: \"A2\"\n    price: 10\n  - name: \"D\"\n    price: 300\n# koniec\n"
        );
        let empty = edit_list(PRICES, "items", &[]).unwrap();
        assert_eq!(empty, "# Cennik.\nitems: []\n# koniec\n");
        let again = edit_list(
            &empty,
            "items",
            &[Item::New {
                value: row("E", 1),
                comments_of: None,
            }],
        )
        .unwrap();
        assert_eq!(
            again,
            "# Cennik.\nitems:\n  - name: \"E\"\n    price: 1\n# koniec\n"
        );
    }
}

//! Splits a Markdown document into its YAML front matter and its body.

use crate::problem::FileProblem;

/// A document cut in two, with positions that let errors point at file lines.
#[derive(Debug, PartialEq, Eq)]
pub struct Split<'a> {
    pub yaml: &'a str,
    /// 1-based file line of the first YAML line.
    pub yaml_line: usize,
    pub body: &'a str,
    /// 1-based file line where the body starts.
    pub body_line: usize,
    /// Byte offset of the body in the file.
    pub body_offset: usize,
}

/// Front matter is the text between a first line `---` and the next line `---`.
pub fn split(text: &str) -> Result<Split<'_>, (usize, FileProblem)> {
    let first_end = text.find('\n').unwrap_or(text.len());
    if text[..first_end].trim_end() != "---" {
        return Err((1, FileProblem::NoFrontMatter));
    }
    let yaml_start = (first_end + 1).min(text.len());
    let mut offset = yaml_start;
    let mut line = 2;
    while offset < text.len() {
        let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
        if text[offset..end].trim_end() == "---" {
            let body_offset = (end + 1).min(text.len());
            return Ok(Split {
                yaml: &text[yaml_start..offset],
                yaml_line: 2,
                body: &text[body_offset..],
                body_line: line + 1,
                body_offset,
            });
        }
        offset = end + 1;
        line += 1;
    }
    Err((1, FileProblem::FrontMatterNotClosed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_yaml_and_body_with_lines() {
        let s = split("---\ntitle: a\n---\nHello\n").unwrap();
        assert_eq!(s.yaml, "title: a\n");
        assert_eq!(s.body, "Hello\n");
        assert_eq!(s.body_line, 4);
        assert_eq!(s.body_offset, 17);
    }

    #[test]
    fn missing_opening_line_is_an_error_on_line_1() {
        assert_eq!(split("title: a\n").unwrap_err().0, 1);
    }

    #[test]
    fn unclosed_front_matter_is_an_error() {
        let err = split("---\ntitle: a\n").unwrap_err();
        assert_eq!(err.1, FileProblem::FrontMatterNotClosed);
    }
}

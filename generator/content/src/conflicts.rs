//! Git's conflict markers left in a file: a merge or a rebase that stopped at a conflict
//! writes both versions into the file between `<<<<<<< `, `=======` and `>>>>>>> ` lines, and
//! a file committed that way would publish them. Markdown would render them as text, YAML
//! would fail with a parser's puzzle: either way the file is refused at the marker's line,
//! with what resolves it.

use std::path::Path;

use crate::problem::FileProblem;

/// The lines git writes around the two sides of a conflict (`|||||||` opens the common
/// version with `merge.conflictStyle=diff3`).
const OPENING: &str = "<<<<<<< ";
const CLOSING: &str = ">>>>>>> ";
const BASE: &str = "||||||| ";
const SEPARATOR: &str = "=======";

/// The marker a line starts with, if it is one of git's.
fn marker(line: &str) -> Option<&'static str> {
    let line = line.trim_end_matches('\r');
    if line.trim_end() == SEPARATOR {
        return Some(SEPARATOR);
    }
    // git writes `<<<<<<<` alone when it has no name for a side.
    [OPENING, CLOSING, BASE]
        .into_iter()
        .find(|m| line.starts_with(m) || line == m.trim_end())
        .map(str::trim_end)
}

/// The 1-based line of the first conflict marker in `text`, and the marker.
pub fn first_marker(text: &str) -> Option<(usize, &'static str)> {
    text.lines()
        .enumerate()
        .find_map(|(i, line)| marker(line).map(|m| (i + 1, m)))
}

/// The problem of a file under `root` whose text still holds a conflict: at the marker's
/// line of the file, naming the file as a clone has it (`content/blog/x.md`).
pub fn check(root: &Path, file: &Path, text: &str) -> Result<(), (usize, FileProblem)> {
    let Some((line, marker)) = first_marker(text) else {
        return Ok(());
    };
    let inside = file.strip_prefix(root).unwrap_or(file);
    let name = Path::new("content").join(inside);
    Err((
        line,
        FileProblem::ConflictMarker {
            marker,
            file: name.to_string_lossy().into_owned(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;

    #[test]
    fn each_of_gits_markers_is_found_at_its_line() {
        let text = "---\ntitle: \"A\"\n---\nTekst.\n<<<<<<< HEAD\nNasz.\n=======\nIch.\n>>>>>>> 3f2a9c1 (Poprawki)\n";
        assert_eq!(first_marker(text), Some((5, "<<<<<<<")));
        assert_eq!(first_marker("a\n=======\nb\n"), Some((2, "=======")));
        assert_eq!(first_marker("a\n>>>>>>> main\n"), Some((2, ">>>>>>>")));
        assert_eq!(first_marker("a\r\n=======\r\n"), Some((2, "=======")));
        assert_eq!(first_marker("x\n||||||| base\n"), Some((2, "|||||||")));
        assert_eq!(first_marker("x\n<<<<<<<\n"), Some((2, "<<<<<<<")));
    }

    #[test]
    fn text_that_only_looks_like_a_marker_is_not_one() {
        for text in [
            "Tytuł\n========\n",
            "Tytuł\n===\n",
            "> cytat\n>> głębiej\n",
            "a <<<<<<< b\n",
            "  =======\n",
            "<<<<<<<<< za długi\n",
        ] {
            assert_eq!(first_marker(text), None, "{text:?}");
        }
    }

    #[test]
    fn the_problem_names_the_file_and_the_commands_that_resolve_it() {
        let root = Path::new("/srv/strona/content");
        let file = root.join("blog/sen.md");
        let (line, problem) = check(root, &file, "---\n---\n<<<<<<< HEAD\n").expect_err("refused");
        assert_eq!(line, 3);
        let problem = Problem::from(problem);
        for text in [problem.english(), problem.polish()] {
            assert!(text.contains("<<<<<<<"), "{text}");
            assert!(text.contains("git add content/blog/sen.md"), "{text}");
            assert!(text.contains("git commit"), "{text}");
        }
        assert!(problem.polish().starts_with("nierozwiązany konflikt"));
        assert!(check(root, &file, "---\n---\nTekst.\n").is_ok());
    }
}

//! The checks of `make check` (`site check`) on a folder of content, as the git sync and the
//! hosted repository's pre-receive hook run them: every problem in Polish after the path an
//! editor sees in a clone (`content/blog/x.md:5`).

use std::path::Path;

/// The checks of `make check` on `project`'s content: every problem in Polish after its
/// repository path (`prefix` and the file) and line.
pub fn check_project(project: &site::Project, prefix: &str) -> Result<(), Vec<String>> {
    // A check needs no photograph's variants: those missing are left to the server's
    // encoder, not made here.
    match site::Builder::new(project.clone())
        .with_deferred_images()
        .render()
    {
        Ok(_) => Ok(()),
        Err(e) => Err(polish(&e, &project.content_dir, prefix)),
    }
}

/// Every problem of a build in Polish, each after `content/…:line`.
pub fn polish(e: &site::Error, content_dir: &Path, prefix: &str) -> Vec<String> {
    let problems: Vec<String> = e
        .diagnostics()
        .iter()
        .map(|d| {
            let file = d.file.strip_prefix(content_dir).unwrap_or(&d.file);
            format!(
                "{prefix}{}:{}: {}",
                file.display(),
                d.line,
                d.polish(content_dir, None)
            )
        })
        .collect();
    if problems.is_empty() {
        vec![format!("Strona nie daje się zbudować: {e}")]
    } else {
        problems
    }
}

//! The checks of `make check` (`site check`) on a folder of content, as the git sync and the
//! hosted repository's pre-receive hook run them: every problem in Polish after the path an
//! editor sees in a clone (`content/blog/x.md:5`).

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
        Err(e) => Err(e.polish(&project.content_dir, prefix)),
    }
}

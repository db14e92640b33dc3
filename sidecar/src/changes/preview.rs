//! A document rendered for 'Podgląd' from a text that is not saved (the panel's unsaved
//! sections, a version from the history) with the live build's templates, on the blocking
//! pool: one at a time, within [`PREVIEW_DEADLINE`], or refused with 503.

use actix_web::http::StatusCode;
use content::Diagnostic;
use std::time::{Duration, Instant};

use crate::changes::{Pipeline, NOT_FOUND};
use crate::error::ApiError;

/// How long a preview may take, waiting for another one included.
pub const PREVIEW_DEADLINE: Duration = Duration::from_secs(5);
const TOO_SLOW: &str = "Podgląd tej wersji trwałby zbyt długo, więc go przerwano. Skróć tekst lub podziel go na mniejsze sekcje i spróbuj ponownie.";

/// `text` safe in HTML's text and attributes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn too_slow() -> ApiError {
    ApiError::status(StatusCode::SERVICE_UNAVAILABLE, TOO_SLOW)
}

/// Renders the text `text_of` gives on a blocking thread, one preview at a time, within
/// [`PREVIEW_DEADLINE`]: the permit goes with the render, so a render the deadline stopped
/// still counts until it ends.
pub async fn render_in_time(
    pipeline: &Pipeline,
    id: content::DocId,
    text_of: impl FnOnce(&Pipeline, &content::DocId) -> Result<String, ApiError> + Send + 'static,
) -> Result<String, ApiError> {
    let deadline = Instant::now() + PREVIEW_DEADLINE;
    let gate = std::sync::Arc::clone(&pipeline.site.previews);
    let pipeline = pipeline.clone();
    let permit = tokio::time::timeout(PREVIEW_DEADLINE, gate.acquire_owned())
        .await
        .map_err(|_| too_slow())?
        .map_err(|e| ApiError::internal(&e))?;
    crate::tasks::block(move || {
        let _permit = permit;
        let text = text_of(&pipeline, &id)?;
        render(&pipeline, &id, &text, deadline)
    })
    .await?
}

fn render(
    pipeline: &Pipeline,
    id: &content::DocId,
    text: &str,
    deadline: Instant,
) -> Result<String, ApiError> {
    let editor = &pipeline.site.editor;
    let site = pipeline.site.live.current();
    let renderer = site
        .renderer
        .as_ref()
        .ok_or_else(|| ApiError::internal(&"no build to preview with"))?;
    let file = editor.file_of(id).unwrap_or_default();
    let in_polish = |problems: &[Diagnostic]| {
        Diagnostic::polish_all(problems, &editor.content_dir, Some((&file, text)))
    };
    let preview = match renderer.preview_until(id, text, Some(deadline)) {
        Ok(Some(p)) => p,
        Ok(None) => return Err(ApiError::not_found(NOT_FOUND)),
        Err(site::Error::Deadline) => return Err(too_slow()),
        Err(e) if e.diagnostics().is_empty() => return Err(e.into()),
        Err(e) => {
            return Err(ApiError::unprocessable(format!(
                "Tej wersji nie da się pokazać: {}",
                in_polish(e.diagnostics())
            )));
        }
    };
    let list = if preview.problems.is_empty() {
        String::new()
    } else {
        format!(
            "<br>Tej wersji nie da się zapisać: {}",
            escape(&in_polish(&preview.problems))
        )
    };
    Ok(preview
        .html
        .replacen(site::render::PREVIEW_PROBLEMS, &list, 1))
}

//! `/git/tresc.git` on the panel's origin (`GIT_HOSTED`): the hosted repository over git's
//! smart HTTP, served by git's own `git http-backend` as a CGI program. An editor signs in
//! with HTTP Basic and an access token made in the panel (any user name); without a good
//! token the request is refused before any program starts, and each client's refusals are
//! rate-limited. The body is streamed to the program and its answer back, never held whole;
//! a push larger than the content's caps is cut off (git then takes nothing). Once a push
//! was taken, the sync is woken as by a forge's webhook, so the change is live at once.

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use base64::Engine;
use bytes::Bytes;
use futures_util::StreamExt;
use sha2::Digest;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use crate::audit::Git;
use crate::db::Repository;
use crate::error::ApiError;
use crate::state::AppState;

/// Where editors clone from, on the panel's origin.
pub const PATH: &str = "/git/tresc.git";
/// The most a request body may carry: a push of the largest change the content takes
/// ([`contentsync::vet::MAX_TOTAL_BYTES`]) with room for git's own framing.
pub const MAX_BODY: u64 = contentsync::vet::MAX_TOTAL_BYTES + 16 * 1024 * 1024;
const REFUSED: &str = "Brak dostępu do repozytorium: podaj token dostępu z panelu (Dostęp przez git) jako hasło. Token mógł zostać unieważniony.";
const TOO_MANY: &str =
    "Zbyt wiele nieudanych prób dostępu do repozytorium. Spróbuj ponownie za minutę.";
/// The most lines of headers the program may answer with.
const MAX_HEADERS: usize = 32;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(&format!("{PATH}/{{tail:.*}}"), web::route().to(serve));
}

/// What git asks for: the only three requests of the smart protocol.
fn service(req: &HttpRequest, tail: &str) -> Option<&'static str> {
    let query = req.query_string();
    match (req.method().as_str(), tail) {
        ("GET", "info/refs") if query == "service=git-upload-pack" => Some("git-upload-pack"),
        ("GET", "info/refs") if query == "service=git-receive-pack" => Some("git-receive-pack"),
        ("POST", "git-upload-pack") => Some("git-upload-pack"),
        ("POST", "git-receive-pack") => Some("git-receive-pack"),
        _ => None,
    }
}

/// The password of HTTP Basic credentials, if the request has any.
fn password(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    text.split_once(':')
        .map(|(_, password)| password.to_string())
}

/// The stored form of a token: its SHA-256 in hex.
pub fn hash(token: &str) -> String {
    content::encoding::hex(&sha2::Sha256::digest(token.trim().as_bytes()))
}

fn unauthorized() -> HttpResponse {
    HttpResponse::Unauthorized()
        .insert_header((
            header::WWW_AUTHENTICATE,
            "Basic realm=\"Repozytorium strony\", charset=\"UTF-8\"",
        ))
        .content_type("text/plain; charset=utf-8")
        .body(REFUSED)
}

/// The editor (the token's name) behind the request, or the answer that refuses it.
async fn editor(state: &web::Data<AppState>, req: &HttpRequest) -> Result<String, HttpResponse> {
    let given = password(req);
    if let Some(token) = &given {
        let (hash, at) = (hash(token), state.clock.now());
        let found = state.db.run(move |db| db.use_git_token(&hash, at)).await;
        if let Ok(Some(name)) = found {
            return Ok(name);
        }
    }
    let hosted = state.hosted.as_ref().ok_or_else(unauthorized)?;
    if !hosted.refusals.allows(state.clients.key(req)) {
        let refused = ApiError::too_many("Zbyt wiele prób", TOO_MANY, 60);
        return Err(actix_web::ResponseError::error_response(&refused));
    }
    // git asks without credentials first: only a token given and refused is worth a line,
    // and a client's of one minute make one line with their count.
    let audit = given.is_some().then_some("zły lub unieważniony token");
    let client = state.clients.key(req);
    crate::http::refusals::Refusals::refused(&hosted.refusals, &state.auth.store, client, audit);
    Err(unauthorized())
}

async fn serve(
    req: HttpRequest,
    tail: web::Path<String>,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let Some(hosted) = state.hosted.clone() else {
        return Err(ApiError::not_found(
            "Serwer nie udostępnia repozytorium (GIT_HOSTED).",
        ));
    };
    let Some(service) = service(&req, &tail) else {
        return Err(ApiError::not_found("Nie ma takiego adresu repozytorium."));
    };
    let editor = match editor(&state, &req).await {
        Ok(editor) => editor,
        Err(answer) => return Ok(answer),
    };
    let git = state.git.clone();
    let pushed = service == "git-receive-pack" && req.method() == actix_web::http::Method::POST;
    let branch = git.as_ref().map(|g| g.remote.branch.clone());
    let before = match (&branch, pushed) {
        (Some(branch), true) => tip(&hosted.bare, branch).await,
        _ => None,
    };
    let push_id = next_push_id();
    let mut child = backend(&req, &hosted.bare, &tail, &editor, &state)
        .env(crate::changes::hosted::hook::PUSH_ID, &push_id)
        .spawn()
        .map_err(|e| ApiError::internal(&format!("git http-backend: {e}")))?;
    if let Some(stdin) = child.stdin.take() {
        crate::tasks::spawn(pump(payload, stdin));
    }
    if let Some(stderr) = child.stderr.take() {
        crate::tasks::spawn(log_stderr(stderr));
    }
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| ApiError::internal(&"git http-backend: no output"))?;
    let bare = hosted.bare.clone();
    crate::tasks::spawn(async move {
        let done = child.wait().await;
        if let (true, Some(git)) = (pushed, git) {
            // A push its hooks did not see through (git ended before the branch moved) is
            // put back; one that moved it is taken by the sync if its hook could not say so.
            git.receive_ended(&push_id);
            if done.is_ok_and(|s| s.success()) {
                git.fetch_soon();
            }
            if let (Some(branch), Some(before)) = (branch, before) {
                record_push(&state, &req, (&bare, &branch), &before, &editor).await;
            }
        }
    });
    answer(stdout).await
}

/// The commit `branch` of the repository at `bare` is at, if it is.
async fn tip(bare: &std::path::Path, branch: &str) -> Option<String> {
    let name = format!("refs/heads/{branch}");
    let out = git_output(bare, &["rev-parse", "--verify", "-q", &name]).await;
    out.map(|o| o.trim().to_string())
}

async fn git_output(bare: &std::path::Path, args: &[&str]) -> Option<String> {
    let out = tokio::process::Command::new("git")
        .arg("-C")
        .arg(bare)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .await
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The authors of commits `range` brings, each once, at most a few.
async fn authors(bare: &std::path::Path, range: &str) -> String {
    const SHOWN: usize = 5;
    let listed = git_output(bare, &["log", "--format=%an <%ae>", range]).await;
    let mut names: Vec<String> = Vec::new();
    for name in listed.unwrap_or_default().lines() {
        if !names.iter().any(|n| n == name) {
            names.push(name.chars().take(120).collect());
        }
    }
    let more = names.len().saturating_sub(SHOWN);
    names.truncate(SHOWN);
    match more {
        0 => names.join(", "),
        n => format!("{} i {n} innych", names.join(", ")),
    }
}

/// Writes who pushed what: the token's name (as the actor) beside the commits' own authors
/// (which a commit says of itself), once the branch moved.
async fn record_push(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    (bare, branch): (&std::path::Path, &str),
    before: &str,
    token: &str,
) {
    let Some(after) = tip(bare, branch).await.filter(|after| after != before) else {
        return;
    };
    let short = |c: &str| c.chars().take(10).collect::<String>();
    let range = format!("{before}..{after}");
    let detail = format!(
        "{}..{}, autorzy commitów: {}",
        short(before),
        short(&after),
        authors(bare, &range).await
    );
    crate::api::audit::record(state, req, Git::GitPushed, token, &detail).await;
}

/// A name for each request that runs git's program, unique in this server's life: how the
/// hooks of a push and the request that brought it find each other.
fn next_push_id() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{}-{n}", std::process::id())
}

/// `git http-backend` for the request, with the CGI variables it reads and nothing else of
/// the server's environment.
fn backend(
    req: &HttpRequest,
    bare: &std::path::Path,
    tail: &str,
    editor: &str,
    state: &AppState,
) -> tokio::process::Command {
    let root = bare.parent().unwrap_or(bare);
    let name = bare
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let header = |name: header::HeaderName| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    let mut command = tokio::process::Command::new("git");
    command
        .env_clear()
        .envs(subprocess::child_environment(
            std::env::vars_os(),
            &[] as &[&str],
        ))
        .arg("http-backend")
        .current_dir(bare)
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("PATH_INFO", format!("/{name}/{tail}"))
        .env("REQUEST_METHOD", req.method().as_str())
        .env("QUERY_STRING", req.query_string())
        .env("CONTENT_TYPE", header(header::CONTENT_TYPE))
        .env("HTTP_CONTENT_ENCODING", header(header::CONTENT_ENCODING))
        .env(
            "HTTP_GIT_PROTOCOL",
            header(HeaderName::from_static("git-protocol")),
        )
        .env("REMOTE_USER", editor)
        .env("REMOTE_ADDR", state.clients.key(req).to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(length) = req.headers().get(header::CONTENT_LENGTH) {
        if let Ok(length) = length.to_str() {
            command.env("CONTENT_LENGTH", length);
        }
    }
    command
}

/// Streams the request body to the program, up to [`MAX_BODY`]; past it, or when the
/// client stops, the program's input ends early and git takes nothing.
async fn pump(mut payload: web::Payload, mut stdin: tokio::process::ChildStdin) {
    let mut total = 0_u64;
    while let Some(chunk) = payload.next().await {
        let Ok(chunk) = chunk else { return };
        total += chunk.len() as u64;
        if total > MAX_BODY {
            tracing::warn!(
                bytes = total,
                "a push larger than the content takes was cut off"
            );
            return;
        }
        if stdin.write_all(&chunk).await.is_err() {
            return;
        }
    }
}

async fn log_stderr(stderr: tokio::process::ChildStderr) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::warn!(said = %line, "git http-backend");
    }
}

/// The program's CGI answer: its headers (`Status:` among them) and then its output,
/// streamed as it comes.
async fn answer(stdout: tokio::process::ChildStdout) -> Result<HttpResponse, ApiError> {
    let mut reader = BufReader::new(stdout);
    let mut response = HttpResponse::Ok();
    let mut line = String::new();
    for _ in 0..MAX_HEADERS {
        line.clear();
        let read = (&mut reader)
            .take(8 * 1024)
            .read_line(&mut line)
            .await
            .map_err(|e| ApiError::internal(&format!("git http-backend: {e}")))?;
        let text = line.trim_end_matches(['\r', '\n']);
        if read == 0 || text.is_empty() {
            let body = futures_util::stream::unfold(reader, |mut reader| async move {
                let mut buffer = vec![0_u8; 64 * 1024];
                match reader.read(&mut buffer).await {
                    Ok(0) => None,
                    Ok(n) => {
                        buffer.truncate(n);
                        Some((Ok::<_, std::io::Error>(Bytes::from(buffer)), reader))
                    }
                    Err(e) => Some((Err(e), reader)),
                }
            });
            return Ok(response.streaming(body));
        }
        let Some((name, value)) = text.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("status") {
            let code = value.split(' ').next().and_then(|c| c.parse().ok());
            if let Some(status) = code.and_then(|c| StatusCode::from_u16(c).ok()) {
                response.status(status);
            }
        } else if let (Ok(name), Ok(value)) = (
            HeaderName::try_from(name.trim()),
            HeaderValue::try_from(value),
        ) {
            response.insert_header((name, value));
        }
    }
    Err(ApiError::internal(&"git http-backend: too many headers"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_the_password_of_basic_credentials() {
        let credentials = base64::engine::general_purpose::STANDARD.encode("anna:abc123");
        let req = actix_web::test::TestRequest::default()
            .insert_header((header::AUTHORIZATION, format!("Basic {credentials}")))
            .to_http_request();
        assert_eq!(password(&req).as_deref(), Some("abc123"));
        let req = actix_web::test::TestRequest::default()
            .insert_header((header::AUTHORIZATION, "Bearer abc123"))
            .to_http_request();
        assert_eq!(password(&req), None);
    }
}

//! `GIT_REMOTE`: the content's repository tracks a real bare repository in a temp dir, both
//! ways — panel saves pushed in the background as the administrator's commits, editors'
//! pushes brought in by the signed webhook, checked, applied and served; broken commits,
//! commits needing a deploy and force-pushes refused; the webhook's refusals.

use crate::common;

use actix_web::http::StatusCode;
use actix_web::{test, web};
use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SECRET: &str = "sekret powiadomień";

struct Repos {
    s: Setup,
    remote: PathBuf,
    editor: PathBuf,
}

/// A site whose repository was cloned from a bare remote, an editor's clone beside it, and
/// the state `run()` makes with the sync thread running.
fn repos() -> Repos {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = site_copy(dir.path());
    let remote = dir.path().join("remote.git");
    std::fs::create_dir_all(&remote).expect("mkdir");
    git(&remote, &["init", "-q", "--bare"]);
    git(&root, &["init", "-q"]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-q", "-m", "Strona"]);
    let url = remote.to_string_lossy().into_owned();
    git(&root, &["push", "-q", &url, "HEAD:refs/heads/main"]);
    let editor = dir.path().join("editor");
    git(dir.path(), &["clone", "-q", &url, "editor"]);
    let extra = [
        ("GIT_REMOTE", url.as_str()),
        ("GIT_BRANCH", "main"),
        ("GIT_POLL_SECONDS", "0"),
        ("GIT_WEBHOOK_SECRET", SECRET),
    ];
    let config = config(dir.path(), &root, &extra);
    let content = site::load(&site::Project::at(&root)).expect("content loads");
    let state = sidecar::AppState::open(&config, &content.site).expect("state opens");
    state.site.rebuild().expect("the site builds");
    accounts::password::ensure_admin(&state.auth.store, ADMIN, Some(PASSWORD)).expect("admin");
    let state = web::Data::new(state);
    state.spawn_sync(&config);
    Repos {
        s: Setup { dir, root, state },
        remote,
        editor,
    }
}

impl Repos {
    fn status(&self) -> sidecar::changes::sync::Status {
        self.s.state.git.as_ref().expect("git is on").status()
    }

    /// Waits (at most 120 s: a loaded machine's builds are slow, and a refused push is retried
    /// after a growing pause) until `done` holds of the status.
    fn wait_for(&self, what: &str, done: impl Fn(&sidecar::changes::sync::Status) -> bool) {
        common::wait_for(
            Duration::from_secs(120),
            Duration::from_millis(50),
            || format!("{what}: {:?}", self.status()),
            || done(&self.status()).then_some(()),
        );
    }

    /// The editor writes `file` (under `content/`), commits and pushes.
    fn editor_pushes(&self, file: &str, text: &str) -> String {
        self.editor_pushes_to("origin", file, text)
    }

    /// The same, pushed to `remote` (a remote's name or a repository's path).
    fn editor_pushes_to(&self, remote: &str, file: &str, text: &str) -> String {
        let path = self.editor.join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        git(&self.editor, &["add", "-A"]);
        git(
            &self.editor,
            &["commit", "-q", "-m", &format!("Redakcja: {file}")],
        );
        git(&self.editor, &["push", "-q", remote, "HEAD:main"]);
        git(&self.editor, &["rev-parse", "--short=10", "HEAD"])
    }

    fn remote_log(&self) -> String {
        git(
            &self.remote,
            &["log", "-1", "--format=%an <%ae>|%s", "main"],
        )
    }
}

fn signature(body: &[u8]) -> String {
    use hmac::{Hmac, KeyInit, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(SECRET.as_bytes()).expect("key");
    mac.update(body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256={hex}")
}

/// A signed push notification; `{}` stands for a forge's body, which names the pushed
/// commit (here the delivery), so each delivery's body is its own.
fn hook(body: &str, delivery: &str) -> test::TestRequest {
    let body = match body {
        "{}" => format!("{{\"ref\":\"refs/heads/main\",\"after\":\"{delivery}\"}}"),
        other => other.to_string(),
    };
    test::TestRequest::post()
        .uri("/api/git/push")
        .insert_header(("X-GitHub-Event", "push"))
        .insert_header(("X-GitHub-Delivery", delivery))
        .insert_header(("X-Hub-Signature-256", signature(body.as_bytes())))
        .set_payload(body.to_string())
}

fn article(title: &str) -> String {
    format!(
        "---\ntitle: \"{title}\"\ndescription: \"Krótki opis artykułu o spacerach i odpoczynku w Gdańsku.\"\nexcerpt: \"Spacer nad morzem pomaga odpocząć.\"\ndate: \"2025-08-01\"\nimage: \"las.svg\"\nimage_alt: \"Zielony las\"\nauthor: \"Magdalena Wiśniewska\"\n---\nSpacer nad morzem to prosty sposób na odpoczynek. Opisujemy, jak zacząć.\n"
    )
}

async fn save_page<S, B>(app: &S, id: &str, text: &str)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let cookie = signed_in(app).await;
    let list = send(
        app,
        test::TestRequest::get()
            .uri("/api/pages")
            .cookie(cookie.clone()),
    )
    .await;
    let page = list
        .body
        .as_array()
        .expect("list")
        .iter()
        .find(|p| p["id"] == id)
        .expect("the page")
        .clone();
    let answer = send(
        app,
        test::TestRequest::put()
            .uri(&format!("/api/pages/{id}"))
            .cookie(cookie)
            .set_json(json!({ "content": { "sections": [{ "type": "text", "content": text }] }, "version": page["version"] })),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["warning"], Value::Null);
}

#[actix_rt::test]
async fn a_panel_save_is_the_admins_commit_on_the_remote_and_an_editors_push_is_served() {
    let r = repos();
    let admin = admin_app!(r.s);
    save_page(&admin, "pages/blog", "Wstęp bloga zapisany w panelu.").await;
    r.wait_for("the save is pushed", |s| {
        s.unpushed == 0 && s.pushed_at.is_some()
    });
    assert_eq!(
        r.remote_log(),
        format!("Administrator <{ADMIN}>|Blog: treść (akapit 1)")
    );
    // The editor pulls the administrator's commit, then pushes an article of their own.
    git(&r.editor, &["pull", "-q", "--ff-only", "origin", "main"]);
    assert!(
        std::fs::read_to_string(r.editor.join("content/pages/blog.md"))
            .expect("pulled")
            .contains("zapisany w panelu")
    );
    let commit = r.editor_pushes(
        "content/blog/spacer-nad-morzem.md",
        &article("Spacer nad morzem"),
    );
    let public = public_app!(r.s);
    let answer = send(&public, hook("{\"ref\":\"refs/heads/main\"}", "d-1")).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    r.wait_for("the editor's commit is applied", |s| {
        s.applied.as_deref() == Some(commit.as_str())
    });
    let page = send(
        &public,
        test::TestRequest::get().uri("/blog/spacer-nad-morzem"),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("Spacer nad morzem"));
    assert_eq!(git(&r.s.root, &["rev-parse", "--short=10", "HEAD"]), commit);
}

#[actix_rt::test]
async fn a_broken_commit_is_not_published_and_the_next_good_one_clears_it() {
    let r = repos();
    let public = public_app!(r.s);
    let broken = r.editor_pushes(
        "content/blog/zepsuty.md",
        "---\ntitle: \"Bez zamknięcia\ndate: 2025-13-45\n---\nTekst.\n",
    );
    send(&public, hook("{}", "d-1")).await;
    r.wait_for("the broken commit is reported", |s| s.broken.is_some());
    let status = r.status();
    let refused = status.broken.expect("broken");
    assert_eq!(refused.commit, broken);
    assert_eq!(refused.author, "Ewa Redaktorka <ewa@example.pl>");
    assert!(
        refused
            .problems
            .iter()
            .all(|p| p.starts_with("content/blog/zepsuty.md:")),
        "{:?}",
        refused.problems
    );
    assert_eq!(
        send(&public, test::TestRequest::get().uri("/blog/zepsuty"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert!(!r.s.root.join("content/blog/zepsuty.md").exists());
    let health = send(&public, test::TestRequest::get().uri("/api/health")).await;
    let git_health = &health.body["git"];
    assert_eq!(git_health["broken"], true);
    for detail in ["ewa@example.pl", "Redaktorka", "zepsuty", broken.as_str()] {
        assert!(!health.text.contains(detail), "{detail}: {}", health.text);
    }

    let fixed = r.editor_pushes("content/blog/zepsuty.md", &article("Naprawiony artykuł"));
    send(&public, hook("{}", "d-2")).await;
    r.wait_for("the good commit is applied", |s| {
        s.applied.as_deref() == Some(fixed.as_str())
    });
    assert_eq!(r.status().broken, None);
    assert_eq!(
        send(&public, test::TestRequest::get().uri("/blog/zepsuty"))
            .await
            .status,
        StatusCode::OK
    );
}

#[actix_rt::test]
async fn a_commit_with_gits_conflict_markers_is_not_published() {
    let r = repos();
    let public = public_app!(r.s);
    let text = article("Konflikt").replace(
        "\n---\n",
        "\n---\n<<<<<<< HEAD\nNasza wersja.\n=======\nIch wersja.\n>>>>>>> 3f2a9c1\n",
    );
    let commit = r.editor_pushes("content/blog/konflikt.md", &text);
    send(&public, hook("{}", "m-1")).await;
    let problems = r.refused(&commit);
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("content/blog/konflikt.md:")
                && p.contains("git add content/blog/konflikt.md i git commit")),
        "{problems:?}"
    );
    let page = send(&public, test::TestRequest::get().uri("/blog/konflikt")).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
}

#[actix_rt::test]
async fn a_file_outside_content_is_named_once_and_holds_back_no_content() {
    let r = repos();
    let public = public_app!(r.s);
    let admin = admin_app!(r.s);
    std::fs::write(r.editor.join("notatki.txt"), "Plan artykułów na jesień.").expect("write");
    let first = r.editor_pushes(
        "content/blog/spacer-nad-morzem.md",
        &article("Spacer nad morzem"),
    );
    send(&public, hook("{}", "d-1")).await;
    r.wait_for("the content of the same commit is applied", |s| {
        s.applied.as_deref() == Some(first.as_str())
    });
    let served = send(
        &public,
        test::TestRequest::get().uri("/blog/spacer-nad-morzem"),
    )
    .await;
    assert_eq!(served.status, StatusCode::OK);
    let waiting = r
        .status()
        .needs_deploy
        .expect("the note waits for a deploy");
    assert_eq!(waiting.problems.len(), 1, "{:?}", waiting.problems);
    assert!(
        waiting.problems[0].starts_with("notatki.txt: ")
            && waiting.problems[0].contains("wymaga wdrożenia"),
        "{:?}",
        waiting.problems
    );
    // A later content push and a panel save go through; the note is still named once.
    let second = r.editor_pushes("content/blog/las-oliwski.md", &article("Las Oliwski"));
    send(&public, hook("{}", "d-2")).await;
    r.wait_for("the later commit is applied", |s| {
        s.applied.as_deref() == Some(second.as_str())
    });
    assert_eq!(
        r.status()
            .needs_deploy
            .expect("still waiting")
            .problems
            .len(),
        1
    );
    save_page(&admin, "pages/blog", "Wstęp po notatkach.").await;
    r.wait_for("the panel's save is pushed", |s| {
        s.unpushed == 0 && s.pushed_at.is_some()
    });
    assert!(
        r.remote_log().starts_with("Administrator"),
        "{}",
        r.remote_log()
    );
    let health = send(&public, test::TestRequest::get().uri("/api/health")).await;
    assert_eq!(health.body["git"]["needsDeploy"], true, "{}", health.text);
    assert_eq!(health.body["git"]["failing"], false, "{}", health.text);
}

#[actix_rt::test]
async fn a_failed_fetch_is_shown_with_nothing_to_push_and_cleared_by_the_next_one() {
    let r = repos();
    let public = public_app!(r.s);
    r.wait_for("the first fetch", |s| s.fetches >= 1 && s.errors.is_empty());
    let away = r.remote.with_extension("away");
    std::fs::rename(&r.remote, &away).expect("the remote goes away");
    send(&public, hook("{}", "d-1")).await;
    r.wait_for("the failed fetch is shown", |s| {
        s.errors.iter().any(|e| e.step == contentsync::Step::Fetch)
    });
    let status = r.status();
    assert_eq!(status.unpushed, 0);
    let error = status.last_error.expect("the panel says why");
    assert!(error.starts_with("Nie udało się pobrać zmian"), "{error}");
    let health = send(&public, test::TestRequest::get().uri("/api/health")).await;
    assert_eq!(health.body["git"]["failing"], true, "{}", health.text);
    assert_eq!(
        health.body["git"]["failingSteps"],
        json!(["fetch"]),
        "{}",
        health.text
    );
    std::fs::rename(&away, &r.remote).expect("the remote is back");
    send(&public, hook("{}", "d-2")).await;
    r.wait_for("the next fetch clears it", |s| {
        s.errors.is_empty() && s.last_error.is_none()
    });
    let health = send(&public, test::TestRequest::get().uri("/api/health")).await;
    assert_eq!(health.body["git"]["failing"], false, "{}", health.text);
}

#[actix_rt::test]
async fn a_force_push_that_drops_published_commits_is_refused() {
    let r = repos();
    let public = public_app!(r.s);
    let first = r.editor_pushes("content/blog/pierwszy.md", &article("Pierwszy artykuł"));
    send(&public, hook("{}", "d-1")).await;
    r.wait_for("the first commit is applied", |s| {
        s.applied.as_deref() == Some(first.as_str())
    });
    git(&r.editor, &["reset", "-q", "--hard", "HEAD~1"]);
    std::fs::write(
        r.editor.join("content/blog/inny.md"),
        article("Inna historia"),
    )
    .expect("write");
    git(&r.editor, &["add", "-A"]);
    git(&r.editor, &["commit", "-q", "-m", "Inna historia"]);
    git(&r.editor, &["push", "-q", "--force", "origin", "HEAD:main"]);
    let rewritten = git(&r.editor, &["rev-parse", "--short=10", "HEAD"]);
    send(&public, hook("{}", "d-2")).await;
    r.wait_for("the force-push is refused", |s| s.force_push.is_some());
    let refused = r.status().force_push.expect("refused");
    assert_eq!(refused.commit, rewritten);
    assert!(
        refused.problems[0].contains("force-push"),
        "{:?}",
        refused.problems
    );
    assert_eq!(r.audited("git_force_push").len(), 1);
    // The history put back: the banner goes.
    git(
        &r.editor,
        &[
            "push",
            "-q",
            "--force",
            "origin",
            &format!("{first}:refs/heads/main"),
        ],
    );
    send(&public, hook("{}", "d-3")).await;
    r.wait_for("the force-push is no longer reported", |s| {
        s.force_push.is_none()
    });
    assert!(!r.s.root.join("content/blog/inny.md").exists());
    assert!(r.s.root.join("content/blog/pierwszy.md").exists());
}

#[actix_rt::test]
async fn the_webhook_refuses_bad_signatures_huge_bodies_and_replays_and_coalesces_a_flood() {
    let r = repos();
    let public = public_app!(r.s);
    r.wait_for("the first fetch", |s| s.fetches >= 1);
    let unsigned = test::TestRequest::post()
        .uri("/api/git/push")
        .set_payload("{}");
    assert_eq!(send(&public, unsigned).await.status, StatusCode::FORBIDDEN);
    let forged = test::TestRequest::post()
        .uri("/api/git/push")
        .insert_header(("X-Hub-Signature-256", signature(b"{\"inny\":1}")))
        .set_payload("{}");
    assert_eq!(send(&public, forged).await.status, StatusCode::FORBIDDEN);
    let wrong_token = test::TestRequest::post()
        .uri("/api/git/push")
        .insert_header(("X-Gitlab-Token", "zgadywane"))
        .set_payload("{}");
    assert_eq!(
        send(&public, wrong_token).await.status,
        StatusCode::FORBIDDEN
    );
    let announced = test::TestRequest::post()
        .uri("/api/git/push")
        .insert_header(("X-Hub-Signature-256", "sha256=00"))
        .set_payload("{}")
        .insert_header(("Content-Length", "1073741824"));
    assert_eq!(
        send(&public, announced).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let huge = "x".repeat(sidecar::api::git::webhook::MAX_BODY + 1);
    let sent = send(&public, hook(&huge, "d-huge")).await;
    assert_eq!(sent.status, StatusCode::PAYLOAD_TOO_LARGE);
    let gitlab = test::TestRequest::post()
        .uri("/api/git/push")
        .insert_header(("X-Gitlab-Token", SECRET))
        .insert_header(("X-Gitlab-Event-UUID", "g-1"))
        .set_payload("{}");
    assert_eq!(send(&public, gitlab).await.status, StatusCode::ACCEPTED);
    assert_eq!(
        send(&public, hook("{}", "d-1")).await.status,
        StatusCode::ACCEPTED
    );
    let replay = send(&public, hook("{}", "d-1")).await;
    assert_eq!(
        (replay.status, &replay.body["replay"]),
        (StatusCode::OK, &json!(true))
    );
    // The delivery's id header is outside the signature: a replay under a new id is still
    // the same signed body.
    let body = "{\"ref\":\"refs/heads/main\",\"after\":\"d-1\"}";
    let renamed = test::TestRequest::post()
        .uri("/api/git/push")
        .insert_header(("X-GitHub-Delivery", "ein-neuer-name"))
        .insert_header(("X-Hub-Signature-256", signature(body.as_bytes())))
        .set_payload(body);
    let renamed = send(&public, renamed).await;
    assert_eq!(
        (renamed.status, &renamed.body["replay"]),
        (StatusCode::OK, &json!(true))
    );

    // 500 signed hooks at once while a new commit waits: a handful of fetches, one at a time.
    r.wait_for("the hooks' fetches are done", |s| s.fetches >= 2);
    let before = r.status().fetches;
    let commit = r.editor_pushes("content/blog/powodz.md", &article("Po powodzi"));
    let started = Instant::now();
    for n in 0..500 {
        let answer = send(&public, hook("{}", &format!("flood-{n}"))).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED);
    }
    let flood = started.elapsed();
    r.wait_for("the flood's commit is applied", |s| {
        s.applied.as_deref() == Some(commit.as_str())
    });
    clock::sleep(Duration::from_millis(300));
    let fetches = r.status().fetches - before;
    assert!(fetches <= 10, "500 hooks made {fetches} fetches");
    assert!(flood < Duration::from_secs(20), "{flood:?}");
    let home = send(&public, test::TestRequest::get().uri("/")).await;
    assert_eq!(home.status, StatusCode::OK);
}

#[actix_rt::test]
async fn saves_publish_while_the_remote_is_down_and_are_pushed_when_it_is_back() {
    let r = repos();
    let admin = admin_app!(r.s);
    r.wait_for("the first fetch", |s| s.fetches >= 1);
    let away = r.remote.with_extension("away");
    std::fs::rename(&r.remote, &away).expect("the remote goes away");
    save_page(
        &admin,
        "pages/blog",
        "Zapis, gdy repozytorium nie odpowiada.",
    )
    .await;
    let public = public_app!(r.s);
    let blog = send(&public, test::TestRequest::get().uri("/blog")).await;
    assert!(blog.text.contains("Zapis, gdy repozytorium nie odpowiada."));
    r.wait_for("the failed push is shown", |s| {
        s.unpushed == 1 && s.last_error.as_ref().is_some_and(|e| e.contains("wysłać"))
    });
    let health = send(&public, test::TestRequest::get().uri("/api/health")).await;
    assert_eq!(health.body["git"]["unpushed"], 1, "{}", health.text);
    assert_eq!(health.body["git"]["failing"], true, "{}", health.text);
    let error = r.status().last_error.expect("the panel says why");
    assert!(error.starts_with("Nie udało się wysłać zmian"), "{error}");
    assert!(!health.text.contains("wysłać"), "{}", health.text);
    std::fs::rename(&away, &r.remote).expect("the remote is back");
    r.wait_for("the save is pushed", |s| {
        s.unpushed == 0 && s.last_error.is_none()
    });
    assert!(r
        .remote_log()
        .starts_with(&format!("Administrator <{ADMIN}>|")));
}

#[actix_rt::test]
async fn both_sides_at_once_keep_both_versions_and_the_panels_other_changes() {
    let r = repos();
    let admin = admin_app!(r.s);
    r.wait_for("the first fetch", |s| s.fetches >= 1);
    let away = r.remote.with_extension("away");
    std::fs::rename(&r.remote, &away).expect("the remote goes away");
    save_page(&admin, "pages/blog", "Wersja z panelu.").await;
    save_page(&admin, "pages/cennik", "Cennik poprawiony w panelu.").await;
    r.wait_for("the failed push is shown", |s| {
        s.unpushed == 2 && s.last_error.as_ref().is_some_and(|e| e.contains("wysłać"))
    });
    // Meanwhile the editor changed the same page and pushed before the panel's retry: to the
    // repository where it is while the panel cannot reach it, so that the retry surely comes
    // after (pushed once it was back, the retry could win the race and refuse the editor's push).
    let editor_text = std::fs::read_to_string(r.editor.join("content/pages/blog.md"))
        .expect("blog page")
        + "\nAkapit dopisany przez redakcję.\n";
    let commit = r.editor_pushes_to(
        &away.to_string_lossy(),
        "content/pages/blog.md",
        &editor_text,
    );
    std::fs::rename(&away, &r.remote).expect("the remote is back");
    r.s.state.git.as_ref().expect("git").fetch_soon();
    r.wait_for("the editor's commit is applied", |s| {
        s.applied.as_deref() == Some(commit.as_str())
    });
    let status = r.status();
    let conflict = status.conflicts.first().expect("a conflict");
    assert_eq!(conflict.doc_id, "pages/blog");
    assert!(conflict.panel_text.contains("Wersja z panelu."));
    assert!(conflict
        .editor_text
        .contains("Akapit dopisany przez redakcję."));
    assert!(r
        .s
        .file("pages/blog.md")
        .contains("Akapit dopisany przez redakcję."));
    let revisions = r.s.state.db.revisions("pages/blog").expect("revisions");
    let kept = revisions
        .iter()
        .find(|rev| rev.author.starts_with("repozytorium"))
        .expect("the panel's version kept");
    let text = |id| {
        r.s.state
            .db
            .revision_texts("pages/blog", id)
            .expect("text")
            .expect("a text")
            .after
    };
    assert!(text(kept.id).contains("Akapit dopisany przez redakcję."));
    assert!(revisions
        .iter()
        .any(|rev| text(rev.id).contains("Wersja z panelu.")));
    let cookie = signed_in(&admin).await;
    let shown = send(
        &admin,
        test::TestRequest::get().uri("/api/git").cookie(cookie),
    )
    .await;
    assert_eq!(shown.body["status"]["conflicts"][0]["docId"], "pages/blog");

    // A restart keeps the banner: the server opened again on the same data shows the conflict.
    let url = r.remote.to_string_lossy().into_owned();
    let extra = [
        ("GIT_REMOTE", url.as_str()),
        ("GIT_BRANCH", "main"),
        ("GIT_POLL_SECONDS", "0"),
        ("GIT_WEBHOOK_SECRET", SECRET),
    ];
    let restarted = {
        let config = config(r.s.dir.path(), &r.s.root, &extra);
        let content = site::load(&site::Project::at(&r.s.root)).expect("content loads");
        sidecar::AppState::open(&config, &content.site).expect("state opens again")
    };
    let after_restart = restarted.git.as_ref().expect("git is on").status();
    assert_eq!(after_restart.conflicts, status.conflicts);
    drop(restarted);

    // Choosing a version settles it for good.
    let cookie = signed_in(&admin).await;
    let settled = send(
        &admin,
        test::TestRequest::delete()
            .uri("/api/git/conflicts/pages/blog")
            .insert_header(("Origin", PANEL_ORIGIN))
            .cookie(cookie),
    )
    .await;
    assert_eq!(settled.status, StatusCode::NO_CONTENT, "{:?}", settled.body);
    assert!(r.status().conflicts.is_empty());
    assert!(r.s.state.db.conflicts().expect("read").is_empty());
}

#[actix_rt::test]
async fn an_uploaded_and_a_deleted_picture_are_the_admins_commits_on_the_remote() {
    let r = repos();
    let admin = admin_app!(r.s);
    let cookie = signed_in(&admin).await;
    // A 1×1 PNG.
    let png: Vec<u8> = vec![
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8,
        0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];
    let stored = send(
        &admin,
        test::TestRequest::post()
            .uri("/api/images?name=kropka.png&alt=Kropka")
            .cookie(cookie.clone())
            .insert_header(("Content-Type", "application/octet-stream"))
            .set_payload(png.clone()),
    )
    .await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.text);
    assert_eq!(stored.body["warning"], Value::Null);
    r.wait_for("the upload is pushed", |s| {
        s.unpushed == 0 && s.pushed_at.is_some()
    });
    assert_eq!(
        r.remote_log(),
        format!("Administrator <{ADMIN}>|Nowy obraz images/kropka.png z panelu administracyjnego")
    );
    let on_remote = std::process::Command::new("git")
        .arg("-C")
        .arg(&r.remote)
        .args(["show", "main:content/images/kropka.png"])
        .output()
        .expect("git show");
    assert_eq!(on_remote.stdout, png);
    let deleted = send(
        &admin,
        test::TestRequest::delete()
            .uri("/api/images/kropka.png")
            .cookie(cookie),
    )
    .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    r.wait_for("the deletion is pushed", |_| {
        r.remote_log()
            .ends_with("Usunięcie obrazu images/kropka.png w panelu administracyjnym")
    });
}

/// Whether anything (a link included) has the name `path`.
fn there(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

impl Repos {
    /// The editor commits `make` (run in the clone, `git add -f` of everything), pushes it and
    /// sends the signed webhook; the short commit.
    async fn editor_commits(&self, what: &str, make: impl FnOnce(&Path)) -> String {
        make(&self.editor);
        git(&self.editor, &["add", "-A", "-f"]);
        git(&self.editor, &["commit", "-q", "-m", what]);
        git(&self.editor, &["push", "-q", "origin", "HEAD:main"]);
        let commit = git(&self.editor, &["rev-parse", "--short=10", "HEAD"]);
        let public = public_app!(self.s);
        let answer = send(&public, hook("{}", &commit)).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        commit
    }

    fn refused(&self, commit: &str) -> Vec<String> {
        self.wait_for("the commit is refused", |s| {
            s.broken.as_ref().is_some_and(|b| b.commit == commit)
        });
        self.status().broken.expect("refused").problems
    }

    fn audited(&self, event: &str) -> Vec<String> {
        self.s
            .state
            .auth
            .store
            .audit(100, None)
            .expect("audit")
            .into_iter()
            .filter(|e| e.event == event)
            .map(|e| e.detail)
            .collect()
    }
}

#[actix_rt::test]
async fn a_pushed_link_to_the_database_or_a_system_file_is_refused_and_nothing_is_served() {
    use std::os::unix::fs::symlink;
    let r = repos();
    let commit = r
        .editor_commits("Obrazy", |clone| {
            let images = clone.join("content/images");
            // From content/images/ of the server's site to its data folder (DATA_DIR).
            symlink("../../../var/site.sqlite3", images.join("leak.svg")).expect("link");
            symlink("/etc/passwd", images.join("passwd.gif")).expect("link");
            symlink("/etc", clone.join("content/blog/etc")).expect("link");
        })
        .await;
    let problems = r.refused(&commit);
    for file in [
        "content/images/leak.svg",
        "content/images/passwd.gif",
        "content/blog/etc",
    ] {
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&format!("{file}: ")) && p.contains("dowiązanie")),
            "{file}: {problems:?}"
        );
    }
    let public = public_app!(r.s);
    for path in ["/images/leak.svg", "/images/passwd.gif"] {
        let answer = send(&public, test::TestRequest::get().uri(path)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!answer.text.contains("root:") && !answer.text.contains("SQLite"));
    }
    // Never checked out: neither in content/ nor in the work tree the checks use.
    assert!(!there(&r.s.root.join("content/images/leak.svg")));
    assert!(!there(
        &r.s.dir.path().join("var/git-check/content/images/leak.svg")
    ));
    let audited = r.audited("git_refused");
    assert!(
        audited
            .iter()
            .any(|d| d.starts_with(&commit) && d.contains("dowiązanie")),
        "{audited:?}"
    );
    let health = send(&public, test::TestRequest::get().uri("/api/health")).await;
    assert_eq!(health.body["git"]["broken"], true);
    for detail in ["leak", "passwd", "content/", commit.as_str()] {
        assert!(!health.text.contains(detail), "{detail}: {}", health.text);
    }
}

#[actix_rt::test]
async fn a_planted_temporary_link_is_refused_at_the_commit_and_never_written_through() {
    use std::os::unix::fs::symlink;
    let r = repos();
    let target = r.s.dir.path().join("cel.txt");
    std::fs::write(&target, "nietknięty").expect("write");
    let target_text = target.to_string_lossy().into_owned();
    let commit = r
        .editor_commits("Pułapka", |clone| {
            symlink(&target_text, clone.join("content/.cennik.yaml.saving")).expect("link");
            std::fs::write(clone.join("content/images/.notatka"), "ukryty").expect("write");
        })
        .await;
    let problems = r.refused(&commit);
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("content/.cennik.yaml.saving: ")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("content/images/.notatka: ") && p.contains("ukryta")),
        "{problems:?}"
    );
    // The same links placed on disk by other means: the next save never writes through them.
    let content = r.s.root.join("content");
    for planted in [".cennik.yaml.saving", ".cennik.yaml.creating"] {
        symlink(&target, content.join(planted)).expect("link");
    }
    let admin = admin_app!(r.s);
    let cookie = signed_in(&admin).await;
    let prices = send(
        &admin,
        test::TestRequest::get()
            .uri("/api/prices")
            .cookie(cookie.clone()),
    )
    .await
    .body;
    let mut items = prices["items"].as_array().expect("items").clone();
    items[1]["price"] = json!(210);
    let saved = send(
        &admin,
        test::TestRequest::put()
            .uri("/api/prices")
            .cookie(cookie)
            .set_json(json!({ "items": items, "version": prices["version"] })),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "nietknięty"
    );
    let cennik = content.join("cennik.yaml");
    assert!(std::fs::symlink_metadata(&cennik)
        .expect("saved")
        .file_type()
        .is_file());
    assert!(std::fs::read_to_string(&cennik)
        .expect("read")
        .contains("price: 210"));
}

/// The largest resident set this process has had, in MiB (Linux's `VmHWM`).
fn peak_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// Run alone: the peak memory measured is this process's, and tests beside it in the same
/// process (another one's push, a build) once added 200 MiB of their own to it. (The
/// standard `test` attribute: `test` here is actix's module.)
#[core::prelude::v1::test]
fn a_300_mb_blob_of_one_byte_is_refused_from_its_header() {
    let name = "git_sync::a_300_mb_blob_of_one_byte_is_refused_from_its_header";
    alone(name, || {
        actix_rt::System::new().block_on(a_300_mb_blob_is_refused())
    });
}

async fn a_300_mb_blob_is_refused() {
    let r = repos();
    r.wait_for("the first fetch", |s| s.fetches >= 1);
    let before = peak_mib();
    let commit = r
        .editor_commits("Wielki obraz", |clone| {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(clone.join("content/images/bomba.svg"))
                .expect("file");
            // 300 MB of zero bytes: a few hundred kilobytes once git has packed them.
            file.set_len(300 * 1024 * 1024).expect("size");
        })
        .await;
    let problems = r.refused(&commit);
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("content/images/bomba.svg: plik ma 300,0 MiB")),
        "{problems:?}"
    );
    let grew = peak_mib().saturating_sub(before);
    assert!(grew < 150, "the server grew by {grew} MiB");
    assert!(!there(&r.s.root.join("content/images/bomba.svg")));
    assert!(!there(
        &r.s.dir
            .path()
            .join("var/git-check/content/images/bomba.svg")
    ));
    let public = public_app!(r.s);
    let answer = send(&public, test::TestRequest::get().uri("/images/bomba.svg")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}

/// The article's three paragraphs.
const PARAGRAPHS: [&str; 3] = [
    "Pierwszy akapit: spacer nad morzem pomaga odpocząć.",
    "Drugi akapit: warto wychodzić o stałej porze.",
    "Trzeci akapit: wystarczy kwadrans dziennie.",
];

/// The panel replaces `old` with `new` in the article's text and saves it.
async fn panel_replaces<S, B>(app: &S, id: &str, old: &str, new: &str)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let cookie = signed_in(app).await;
    let list = send(
        app,
        test::TestRequest::get()
            .uri("/api/pages")
            .cookie(cookie.clone()),
    )
    .await;
    let page = list
        .body
        .as_array()
        .and_then(|l| l.iter().find(|p| p["id"] == id))
        .expect("the article")
        .clone();
    let mut sections = page["content"]["sections"].clone();
    let mut found = false;
    for section in sections.as_array_mut().expect("sections") {
        if let Some(text) = section["content"].as_str().filter(|t| t.contains(old)) {
            section["content"] = json!(text.replace(old, new));
            found = true;
        }
    }
    assert!(found, "{old}: {sections}");
    let answer = send(
        app,
        test::TestRequest::put()
            .uri(&format!("/api/pages/{id}"))
            .cookie(cookie)
            .set_json(json!({ "content": { "sections": sections }, "version": page["version"] })),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
}

#[actix_rt::test]
async fn other_paragraphs_of_one_file_merge_and_the_same_paragraph_is_a_conflict_resolved_by_a_commit(
) {
    let r = repos();
    let admin = admin_app!(r.s);
    let public = public_app!(r.s);
    let file = "content/blog/trzy-akapity.md";
    let text = article("Trzy akapity").replace(
        "Spacer nad morzem to prosty sposób na odpoczynek. Opisujemy, jak zacząć.\n",
        &format!("{}\n", PARAGRAPHS.join("\n\n")),
    );
    let first = r.editor_pushes(file, &text);
    send(&public, hook("{}", "d-1")).await;
    r.wait_for("the article is applied", |s| {
        s.applied.as_deref() == Some(first.as_str())
    });
    // The editor changes paragraph 3 and pushes; the server has not fetched it when the
    // panel changes paragraph 1: its push is refused, and the fetch merges both.
    let editors = std::fs::read_to_string(r.editor.join(file))
        .expect("the article")
        .replace(PARAGRAPHS[2], "Trzeci akapit od redaktorki.");
    let commit = r.editor_pushes(file, &editors);
    panel_replaces(
        &admin,
        "blog/trzy-akapity",
        PARAGRAPHS[0],
        "Pierwszy akapit poprawiony panelem.",
    )
    .await;
    r.wait_for("both changes are merged and pushed", |s| {
        s.applied.as_deref() == Some(commit.as_str()) && s.unpushed == 0
    });
    assert!(r.status().conflicts.is_empty(), "{:?}", r.status());
    let served = send(&public, test::TestRequest::get().uri("/blog/trzy-akapity")).await;
    for words in [
        "Pierwszy akapit poprawiony panelem.",
        "Trzeci akapit od redaktorki.",
    ] {
        assert!(
            served.text.contains(words),
            "{words}: {:?} {} {}",
            r.status(),
            r.s.file("blog/trzy-akapity.md"),
            git(&r.remote, &["log", "--format=%an|%s", "main"])
        );
    }
    let log = git(&r.remote, &["log", "--format=%an|%s", "main", "--", file]);
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "Administrator|Trzy akapity: treść (akapit 1)",
            "Ewa Redaktorka|Redakcja: content/blog/trzy-akapity.md"
        ],
        "{log}"
    );

    // Both change paragraph 2: the editor's version is served, the conflict is shown with
    // both texts, and publishing the panel's version is a commit.
    git(&r.editor, &["pull", "-q", "--ff-only", "origin", "main"]);
    let editors = std::fs::read_to_string(r.editor.join(file))
        .expect("the article")
        .replace(PARAGRAPHS[1], "Drugi akapit od redaktorki.");
    let commit = r.editor_pushes(file, &editors);
    panel_replaces(
        &admin,
        "blog/trzy-akapity",
        PARAGRAPHS[1],
        "Drugi akapit poprawiony panelem.",
    )
    .await;
    r.wait_for("the conflict is shown", |s| {
        s.applied.as_deref() == Some(commit.as_str()) && !s.conflicts.is_empty()
    });
    let conflict = r.status().conflicts[0].clone();
    assert_eq!(conflict.doc_id, "blog/trzy-akapity");
    assert!(conflict.editor_text.contains("Drugi akapit od redaktorki."));
    assert!(conflict
        .panel_text
        .contains("Drugi akapit poprawiony panelem."));
    assert!(r
        .s
        .file("blog/trzy-akapity.md")
        .contains("Drugi akapit od redaktorki."));
    panel_replaces(
        &admin,
        "blog/trzy-akapity",
        "Drugi akapit od redaktorki.",
        "Drugi akapit poprawiony panelem.",
    )
    .await;
    r.wait_for("the resolution is pushed", |s| s.unpushed == 0);
    let cookie = signed_in(&admin).await;
    let settled = send(
        &admin,
        test::TestRequest::delete()
            .uri("/api/git/conflicts/blog/trzy-akapity")
            .insert_header(("Origin", PANEL_ORIGIN))
            .cookie(cookie),
    )
    .await;
    assert_eq!(settled.status, StatusCode::NO_CONTENT);
    let last = git(&r.remote, &["log", "-1", "--format=%an|%s", "main"]);
    assert_eq!(last, "Administrator|Trzy akapity: treść (akapit 2)");
    let shown = git(&r.remote, &["show", &format!("main:{file}")]);
    for words in [
        "Pierwszy akapit poprawiony panelem.",
        "Drugi akapit poprawiony panelem.",
        "Trzeci akapit od redaktorki.",
    ] {
        assert!(shown.contains(words), "{words}: {shown}");
    }
}

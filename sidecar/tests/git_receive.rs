//! The hosted repository's one writer: a panel save and an editor's push at the same moment
//! end with both changes live, or with a refusal that is true and says how to go on — never
//! with "done" followed by git's "[remote rejected]". A push is checked once, by the running
//! site, and everything wrong with it (a conflict git left in a file included) is in its
//! answer; a refused push is in the audit log with the token it came with.

use crate::common::git;
use crate::common::wait_until;
use crate::git_default::http;
use crate::git_hosted::{hosted, push, Hosted, ARTICLE};

use contentsync::receive::{LIVE, REFUSED};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

/// The panel's status of the repository.
fn git_status(site: &Hosted) -> Value {
    let (_, _, body) = http(site.admin_port, "GET", "/api/git", &site.cookie, None);
    serde_json::from_str::<Value>(&body).unwrap_or_default()["status"].clone()
}

/// Saves the price list page's text as `text` in the panel: the answer's status.
fn panel_saves(site: &Hosted, text: &str) -> u16 {
    let (_, _, pages) = http(site.admin_port, "GET", "/api/pages", &site.cookie, None);
    let pages: Value = serde_json::from_str(&pages).expect("pages");
    let page = pages
        .as_array()
        .and_then(|p| p.iter().find(|p| p["id"] == "pages/cennik"))
        .expect("the blog page")
        .clone();
    let save = json!({ "content": { "sections": [{ "type": "text", "content": text }] }, "version": page["version"] });
    let (status, _, body) = http(
        site.admin_port,
        "PUT",
        "/api/pages/pages/cennik",
        &site.cookie,
        Some(&save),
    );
    assert!(status == 200 || status == 409, "{status}: {body}");
    status
}

fn served(site: &Hosted, path: &str, text: &str) -> bool {
    http(site.port, "GET", path, "", None).2.contains(text)
}

/// Commits a new article `slug` in the clone.
fn new_article(clone: &Path, slug: &str) {
    let text = ARTICLE.replace("Artykuł wysłany przez git", &format!("Artykuł {slug}"));
    std::fs::write(clone.join(format!("content/blog/{slug}.md")), text).expect("write");
    git(clone, &["add", "-A"]);
    git(clone, &["commit", "-q", "-m", &format!("Artykuł {slug}")]);
}

/// The subjects of the hosted branch's commits, newest first.
fn branch_log(site: &Hosted) -> String {
    git(
        &site.dir.path().join("var/content.git"),
        &["log", "--format=%an|%s", "main"],
    )
}

/// What a push said, judged: taken and live, or refused truly (saying how to go on), never
/// both.
fn judged(taken: bool, said: &str) {
    assert!(
        !said.contains("Zmiany sprawdzone: wszystko w porządku"),
        "{said}"
    );
    match taken {
        true => {
            assert!(said.contains(LIVE), "{said}");
            assert!(!said.contains("rejected"), "{said}");
        }
        false => {
            assert!(!said.contains(LIVE), "{said}");
            // The server's refusal, or git's own when the panel's save was on the branch
            // before the push started (git then sends nothing and asks for a pull).
            let ours = said.contains(REFUSED) && said.contains("git pull --rebase");
            assert!(ours || said.contains("(fetch first)"), "{said}");
        }
    }
}

#[test]
fn a_panel_save_made_while_a_push_is_checked_waits_for_it_and_both_are_live() {
    let site = hosted();
    let (_, token) = site.token("Anna");
    let clone = site.clone(&token, "anna");
    let mut raced = false;
    for attempt in 0..5 {
        let slug = format!("w-trakcie-{attempt}");
        new_article(&clone, &slug);
        let pushing = {
            let clone = clone.clone();
            std::thread::spawn(move || push(&clone))
        };
        // The save is made once the server is receiving the push: it waits for the push.
        let started = Instant::now();
        while !pushing.is_finished() && started.elapsed() < Duration::from_secs(60) {
            if git_status(&site)["receiving"] == true {
                raced = true;
                break;
            }
            clock::sleep(Duration::from_millis(2));
        }
        let intro = format!("Cennik zapisany podczas sprawdzania, próba {attempt}.");
        assert_eq!(panel_saves(&site, &intro), 200);
        let (taken, said) = pushing.join().expect("the push");
        judged(taken, &said);
        assert!(taken, "nothing stood in its way: {said}");
        assert!(served(
            &site,
            &format!("/blog/{slug}"),
            &format!("Artykuł {slug}")
        ));
        assert!(served(&site, "/cennik", &intro));
        wait_until(
            "the panel's save is on the branch after the push",
            30,
            || {
                let log = branch_log(&site);
                log.starts_with("Administrator|") && log.contains(&format!("Artykuł {slug}"))
            },
        );
        git(&clone, &["pull", "-q", "--rebase", "origin", "main"]);
        if raced {
            break;
        }
    }
    assert!(raced, "the save never met a push being received");
}

#[test]
fn a_push_and_a_panel_save_at_once_are_both_live_or_the_push_is_truly_refused() {
    let site = hosted();
    let (_, token) = site.token("Ola");
    let clone = site.clone(&token, "ola");
    for attempt in 0..3 {
        let slug = format!("naraz-{attempt}");
        new_article(&clone, &slug);
        let intro = format!("Cennik zapisany równocześnie, próba {attempt}.");
        let saving = {
            let (port, cookie, intro) = (site.admin_port, site.cookie.clone(), intro.clone());
            std::thread::spawn(move || {
                let (_, _, pages) = http(port, "GET", "/api/pages", &cookie, None);
                let pages: Value = serde_json::from_str(&pages).expect("pages");
                let version = pages
                    .as_array()
                    .and_then(|p| p.iter().find(|p| p["id"] == "pages/cennik"))
                    .map(|p| p["version"].clone());
                let save = json!({ "content": { "sections": [{ "type": "text", "content": intro }] }, "version": version });
                http(port, "PUT", "/api/pages/pages/cennik", &cookie, Some(&save)).0
            })
        };
        let (taken, said) = push(&clone);
        assert_eq!(saving.join().expect("the save"), 200);
        eprintln!(
            "at once, attempt {attempt}: {}",
            if taken { "merged" } else { "refused" }
        );
        judged(taken, &said);
        assert!(served(&site, "/cennik", &intro), "the save is live");
        assert_eq!(
            served(&site, &format!("/blog/{slug}"), &format!("Artykuł {slug}")),
            taken,
            "{said}"
        );
        if !taken {
            // Exactly what the refusal says to do brings the panel's save and takes the push.
            wait_until("the panel's save is on the branch", 30, || {
                branch_log(&site).starts_with("Administrator|")
            });
            // As git says when the branch moved again meanwhile (the server's own commits of
            // the save): pull once more, at most three times.
            let mut said = String::new();
            let taken = (0..3).any(|_| {
                git(&clone, &["pull", "-q", "--rebase", "origin", "main"]);
                let (taken, answer) = push(&clone);
                judged(taken, &answer);
                said = answer;
                taken
            });
            assert!(taken, "{said}");
        }
        assert!(served(
            &site,
            &format!("/blog/{slug}"),
            &format!("Artykuł {slug}")
        ));
        wait_until("both are on the branch", 30, || {
            let log = branch_log(&site);
            log.contains(&format!("Artykuł {slug}")) && log.contains("Administrator|")
        });
        git(&clone, &["pull", "-q", "--rebase", "origin", "main"]);
    }
}

#[test]
fn a_conflict_left_in_a_file_is_refused_by_the_hook_with_every_other_problem() {
    let site = hosted();
    let (_, token) = site.token("Ewa, laptop");
    let clone = site.clone(&token, "ewa");
    let before = site.branch();
    let article = ARTICLE.replace(
        "Sen porządkuje emocje dnia.",
        "<<<<<<< HEAD\nSen porządkuje emocje dnia.\n=======\nSen porządkuje dzień.\n>>>>>>> 3f2a9c1 (Poprawki)",
    );
    std::fs::write(clone.join("content/blog/sen.md"), article).expect("write");
    let cbt = clone.join("content/blog/psycholog-online-gdansk.md");
    let text = std::fs::read_to_string(&cbt).expect("read");
    std::fs::write(&cbt, text.replace("](/cennik)", "](/cennik-stary)")).expect("write");
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-q", "-m", "Nierozwiązany konflikt"]);
    let (taken, said) = push(&clone);
    assert!(!taken, "{said}");
    assert!(said.contains(&format!("remote: {REFUSED}")), "{said}");
    assert!(
        said.contains("remote:   content/blog/sen.md:10: ")
            && said.contains("git add content/blog/sen.md i git commit"),
        "{said}"
    );
    assert!(
        said.contains("/cennik-stary"),
        "every problem at once: {said}"
    );
    assert_eq!(site.branch(), before);
    assert!(!served(&site, "/blog/sen", "<<<<<<<"));
    let (_, _, audit) = http(site.admin_port, "GET", "/api/audit", &site.cookie, None);
    assert!(
        audit.contains("git_refused") && audit.contains("Ewa, laptop"),
        "{audit}"
    );
}

//! The hosted repository's receive of a push, against a site that records what it is asked:
//! the panel's commits not yet on the branch are merged in paragraph by paragraph, the same
//! paragraph changed on both sides and a push made on an older branch are refused with the
//! steps that resolve them, and nothing is published before the branch moved — a push whose
//! branch never moves leaves `content/` as it was.

// Integration tests: a panic is the test failing (clippy.toml allows it only in #[test] code).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};

use contentsync::receive::{self, Push, Update, Verdict, LIVE};
use contentsync::{Build, Conflict, Event, GitSync, Remote, Site};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=T", "-c", "user.email=t@example.pl"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

const TEXT: &str = "---\ntitle: \"A\"\n---\nPierwszy akapit.\n\nDrugi akapit.\n\nTrzeci akapit.\n";

/// What the site was asked to do.
#[derive(Default)]
struct Asked {
    rendered: Vec<Vec<PathBuf>>,
    published: usize,
    put_back: usize,
    audited: Vec<(Event, String)>,
}

struct Recording {
    content: PathBuf,
    asked: Arc<Mutex<Asked>>,
}

struct Recorded(Arc<Mutex<Asked>>);

impl Build for Recorded {
    fn render(&mut self, changed: &[PathBuf]) -> Result<(), Vec<String>> {
        self.0
            .lock()
            .expect("asked")
            .rendered
            .push(changed.to_vec());
        Ok(())
    }
    fn publish(&mut self) -> Result<(), Vec<String>> {
        self.0.lock().expect("asked").published += 1;
        Ok(())
    }
    fn render_back(&mut self, _: &[PathBuf]) {
        self.0.lock().expect("asked").put_back += 1;
    }
}

impl Site for Recording {
    fn content_dir(&self) -> PathBuf {
        self.content.clone()
    }
    fn lock(&self) -> Box<dyn Build + '_> {
        Box::new(Recorded(Arc::clone(&self.asked)))
    }
    fn keep_panel_version(&self, _: &Conflict) {}
    fn audit(&self, event: Event, _: &str, detail: &str) {
        let mut asked = self.asked.lock().expect("asked");
        asked.audited.push((event, detail.to_string()));
    }
}

/// The site's repository, the hosted one it was copied into, an editor's clone, the sync.
struct World {
    _dir: tempfile::TempDir,
    top: PathBuf,
    bare: PathBuf,
    editor: PathBuf,
    git: Arc<GitSync>,
    site: Arc<Recording>,
}

fn world() -> World {
    let dir = tempfile::tempdir().expect("temp dir");
    let top = dir.path().join("site");
    std::fs::create_dir_all(top.join("content/blog")).expect("mkdir");
    std::fs::write(top.join("content/blog/a.md"), TEXT).expect("write");
    git(&top, &["init", "-q", "-b", "main"]);
    git(&top, &["add", "."]);
    git(&top, &["commit", "-q", "-m", "Strona"]);
    let bare = dir.path().join("content.git");
    git(
        dir.path(),
        &[
            "clone",
            "-q",
            "--bare",
            &top.to_string_lossy(),
            "content.git",
        ],
    );
    git(
        dir.path(),
        &["clone", "-q", &bare.to_string_lossy(), "editor"],
    );
    let remote = Remote {
        url: bare.to_string_lossy().into_owned(),
        branch: "main".into(),
        poll_seconds: 0,
        webhook_secret: None,
    };
    let data = dir.path().join("var");
    std::fs::create_dir_all(&data).expect("mkdir");
    let git_sync = GitSync::open(
        remote,
        &top.join("content"),
        &data,
        Vec::new(),
        Default::default(),
    )
    .expect("sync");
    let head = git(&top, &["rev-parse", "HEAD"]);
    git(&top, &["update-ref", "refs/remotes/sidecar/main", &head]);
    let site = Arc::new(Recording {
        content: top.join("content"),
        asked: Arc::default(),
    });
    World {
        editor: dir.path().join("editor"),
        _dir: dir,
        top,
        bare,
        git: Arc::new(git_sync),
        site,
    }
}

impl World {
    /// The panel changes `from` to `to` in `a.md` and commits (not pushed).
    fn panel_commits(&self, from: &str, to: &str) {
        let file = self.top.join("content/blog/a.md");
        let text = std::fs::read_to_string(&file).expect("read");
        std::fs::write(&file, text.replace(from, to)).expect("write");
        git(&self.top, &["commit", "-q", "-am", "Panel"]);
    }

    /// The editor commits `from` → `to` and sends the objects (not the branch) to the
    /// hosted repository, as git's receive has them before its hook answers: the push.
    fn editor_pushes(&self, from: &str, to: &str, id: &str) -> Push {
        let file = self.editor.join("content/blog/a.md");
        let text = std::fs::read_to_string(&file).expect("read");
        std::fs::write(&file, text.replace(from, to)).expect("write");
        git(&self.editor, &["commit", "-q", "-am", "Redaktorka"]);
        let old = git(&self.editor, &["rev-parse", "origin/main"]);
        let new = git(&self.editor, &["rev-parse", "HEAD"]);
        git(
            &self.editor,
            &["push", "-q", "origin", &format!("{new}:refs/incoming/{id}")],
        );
        Push {
            id: id.into(),
            updates: vec![Update {
                old,
                new,
                name: "refs/heads/main".into(),
            }],
            objects: None,
            alternates: None,
            pusher: "Anna, laptop".into(),
        }
    }

    /// Asks whether `push` may be taken: the verdict, and the thread that holds it.
    fn check(&self, push: Push) -> (Verdict, std::thread::JoinHandle<()>) {
        let (tx, rx) = mpsc::channel();
        let (git, site, bare) = (
            Arc::clone(&self.git),
            Arc::clone(&self.site),
            self.bare.clone(),
        );
        let held = std::thread::spawn(move || {
            let hosted = receive::Hosted { bare: &bare };
            receive::check(site.as_ref(), &git, &hosted, &push, |v| {
                tx.send(v).expect("told");
            });
        });
        (rx.recv().expect("a verdict"), held)
    }

    fn text(&self) -> String {
        std::fs::read_to_string(self.top.join("content/blog/a.md")).expect("read")
    }

    fn asked(&self) -> std::sync::MutexGuard<'_, Asked> {
        self.site.asked.lock().expect("asked")
    }
}

#[test]
fn the_panels_other_paragraph_is_merged_and_nothing_is_published_before_the_branch_moved() {
    let w = world();
    w.panel_commits("Pierwszy akapit.", "Pierwszy, z panelu.");
    let push = w.editor_pushes("Trzeci akapit.", "Trzeci, od redaktorki.", "1");
    let update = push.updates[0].clone();
    let (verdict, held) = w.check(push);
    assert!(verdict.taken, "{verdict:?}");
    assert_eq!(w.asked().published, 0, "not before the branch moved");
    assert!(
        w.text().contains("Pierwszy, z panelu.") && w.text().contains("Trzeci, od redaktorki.")
    );
    git(
        &w.bare,
        &["update-ref", "refs/heads/main", &update.new, &update.old],
    );
    assert_eq!(w.git.moved("1"), [LIVE]);
    held.join().expect("done");
    assert_eq!(w.asked().published, 1);
    assert_eq!(
        git(&w.top, &["rev-parse", "refs/remotes/sidecar/main"]),
        update.new
    );
    // The panel's commit, replayed on the editor's, waits to be pushed.
    assert_eq!(w.git.status().unpushed, 1);
    assert!(w.asked().audited.iter().any(|(e, _)| *e == Event::Applied));
}

#[test]
fn the_same_paragraph_changed_in_the_panel_is_refused_with_the_steps_that_merge_it() {
    let w = world();
    w.panel_commits("Drugi akapit.", "Drugi, z panelu.");
    let head = git(&w.top, &["rev-parse", "HEAD"]);
    let push = w.editor_pushes("Drugi akapit.", "Drugi, od redaktorki.", "2");
    let (verdict, held) = w.check(push);
    held.join().expect("done");
    assert!(!verdict.taken);
    let said = verdict.lines.join("\n");
    assert!(
        said.contains("content/blog/a.md: ten sam fragment zmieniono"),
        "{said}"
    );
    assert!(said.contains("git pull --rebase origin main"), "{said}");
    assert!(said.contains("git rebase --continue"), "{said}");
    assert_eq!(git(&w.top, &["rev-parse", "HEAD"]), head);
    assert!(w.text().contains("Drugi, z panelu."));
    assert_eq!(w.asked().published, 0);
    assert!(
        w.asked()
            .audited
            .iter()
            .any(|(e, d)| *e == Event::Refused && d.contains("Anna, laptop")),
        "a refused push is in the audit log with its token"
    );
}

#[test]
fn a_push_made_on_an_older_branch_is_refused_with_the_steps() {
    let w = world();
    let push = w.editor_pushes("Trzeci akapit.", "Trzeci, od redaktorki.", "3");
    // The panel's save reached the branch first.
    w.panel_commits("Pierwszy akapit.", "Pierwszy, z panelu.");
    git(
        &w.top,
        &[
            "push",
            "-q",
            &w.bare.to_string_lossy(),
            "HEAD:refs/heads/main",
        ],
    );
    let (verdict, held) = w.check(push);
    held.join().expect("done");
    assert!(!verdict.taken);
    let said = verdict.lines.join("\n");
    assert!(
        said.contains("nie zawiera najnowszej wersji gałęzi main"),
        "{said}"
    );
    assert!(said.contains("git pull --rebase origin main"), "{said}");
    assert!(!w.text().contains("od redaktorki"));
}

#[test]
fn a_checked_push_whose_branch_never_moves_leaves_content_as_it_was() {
    let w = world();
    let head = git(&w.top, &["rev-parse", "HEAD"]);
    let push = w.editor_pushes("Trzeci akapit.", "Trzeci, od redaktorki.", "4");
    let (verdict, held) = w.check(push);
    assert!(verdict.taken);
    assert!(w.text().contains("od redaktorki"), "staged in content/");
    // git ended without moving the branch (another writer, a full disk).
    w.git.receive_ended("4");
    held.join().expect("done");
    assert_eq!(git(&w.top, &["rev-parse", "HEAD"]), head);
    assert!(!w.text().contains("od redaktorki"));
    let asked = w.asked();
    assert_eq!((asked.published, asked.put_back), (0, 1));
    drop(asked);
    assert!(w.git.moved("4").is_empty(), "a late hook is told nothing");
}

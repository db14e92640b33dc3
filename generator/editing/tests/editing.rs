//! The panel's edits of the real content files: settings round-trip, every other line stays.

use crate::common;
use common::Fixture;
use content::Kind;
use editing::Editor;

const LATER: i64 = 4_000_000_000;

#[test]
fn every_document_round_trips_its_settings_and_changes_only_the_edited_lines() {
    let f = Fixture::real_site();
    let project = f.project();
    let editor = Editor::new(&project.content_dir);
    let docs = editor.editable_list(LATER).expect("list");
    assert!(docs.len() > 30);
    for doc in &docs {
        let file = editor.file_of(&doc.id).expect("a file");
        let before = std::fs::read_to_string(&file).expect("read");
        editor
            .save(
                &doc.id,
                &doc.version,
                &doc.content.sections,
                Some(&doc.settings),
            )
            .expect("unchanged save");
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            before,
            "{}",
            doc.id
        );
        let mut settings = doc.settings.clone();
        // Short enough for search results (a <title> of at most 70 characters).
        settings.title = format!("{} „cytat” i \\", doc.id.slug);
        settings.description = "Nowy opis # to nie komentarz".into();
        if doc.kind == Kind::Article {
            // An unlisted article becomes listed (listing one would leave it linked nowhere).
            if settings.listed == Some(false) {
                settings.listed = Some(true);
            }
            settings.date = Some("2024-02-29 08:15".into());
        }
        editor
            .save(
                &doc.id,
                &doc.version,
                &doc.content.sections,
                Some(&settings),
            )
            .expect("save");
        let after = std::fs::read_to_string(&file).expect("read");
        let old: Vec<&str> = before.lines().collect();
        let new: Vec<&str> = after.lines().collect();
        let changed: Vec<&str> = old
            .iter()
            .filter(|l| !new.contains(l))
            .chain(new.iter().filter(|l| !old.contains(l)))
            .copied()
            .collect();
        assert!(
            changed
                .iter()
                .all(|l| ["title:", "description:", "date:", "listed:"]
                    .iter()
                    .any(|k| l.starts_with(k))),
            "{}: {changed:#?}",
            doc.id
        );
        assert!(
            new.len() <= old.len() + 1,
            "{}: at most one line added",
            doc.id
        );
        let back = editor
            .editable(&doc.id, LATER)
            .expect("read")
            .expect("there");
        assert_eq!(back.settings, settings, "{}", doc.id);
        assert_eq!(back.content.sections, doc.content.sections, "{}", doc.id);
    }
    site::check(&project).expect("the edited site still builds");
}
